"""A study's Prolific client: the token read from the environment (or a file it names) at each
use, never stored, logged or shown (a ``ProlificError`` says only which variable is missing)."""

from __future__ import annotations

import os
from pathlib import Path

from annotations.models import ProlificLink
from attune_collect.config import key_env_policy
from attune_collect.prolific.client import ClientPolicy, ProlificClient, ProlificError


def read_token(variable: str) -> str:
    """The token in ``variable``, or in the file ``<variable>_FILE`` names (Docker secrets).
    Checked against the key policy again before anything is read: a link written around the
    model's validation still never sends the platform's own secrets."""
    refused = key_env_policy().problem(variable)
    if refused is not None:
        raise ProlificError(f"The Prolific token variable is refused: {refused}.")
    token = os.environ.get(variable, "").strip()
    if not token and (path := os.environ.get(f"{variable}_FILE")):
        try:
            token = Path(path).read_text(encoding="utf-8").strip()
        except OSError:
            raise ProlificError(f"The file named by {variable}_FILE cannot be read.") from None
    if not token:
        raise ProlificError(f"No Prolific API token: set {variable} (or {variable}_FILE).")
    return token


# Attempts, timeout and backoff of every call (tests shorten the waits).
DEFAULT_POLICY = ClientPolicy()


def client_for(link: ProlificLink, *, policy: ClientPolicy | None = None) -> ProlificClient:
    return ProlificClient(
        read_token(link.token_env), base_url=link.api_base, policy=policy or DEFAULT_POLICY
    )
