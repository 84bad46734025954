"""Lazy, offline-safe access to litellm.

Importing litellm costs about 2.6 s and, without the variables below, it fetches a price list
and tokenizers from the internet at import time (a 23 s stall was seen offline) and reads the
working directory's `.env`. So it is imported on first use only, with the offline settings in
place first.
"""

from __future__ import annotations

import gc
import os
import threading
from types import ModuleType

OFFLINE_ENVIRONMENT = {
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_MODE": "PRODUCTION",
    "HF_HUB_OFFLINE": "1",
}

_lock = threading.Lock()
_module: ModuleType | None = None


def apply_offline_environment() -> None:
    """Set litellm's offline switches unless the deployment chose otherwise."""
    for name, value in OFFLINE_ENVIRONMENT.items():
        os.environ.setdefault(name, value)


def load_litellm() -> ModuleType:
    """The litellm module, imported once per process with the offline settings."""
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            apply_offline_environment()
            import litellm  # lazily (about 2.6 s), after its offline variables are set

            litellm.suppress_debug_info = True  # no banner and no "Give Feedback" lines
            # The gateway counts tokens and cost itself and no litellm callback is configured:
            # litellm's per-stream success logging (which rebuilds every streamed response
            # from its chunks, in a thread) would be CPU spent for nothing.
            litellm.disable_streaming_logging = True
            # The import leaves about 500,000 long-lived objects (with Django's); every full
            # garbage collection then scanned them all, stopping the process for 0.5 s or more
            # (measured under the chat load benchmark: streams stalled for seconds). Frozen
            # objects are never scanned again; they are module-level and live as long anyway.
            gc.freeze()
            _module = litellm
    return _module
