"""What may name a key and what may sit in an endpoint's parameters: the platform's one rule,
applied by the model's validation, the setup service, the gateway and every writer that copies
parameters out (releases, evaluation outputs). Pure: no Django, no I/O.

Key variables, by allow-list. An endpoint names the environment variable that holds its key,
and the gateway sends that variable's value as a Bearer token to the endpoint's API base. A
free choice of name would let whoever edits an endpoint send any secret of the process to a
server of their own (``DJANGO_SECRET_KEY``, ``DATABASE_URL``...). So a name must match the
configured pattern (by default names ending in ``_API_KEY`` or ``_TOKEN``) and must not be one
of the platform's own (``DJANGO_*``, ``ATTUNE_*``, ``CELERY_*``, ``AWS_*``, ``DATABASE_URL``,
``REDIS_URL``), unless the deployment lists it explicitly (``ATTUNE_API_KEY_ENV_ALLOWED``).

Parameters, by deny-list. Parameters are recorded in configuration snapshots, releases and
evaluation outputs, so a key or a header put there would leak. A key name is normalised
(case-folded, ``-``, ``_``, ``.`` and spaces removed) and refused when it looks like a
credential or a header, at any depth of nested objects and lists; a string value that looks
like a key (``Bearer ...``, ``sk-...``) is refused too. Messages name the path
(``params.extra_body.api_key``), never the value.

The deployment's key policy reaches the gateway through ``use_key_env_policy`` (the Django
settings install a source that reads ``settings.ATTUNE``), so this package never imports Django;
without one (the engine's command line) the default policy applies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# Names ending in _API_KEY or _TOKEN (OPENAI_API_KEY, HF_TOKEN, LAB_VLLM_API_KEY...).
DEFAULT_KEY_ENV_PATTERN = r"[A-Z][A-Z0-9_]*_(API_KEY|TOKEN)"
# The platform's own variables: refused whatever the pattern says, unless listed explicitly.
PLATFORM_PREFIXES = ("DJANGO_", "ATTUNE_", "CELERY_", "AWS_")
PLATFORM_NAMES = frozenset({"DATABASE_URL", "REDIS_URL"})
# attune_collect.env's rule, repeated: the gateway imports nothing of the platform.
ENV_VAR_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")

REDACTED = "[redacted]"


def is_platform_variable(name: str) -> bool:
    return name in PLATFORM_NAMES or name.startswith(PLATFORM_PREFIXES)


@lru_cache(maxsize=16)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@dataclass(frozen=True)
class KeyEnvPolicy:
    """Which environment variables an endpoint may name as its key's."""

    pattern: str = DEFAULT_KEY_ENV_PATTERN  # matched against the whole name
    allowed: frozenset[str] = field(default_factory=frozenset)  # explicit extra names

    def __post_init__(self) -> None:
        try:
            _compiled(self.pattern)
        except re.error as exc:
            raise ValueError(
                f"the key variable pattern {self.pattern!r} is no regex: {exc}"
            ) from None
        object.__setattr__(self, "allowed", frozenset(self.allowed))
        bad = sorted(name for name in self.allowed if not ENV_VAR_NAME.fullmatch(name))
        if bad:
            raise ValueError(f"not environment variable names: {', '.join(bad)}")

    def problem(self, name: str) -> str | None:
        """Why ``name`` may not hold an endpoint's key, or None when it may."""
        if name in self.allowed:
            return None
        if not ENV_VAR_NAME.fullmatch(name):
            return f"{name!r} is not an environment variable name (A-Z, 0-9, _)"
        if is_platform_variable(name):
            return (
                f"{name} is one of the platform's own variables and never holds a model "
                "provider's key"
            )
        if not _compiled(self.pattern).fullmatch(name):
            return (
                f"{name} does not match the allowed key variable names ({self.pattern}); "
                "name a variable ending in _API_KEY or _TOKEN, or have the deployment allow "
                "it (ATTUNE_API_KEY_ENV_ALLOWED)"
            )
        return None


DEFAULT_KEY_ENV_POLICY = KeyEnvPolicy()
_policy_source: Callable[[], KeyEnvPolicy] | None = None


def use_key_env_policy(
    source: Callable[[], KeyEnvPolicy] | None,
) -> Callable[[], KeyEnvPolicy] | None:
    """Install where the process's key policy comes from (read at every check, so a changed
    setting applies at once); None means the default policy. Returns the previous source."""
    global _policy_source
    previous, _policy_source = _policy_source, source
    return previous


def key_env_policy() -> KeyEnvPolicy:
    """The process's key policy: the installed source's, else the default."""
    source = _policy_source
    return DEFAULT_KEY_ENV_POLICY if source is None else source()


def key_env_problem(name: str) -> str | None:
    """Why ``name`` may not hold a key under the process's policy, or None."""
    return key_env_policy().problem(name)


# -- parameters ---------------------------------------------------------------------------------

# Normalised names (see _normalise) refused wherever they occur.
_CREDENTIAL_NAMES = frozenset(
    {"auth", "authorization", "bearer", "token", "key", "cookie", "header", "headers"}
)
# Fragments of normalised names that mark a credential or a header.
_CREDENTIAL_FRAGMENTS = (
    "apikey",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "authorization",
    "bearer",
    "credential",
    "accesskey",
    "privatekey",
    "cookie",
    "headers",
)
# A name ending in "token" is one (access_token, hf_token); counts and settings about tokens
# are not (max_tokens, token_delay_ms).
_TOKEN_SUFFIX = "token"

# A value that is itself a credential, whatever its key: an Authorization header or an
# OpenAI/Anthropic-style key.
_CREDENTIAL_VALUE = re.compile(r"^\s*(bearer\s+\S|sk-[A-Za-z0-9_-]{8,})", re.IGNORECASE)


def _normalise(name: str) -> str:
    return re.sub(r"[\s_\-.]", "", name.casefold())


def is_credential_name(name: str) -> bool:
    """Whether a parameter name looks like a credential or a header (any case or spelling)."""
    normal = _normalise(name)
    return (
        normal in _CREDENTIAL_NAMES
        or any(fragment in normal for fragment in _CREDENTIAL_FRAGMENTS)
        or normal.endswith(_TOKEN_SUFFIX)
    )


def is_credential_value(value: object) -> bool:
    return isinstance(value, str) and _CREDENTIAL_VALUE.match(value) is not None


def _walk(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{key}"
            if is_credential_name(str(key)):
                yield where
            else:
                yield from _walk(item, where)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")
    elif is_credential_value(value):
        yield path


def credential_paths(params: Any, *, root: str = "params") -> list[str]:
    """The paths in ``params`` that hold (or look like) a credential, e.g.
    ``params.extra_body.api_key``; empty when the parameters are clean. Never a value."""
    return list(_walk(params, root))


def params_problem(params: Any, *, root: str = "params") -> str | None:
    """A message naming every offending path, or None when the parameters are clean."""
    paths = credential_paths(params, root=root)
    if not paths:
        return None
    return (
        f"{', '.join(paths)}: a key, token or header never goes in the parameters (they are "
        "recorded in snapshots and releases); name the key's environment variable in the key "
        "field instead"
    )


def redact_params(params: Any) -> Any:
    """A copy of ``params`` with every credential-like entry's value replaced by ``REDACTED``
    (the key stays, so a reader sees something was there): for writers that copy parameters
    out of the platform, in case a row predates the checks."""
    if isinstance(params, Mapping):
        return {
            key: REDACTED if is_credential_name(str(key)) else redact_params(item)
            for key, item in params.items()
        }
    if isinstance(params, list | tuple):
        return [redact_params(item) for item in params]
    return REDACTED if is_credential_value(params) else params
