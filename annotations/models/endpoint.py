"""Model endpoints: what participants talk to, as litellm sees it. Keys stay in the environment."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models

from attune_collect.env import ENV_VAR_NAME

env_var_name_validator = RegexValidator(
    ENV_VAR_NAME, "Give the NAME of an environment variable (A-Z, 0-9, _), never the key itself."
)


class ModelEndpoint(models.Model):
    alias = models.SlugField(
        max_length=64, unique=True, help_text="The anonymous name used internally and in exports."
    )
    provider = models.CharField(
        max_length=80, blank=True, help_text="Vendor, as written in exports (e.g. openai)."
    )
    model_name = models.CharField(
        max_length=200, blank=True, help_text="Model name, as written in exports."
    )
    litellm_model = models.CharField(
        max_length=200,
        help_text="The litellm model string, e.g. openai/gpt-4o or attune-demo/listener.",
    )
    params = models.JSONField(
        default=dict, blank=True, help_text="Sampling parameters: temperature, max_tokens, ..."
    )
    system_prompt = models.TextField(blank=True)
    system_prompt_version = models.CharField(max_length=40, blank=True)
    api_base = models.URLField(blank=True)
    api_key_env = models.CharField(
        max_length=100, blank=True, validators=[env_var_name_validator],
        help_text="Name of the environment variable that holds the API key.",
    )  # fmt: skip
    weight = models.PositiveIntegerField(
        default=1, help_text="Relative share of new conversations."
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["alias"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weight__gte=1), name="endpoint_weight_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(api_key_env="")
                | models.Q(api_key_env__regex=r"^[A-Z_][A-Z0-9_]*$"),
                name="endpoint_key_is_env_var_name",
            ),
        ]

    def __str__(self) -> str:
        return self.alias
