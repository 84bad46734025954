"""The platform's own settings: one typed, frozen record read once from the environment.

``settings.py`` builds it at start-up (``read_environment``) through ``env.py``'s strict helpers
and keeps it as ``settings.ATTUNE``; services read it with ``attune_config()``, never with a
default of their own, so every default lives here, beside its variable's name. Django's own
settings (database, cache, Celery, security, email) stay plain Django settings.

A test changes a field with ``settings.ATTUNE = dataclasses.replace(settings.ATTUNE, ...)``
(pytest-django's ``settings`` fixture, or ``override_settings``); ``replace`` checks the new
value like the environment's (``__post_init__``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from attune_collect.env import env_int, env_list, env_str
from attune_collect.llm.secrets_policy import (
    DEFAULT_KEY_ENV_PATTERN,
    KeyEnvPolicy,
    use_key_env_policy,
)
from attune_collect.networks import parse_networks


def _setting(default: float | str | None, env: str, *, positive: bool = True) -> Any:
    """A field's default and the variable it is read from (named in errors)."""
    return field(default=default, metadata={"env": env, "positive": positive})


@dataclass(frozen=True, kw_only=True)
class AttuneConfig:
    # Release folders and archives (<dir>/<name>/<version>/), built by a worker.
    releases_dir: Path = field(metadata={"env": "ATTUNE_RELEASES_DIR"})
    # One report folder per evaluation run (<dir>/<run id>/) and, without Redis, the call cache.
    evaluations_dir: Path = field(metadata={"env": "ATTUNE_EVALUATIONS_DIR"})
    # Conversations per chunk of a release build: memory per chunk vs. queries per conversation.
    release_chunk_size: int = _setting(500, "ATTUNE_RELEASE_CHUNK_SIZE")
    # How long a turn's A/B comparison waits for the improved reply before it is skipped
    # (annotations/services/annotation_flow.py).
    improved_reply_timeout_s: float = _setting(90.0, "ATTUNE_IMPROVED_REPLY_TIMEOUT_S")
    # The lease of the stream that owns a turn, renewed every third of it while the stream
    # lives (Retry-After waits included); a retry is refused until it lapses (services/chat.py).
    chat_turn_lease_s: float = _setting(30.0, "ATTUNE_CHAT_TURN_LEASE_S")
    # Chat streams open at once from one client address (participant_api/stream_limits.py):
    # sized for a university's shared address, small beside an endpoint's slots (64 each).
    max_streams_per_address: int = _setting(20, "ATTUNE_MAX_STREAMS_PER_ADDRESS")
    # An open chat stream sends an SSE comment after this many seconds without a token, so a
    # proxy with a 60 s read timeout never cuts a slow first token (participant_api/keepalive.py).
    sse_keepalive_s: float = _setting(15.0, "ATTUNE_SSE_KEEPALIVE_S")
    # Queued work nobody claimed within this many seconds (its message lost with a killed
    # worker) is sent again by the sweep: evaluation units of a run with no activity, builds.
    unclaimed_requeue_s: float = _setting(120.0, "ATTUNE_UNCLAIMED_REQUEUE_S")
    # A release build's claim lasts this long unless the builder renews it (at every chunk).
    release_build_lease_s: float = _setting(300.0, "ATTUNE_RELEASE_BUILD_LEASE_S")
    # How long an evaluation unit's claim holds without a heartbeat; then another worker may
    # take the unit over.
    evaluation_unit_lease_s: float = _setting(120.0, "ATTUNE_EVALUATION_UNIT_LEASE_S")
    # Failed attempts (errors, failed calls, lost workers) before a unit counts as failed.
    evaluation_unit_max_failures: int = _setting(3, "ATTUNE_EVALUATION_UNIT_MAX_FAILURES")
    # Key prefix of the evaluation's shared call cache and rate limits in Redis.
    evaluation_redis_prefix: str = _setting(
        "attune:evaluation:", "ATTUNE_EVALUATION_REDIS_PREFIX", positive=False
    )
    # Celery queue of evaluation tasks (None: the default queue), e.g. for workers of their own.
    evaluation_queue: str | None = _setting(None, "ATTUNE_EVALUATION_QUEUE", positive=False)
    # A participant's drafts (services/drafts.py): how many keys, and how much JSON in all. The
    # app keeps at most a handful of a few KiB each; the bound keeps a client from piling up more.
    draft_max_count: int = _setting(20, "ATTUNE_DRAFT_MAX_COUNT")
    draft_max_total_kib: int = _setting(256, "ATTUNE_DRAFT_MAX_TOTAL_KIB")
    # The optional model mode of personal-detail detection (names of people and places, which
    # no pattern finds): the alias of a configured model endpoint, asked by the scanning
    # workers only. Empty: the patterns alone (annotations/qa/services/personal_detail_model.py).
    personal_details_endpoint: str = _setting(
        "", "ATTUNE_PERSONAL_DETAILS_ENDPOINT", positive=False
    )
    # The platform's address for links in emails (no trailing slash).
    site_url: str = _setting("http://localhost:8000", "ATTUNE_SITE_URL", positive=False)
    # Which environment variables a model endpoint may name as its key's (the gateway sends
    # the value to the endpoint's API base): names matching the pattern, never the platform's
    # own (DJANGO_*, ATTUNE_*, CELERY_*, AWS_*, DATABASE_URL, REDIS_URL), plus the names listed
    # explicitly (attune_collect/llm/secrets_policy.py).
    api_key_env_pattern: str = _setting(
        DEFAULT_KEY_ENV_PATTERN, "ATTUNE_API_KEY_ENV_PATTERN", positive=False
    )
    api_key_env_allowed: tuple[str, ...] = field(
        default=(), metadata={"env": "ATTUNE_API_KEY_ENV_ALLOWED"}
    )

    # The reverse proxies in front of the web processes (addresses or CIDR networks): only a
    # connection from one of them may say, in X-Forwarded-For, whom it forwards
    # (attune_collect/client_address.py). Empty (the default): no header is trusted.
    trusted_proxies: tuple[str, ...] = field(default=(), metadata={"env": "ATTUNE_TRUSTED_PROXIES"})
    # New starts a study admits per minute, from all addresses together: a bot with many
    # addresses still cannot fill a study faster (annotations/participant_api/throttling.py).
    study_starts_per_minute: int = _setting(120, "ATTUNE_STUDY_STARTS_PER_MINUTE")
    # Webhook deliveries (webhooks/delivery.py): the wait for an answer, the attempts, and the
    # first retry's delay (doubled after each failure: 30 s, 1, 2, 4, 8 min by default).
    webhook_timeout_s: float = _setting(10.0, "ATTUNE_WEBHOOK_TIMEOUT_S")
    webhook_max_attempts: int = _setting(6, "ATTUNE_WEBHOOK_MAX_ATTEMPTS")
    webhook_backoff_s: float = _setting(30.0, "ATTUNE_WEBHOOK_BACKOFF_S")

    def key_env_policy(self) -> KeyEnvPolicy:
        return KeyEnvPolicy(self.api_key_env_pattern, frozenset(self.api_key_env_allowed))

    def __post_init__(self) -> None:
        try:
            parse_networks(self.trusted_proxies)
        except ValueError as error:
            raise ImproperlyConfigured(f"ATTUNE_TRUSTED_PROXIES: {error}") from None
        try:
            self.key_env_policy()
        except ValueError as error:
            raise ImproperlyConfigured(
                f"ATTUNE_API_KEY_ENV_PATTERN / ATTUNE_API_KEY_ENV_ALLOWED: {error}"
            ) from None
        # Checked here rather than where a value is used, so a test's replace() is held to the
        # same rule as the environment (env_int's minimum), and a bad value fails at once.
        for spec in fields(self):
            value = getattr(self, spec.name)
            if not spec.metadata.get("positive"):
                continue
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not (number and value > 0):
                raise ImproperlyConfigured(
                    f"{spec.metadata['env']} must be a number above 0, not {value!r}"
                )


def read_environment(data_dir: Path) -> AttuneConfig:
    """The configuration from the environment (``env.py``'s helpers), with the defaults above.

    Raises ``EnvironmentConfigError`` for a value the helpers refuse (settings.py turns it into
    ``ImproperlyConfigured``).
    """
    default = AttuneConfig  # a field's default is also the class attribute of its name
    # Seconds are whole numbers in the environment (env_int's minimum 1); tests may set less.
    return AttuneConfig(
        releases_dir=Path(env_str("ATTUNE_RELEASES_DIR", str(data_dir / "releases"))),
        evaluations_dir=Path(env_str("ATTUNE_EVALUATIONS_DIR", str(data_dir / "evaluations"))),
        release_chunk_size=env_int(
            "ATTUNE_RELEASE_CHUNK_SIZE", default.release_chunk_size, minimum=1
        ),
        improved_reply_timeout_s=env_int(
            "ATTUNE_IMPROVED_REPLY_TIMEOUT_S", int(default.improved_reply_timeout_s), minimum=1
        ),
        chat_turn_lease_s=env_int(
            "ATTUNE_CHAT_TURN_LEASE_S", int(default.chat_turn_lease_s), minimum=1
        ),
        max_streams_per_address=env_int(
            "ATTUNE_MAX_STREAMS_PER_ADDRESS", default.max_streams_per_address, minimum=1
        ),
        sse_keepalive_s=env_int("ATTUNE_SSE_KEEPALIVE_S", int(default.sse_keepalive_s), minimum=1),
        unclaimed_requeue_s=env_int(
            "ATTUNE_UNCLAIMED_REQUEUE_S", int(default.unclaimed_requeue_s), minimum=1
        ),
        release_build_lease_s=env_int(
            "ATTUNE_RELEASE_BUILD_LEASE_S", int(default.release_build_lease_s), minimum=1
        ),
        evaluation_unit_lease_s=env_int(
            "ATTUNE_EVALUATION_UNIT_LEASE_S", int(default.evaluation_unit_lease_s), minimum=1
        ),
        evaluation_unit_max_failures=env_int(
            "ATTUNE_EVALUATION_UNIT_MAX_FAILURES", default.evaluation_unit_max_failures, minimum=1
        ),
        evaluation_redis_prefix=env_str(
            "ATTUNE_EVALUATION_REDIS_PREFIX", default.evaluation_redis_prefix
        ),
        evaluation_queue=env_str("ATTUNE_EVALUATION_QUEUE"),
        draft_max_count=env_int("ATTUNE_DRAFT_MAX_COUNT", default.draft_max_count, minimum=1),
        draft_max_total_kib=env_int(
            "ATTUNE_DRAFT_MAX_TOTAL_KIB", default.draft_max_total_kib, minimum=1
        ),
        personal_details_endpoint=env_str(
            "ATTUNE_PERSONAL_DETAILS_ENDPOINT", default.personal_details_endpoint
        ),
        site_url=env_str("ATTUNE_SITE_URL", default.site_url).rstrip("/"),
        api_key_env_pattern=env_str("ATTUNE_API_KEY_ENV_PATTERN", default.api_key_env_pattern),
        api_key_env_allowed=tuple(env_list("ATTUNE_API_KEY_ENV_ALLOWED")),
        trusted_proxies=tuple(env_list("ATTUNE_TRUSTED_PROXIES")),
        study_starts_per_minute=env_int(
            "ATTUNE_STUDY_STARTS_PER_MINUTE", default.study_starts_per_minute, minimum=1
        ),
        webhook_timeout_s=env_int(
            "ATTUNE_WEBHOOK_TIMEOUT_S", int(default.webhook_timeout_s), minimum=1
        ),
        webhook_max_attempts=env_int(
            "ATTUNE_WEBHOOK_MAX_ATTEMPTS", default.webhook_max_attempts, minimum=1
        ),
        webhook_backoff_s=env_int(
            "ATTUNE_WEBHOOK_BACKOFF_S", int(default.webhook_backoff_s), minimum=1
        ),
    )


def attune_config() -> AttuneConfig:
    """The running configuration (read at call time, so a test's override applies)."""
    config: AttuneConfig = settings.ATTUNE
    return config


def redis_url() -> str | None:
    """The deployment's Redis, or None without one. ``REDIS_URL`` stays a Django setting (the
    cache and the broker read it too); settings.py always defines it."""
    url: str | None = settings.REDIS_URL
    return url or None


def key_env_policy() -> KeyEnvPolicy:
    """The running key policy: which variables a model endpoint may name as its key's."""
    return attune_config().key_env_policy()


def install_key_env_policy() -> None:
    """Have the gateway (which imports no Django) check key variables against the running
    configuration; settings.py calls this in every process that loads the settings."""
    use_key_env_policy(key_env_policy)
