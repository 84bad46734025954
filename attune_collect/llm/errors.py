"""Turning whatever a transport raises into a GatewayError, and keeping API keys out of all text.

The direct transport raises ``TransportFailure`` (already classified, with the response's
headers). litellm's exceptions subclass the OpenAI SDK's, and carry `status_code` and the
provider's response headers; both are read here without importing litellm or the SDK.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from email.utils import parsedate_to_datetime
from typing import Any

from .transport import TransportFailure
from .types import ErrorKind, GatewayError

REDACTED = "[REDACTED]"
_MAX_MESSAGE_CHARS = 400

# Loggers that may see request details. A filter on a logger only sees that logger's own
# records (not its children's), so the children that log requests are listed too.
_LOGGERS_TO_REDACT = (
    "LiteLLM",
    "LiteLLM Router",
    "LiteLLM Proxy",
    "litellm",
    "openai",
    "openai._base_client",
    "httpx",
    "httpx2",
    "httpcore",
    "httpcore.http11",
    "httpcore.connection",
    "aiohttp.client",
    "attune_collect.llm",
)


class SecretRedactor:
    """Remembers the key values the gateway has used and removes them from any text."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._secrets: frozenset[str] = frozenset()

    def add(self, secret: str) -> None:
        if secret and secret not in self._secrets:
            with self._lock:
                self._secrets = self._secrets | {secret}

    def redact(self, text: str) -> str:
        # Longest first, so a key that contains another key is removed whole.
        for secret in sorted(self._secrets, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def contains_secret(self, text: str) -> bool:
        return any(secret in text for secret in self._secrets)


class RedactingLogFilter(logging.Filter):
    """Rewrites a log record in place when its message or traceback holds a known key."""

    def __init__(self, redactor: SecretRedactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's problem, not ours
            return True
        if self._redactor.contains_secret(message):
            record.msg, record.args = self._redactor.redact(message), None
        if record.exc_info and record.exc_info[1] is not None:
            exc_text = logging.Formatter().formatException(record.exc_info)
            if self._redactor.contains_secret(exc_text):
                # Formatters reuse exc_text instead of formatting exc_info again.
                record.exc_text = self._redactor.redact(exc_text)
                record.exc_info = None
        return True


SECRETS = SecretRedactor()
_filter_installed = False
_filter_lock = threading.Lock()


def install_log_redaction() -> None:
    """Attach the redacting filter to the loggers that see requests (once per process)."""
    global _filter_installed
    with _filter_lock:
        if _filter_installed:
            return
        log_filter = RedactingLogFilter(SECRETS)
        for name in _LOGGERS_TO_REDACT:
            logging.getLogger(name).addFilter(log_filter)
        _filter_installed = True


def safe_message(text: str) -> str:
    """Redacted, single-spaced and short enough for a log line or a UI."""
    text = " ".join(SECRETS.redact(text).split())
    if len(text) > _MAX_MESSAGE_CHARS:
        text = text[: _MAX_MESSAGE_CHARS - 3] + "..."
    return text


def retry_after_seconds(exc: BaseException, *, now: float | None = None) -> float | None:
    """The provider's Retry-After (or OpenAI's retry-after-ms), in seconds, if it sent one."""
    headers = _response_headers(exc)
    if headers is None:
        return None
    milliseconds = _header(headers, "retry-after-ms")
    if milliseconds is not None:
        try:
            return max(0.0, float(milliseconds) / 1000.0)
        except ValueError:
            pass
    value = _header(headers, "retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # the other legal form: an HTTP date
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _response_headers(exc: BaseException) -> Any:
    headers = getattr(exc, "litellm_response_headers", None) or getattr(
        exc, "response_headers", None
    )
    if headers:
        return headers
    try:
        response = getattr(exc, "response", None)
    except Exception:  # some SDK exceptions raise when the response is missing
        return None
    return getattr(response, "headers", None)


def _header(headers: Any, name: str) -> str | None:
    try:
        value = headers.get(name)
        if value is None:  # plain dicts are case-sensitive
            value = next((v for k, v in headers.items() if str(k).lower() == name), None)
    except Exception:
        return None
    return None if value is None else str(value).strip()


def classify(exc: BaseException, *, context: str, attempts: int) -> GatewayError:
    """Map an exception from a model call onto a GatewayError with a safe message."""
    if isinstance(exc, GatewayError):
        exc.attempts = attempts
        return exc
    kind = _kind_of(exc)
    status = _status_code(exc)
    detail = safe_message(str(exc)) or _SILENT_EXCEPTION_DETAIL.get(kind, type(exc).__name__)
    return GatewayError(
        kind,
        f"{context}: {detail}",
        retry_after=retry_after_seconds(exc) if kind == "rate_limited" else None,
        attempts=attempts,
        status_code=status,
    )


# What to say when an exception has no text of its own (asyncio's TimeoutError has none).
_SILENT_EXCEPTION_DETAIL = {"timeout": "no response within the timeout"}


def _status_code(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def kind_for_status(status: int | None) -> ErrorKind | None:
    """The error kind an HTTP status means, or None for a status that is not an error."""
    if status == 429:
        return "rate_limited"
    if status in (401, 403):
        return "auth"
    if status == 408:
        return "timeout"
    if status is not None and status >= 500:
        return "upstream_error"
    if status is not None and 400 <= status < 500:
        return "bad_request"
    return None


def _kind_of(exc: BaseException) -> ErrorKind:
    if isinstance(exc, TransportFailure):
        return exc.kind
    if isinstance(exc, TimeoutError):
        return "timeout"
    # The SDK's classes are litellm's base classes: an exception can only be one of them when
    # the SDK is loaded, so it is never imported here.
    openai = sys.modules.get("openai")
    if openai is not None:
        if isinstance(exc, openai.APITimeoutError):
            return "timeout"
        if isinstance(exc, openai.RateLimitError):
            return "rate_limited"
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return "auth"
        if isinstance(exc, openai.APIConnectionError) or "Connection error" in str(exc):
            # litellm reports a refused connection as a 500 "Connection error."
            return "connection"
    kind = kind_for_status(_status_code(exc))
    if kind is not None:
        return kind
    if isinstance(exc, ConnectionError | OSError):
        return "connection"
    return "upstream_error"
