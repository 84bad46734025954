"""Strict helpers that read settings from the environment.

Every setting the platform reads comes through one of these functions, so a typo such as
``DJANGO_DEBUG=flase`` stops the process with a clear message instead of silently falling back.
Secrets may also come from a file: ``NAME_FILE=/run/secrets/name`` (Docker and Kubernetes
secrets) is read when ``NAME`` itself is unset.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import overload

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
ENV_VAR_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")


class EnvironmentConfigError(RuntimeError):
    """A setting in the environment has a value the platform cannot use."""


# With a default the value is always a string; without one it may be None (unset).
@overload
def env_str(name: str, default: str) -> str: ...
@overload
def env_str(name: str, default: None = None) -> str | None: ...
def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip()


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise EnvironmentConfigError(f"{name}={value!r} is not a boolean (use true or false)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = env_str(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvironmentConfigError(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise EnvironmentConfigError(f"{name}={number} must be at least {minimum}")
    return number


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    value = env_str(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_secret(name: str) -> str | None:
    """``NAME`` or the contents of the file named by ``NAME_FILE`` (trailing newline dropped)."""
    value = env_str(name)
    if value is not None:
        return value
    path = env_str(f"{name}_FILE")
    if path is None:
        return None
    try:
        return Path(path).read_text(encoding="utf-8").strip() or None
    except OSError as exc:
        raise EnvironmentConfigError(
            f"{name}_FILE={path!r} cannot be read: {exc.strerror}"
        ) from None


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    value = env_str(name)
    if value is None:
        return None
    scheme = value.split("://", 1)[0].lower() if "://" in value else ""
    if scheme not in schemes:
        raise EnvironmentConfigError(
            f"{name} must start with one of {', '.join(s + '://' for s in schemes)}"
        )
    return value
