"""Versioned instrument definitions (PANAS items, behaviour and pairwise questions, surveys)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from attunebench.instrument import Instrument as InstrumentDefinition
from attunebench.instrument import InstrumentError, load_instrument


class InstrumentInUseError(ValidationError):
    """An instrument that a study uses is frozen: a change must become a new version."""


class Instrument(models.Model):
    name = models.SlugField(max_length=80)
    version = models.PositiveIntegerField()
    description = models.TextField(blank=True)
    definition = models.JSONField(
        help_text="The validated instrument definition (see attunebench/instrument.py)."
    )
    content_hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["name", "version"], name="instrument_unique_name_version"
            ),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="instrument_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"

    def save(self, *args, **kwargs) -> None:
        # Immutability is enforced here, not only in the admin: every write path goes through save().
        if self.pk is not None:
            stored = (
                type(self).objects.filter(pk=self.pk).values_list("content_hash", flat=True).first()
            )
            new_hash = load_instrument(self.definition).canonical_hash()
            if stored is not None and stored != new_hash and self.is_in_use():
                raise InstrumentInUseError(
                    f"Instrument {self} is used by a study and cannot change; create version {self.version + 1} instead."
                )
        self.content_hash = load_instrument(self.definition).canonical_hash()
        super().save(*args, **kwargs)

    def parsed(self) -> InstrumentDefinition:
        return load_instrument(self.definition)

    def is_in_use(self) -> bool:
        return self.pk is not None and self.studies.exists()

    def clean(self) -> None:
        try:
            parsed = load_instrument(self.definition)
        except InstrumentError as exc:
            raise ValidationError({"definition": str(exc)}) from None
        if parsed.name != self.name or parsed.version != self.version:
            raise ValidationError("The definition's name and version must match the record's.")
