"""Model endpoints: what participants talk to, as litellm sees it. Keys stay in the environment."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models

from attune_collect.config import key_env_policy
from attune_collect.env import ENV_VAR_NAME
from attune_collect.llm import EndpointConfig
from attune_collect.llm.secrets_policy import params_problem
from attune_collect.llm.types import DEFAULT_TIMEOUT_S

env_var_name_validator = RegexValidator(
    ENV_VAR_NAME, "Give the NAME of an environment variable (A-Z, 0-9, _), never the key itself."
)


def endpoint_secret_problems(endpoint: ModelEndpoint) -> dict[str, str]:
    """Field -> why the endpoint's key variable or parameters are refused (empty: neither).

    The key variable must be allowed by the deployment's policy: the gateway sends its value
    to the endpoint's API base, so naming DJANGO_SECRET_KEY would hand the platform's secret to
    whoever set the base. Parameters are recorded in configuration snapshots, audit entries
    and releases, so a key, token or header there (at any depth) would leak. The gateway
    checks both again before a call (attune_collect/llm/secrets_policy.py)."""
    problems: dict[str, str] = {}
    # A name that is no variable name at all is the field validator's to report.
    if endpoint.api_key_env and ENV_VAR_NAME.match(endpoint.api_key_env):
        refused = key_env_policy().problem(endpoint.api_key_env)
        if refused is not None:
            problems["api_key_env"] = refused
    leaked = params_problem(endpoint.params) if isinstance(endpoint.params, dict) else None
    if leaked is not None:
        problems["params"] = leaked
    return problems


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
        max_length=100,
        blank=True,
        validators=[env_var_name_validator],
        help_text="Name of the environment variable that holds the API key.",
    )
    weight = models.PositiveIntegerField(
        default=1, help_text="Relative share of new conversations."
    )
    active = models.BooleanField(default=True)
    # The gateway's policy for this endpoint (attune_collect.llm.EndpointConfig): every
    # participant of a study shares one endpoint, so its concurrency must fit the study's size.
    max_concurrency = models.PositiveIntegerField(
        default=64, help_text="Calls in flight at once, per web or worker process."
    )
    requests_per_minute = models.PositiveIntegerField(
        null=True, blank=True, help_text="Request starts per minute (empty: no limit)."
    )
    tokens_per_minute = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Prompt + completion tokens per minute for evaluation runs, per worker "
        "process (empty: no limit).",
    )
    timeout_s = models.FloatField(
        default=DEFAULT_TIMEOUT_S, help_text="Seconds before a call (or a silent stream) gives up."
    )
    max_retries = models.PositiveSmallIntegerField(
        default=2, help_text="Retries on 429, 5xx, timeouts and connection errors."
    )
    force_litellm = models.BooleanField(
        default=False,
        help_text="Call through litellm even if the endpoint speaks OpenAI's protocol (which "
        "is otherwise called directly).",
    )
    # An endpoint belongs to the studies that use it (annotations/services/endpoint_studies.py):
    # before any study does, to the one it was made for, so the researcher limited to that
    # study who added it may still open and edit it. Empty: a lab-wide endpoint until a study
    # takes it into its pool.
    created_for = models.ForeignKey(
        "annotations.Study",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="endpoints_made_for",
        help_text="The study this endpoint was added for (required of a researcher limited to "
        "some studies). It belongs to this study and to every study that uses it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["alias"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weight__gte=1), name="endpoint_weight_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(max_concurrency__gte=1), name="endpoint_concurrency_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(timeout_s__gt=0), name="endpoint_timeout_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(api_key_env="")
                | models.Q(api_key_env__regex=r"^[A-Z_][A-Z0-9_]*$"),
                name="endpoint_key_is_env_var_name",
            ),
        ]

    def __str__(self) -> str:
        return self.alias

    def clean(self) -> None:
        if not isinstance(self.params, dict):
            raise ValidationError({"params": "Give the parameters as a JSON object."})
        problems = endpoint_secret_problems(self)
        if problems:
            raise ValidationError(problems)

    def gateway_config(self) -> EndpointConfig:
        """What the LLM gateway needs to call this endpoint (the key stays in the environment)."""
        return EndpointConfig(
            name=self.alias,
            model=self.litellm_model,
            api_base=self.api_base or None,
            api_key_env=self.api_key_env or None,
            params=dict(self.params or {}),
            max_concurrency=self.max_concurrency,
            requests_per_minute=self.requests_per_minute,
            timeout_s=self.timeout_s,
            max_retries=self.max_retries,
            tokens_per_minute=self.tokens_per_minute,
            force_litellm=self.force_litellm,
        )
