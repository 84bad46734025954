"""Configuration snapshots: the exact model configuration a conversation ran under.

A row is content-addressed (``config_hash`` = sha256 of the canonical JSON of ``definition``)
and immutable: conversations with the same configuration share one row, and a changed
configuration (an endpoint edited mid-study) is a new row. It never holds a key: the API base
is reduced to its host, and the key's variable name is left out (see services/model_configs.py).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models


class ModelConfigImmutableError(ValidationError):
    """A snapshot is never changed or deleted: conversations point at exactly this content."""


class ModelConfig(models.Model):
    config_hash = models.CharField(
        max_length=64, unique=True, help_text="sha256 of the canonical JSON of the definition."
    )
    definition = models.JSONField(help_text="Model, parameters, prompt, improver, instrument, ...")
    system_prompt_sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = "model configuration"

    def __str__(self) -> str:
        model = self.definition.get("endpoint", {}).get("model", "?")
        return f"{model} @ {self.config_hash[:12]}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ModelConfigImmutableError("A configuration snapshot never changes.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ModelConfigImmutableError("A configuration snapshot is never deleted.")
