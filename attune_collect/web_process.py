"""Start-up of a web (uvicorn) process, tuned for hundreds of open chat streams.

Measured with ``benchmarks/chat_load.py`` (200 participants, 200 streams open at once in one
process; docs/benchmarks.md), three things stalled every stream of the process at once:

* Importing litellm on the first chat message through litellm (the demo provider, providers
  other than OpenAI-compatible ones): 3 to 5 s of import. It is imported here, before the
  process takes requests, with the direct transport's one-off set-up (TLS context, cost map).
* Full garbage collections. With Django and litellm loaded the heap holds about 500,000
  long-lived objects, and each stream adds a few hundred pydantic objects (litellm's chunks):
  a full collection took 90 to 190 ms, during which no stream moved, and young collections ran
  hundreds of times a second. Everything loaded at start-up is frozen (never scanned again),
  and collections run less often (``ATTUNE_GC_THRESHOLD``); the garbage of a stream is mostly
  acyclic and freed by reference counting anyway.
* Threads waiting for the GIL. A database step of the participant API runs on a pool thread;
  each time its query returns, the thread waits for the GIL, which the event loop (relaying
  200 streams) gives up only at its next I/O wait or after the switch interval (5 ms by
  default), so a step of a few statements took tens of milliseconds and held its row locks
  that long. A 1 ms interval (``ATTUNE_GIL_SWITCH_INTERVAL_MS``) halved the p95 time to the
  first token at 150 streams on PostgreSQL (+1,184 to +598 ms over the upstream, same CPU).
* Loading the learned risk check's model (``annotations/text_checks/risk.py``: WordLlama's
  embedding, about 0.1 s) on the first participant message; it is loaded here too.
* litellm's own per-stream success logging, which rebuilds the whole response from its chunks
  in a thread after every stream. The gateway does its own accounting, and no litellm callback
  is configured, so it is switched off (``load_litellm``).

Only the web process runs this (``attune_collect/asgi.py``): Celery workers and commands keep
Python's defaults.
"""

from __future__ import annotations

import gc
import sys

from django.core.exceptions import ImproperlyConfigured
from threadpoolctl import threadpool_limits

from annotations.participant_api import reply_messages
from annotations.text_checks import risk
from attune_collect.env import env_int, env_str
from attune_collect.llm._litellm import load_litellm
from attune_collect.llm.transport_direct import prepare_direct_transport

# Python's default is (700, 10, 10): a young collection every 700 allocations.
DEFAULT_GC_THRESHOLD = (50_000, 20, 20)
# Python's default is 5 ms.
DEFAULT_GIL_SWITCH_INTERVAL_MS = 1


def gc_threshold_from_environment() -> tuple[int, int, int]:
    """``ATTUNE_GC_THRESHOLD``: three positive whole numbers, "gen0,gen1,gen2"."""
    raw = env_str("ATTUNE_GC_THRESHOLD")
    if raw is None:
        return DEFAULT_GC_THRESHOLD
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 3 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise ImproperlyConfigured(
            f"ATTUNE_GC_THRESHOLD={raw!r}: expected three positive whole numbers, "
            "e.g. '50000,20,20' (Python's default is '700,10,10')"
        )
    gen0, gen1, gen2 = (int(part) for part in parts)
    return gen0, gen1, gen2


def prepare_web_process() -> None:
    """Import what the first request would import, then freeze it and space collections."""
    threshold = gc_threshold_from_environment()  # a bad value stops the start, not a request
    switch_ms = env_int("ATTUNE_GIL_SWITCH_INTERVAL_MS", DEFAULT_GIL_SWITCH_INTERVAL_MS, minimum=1)
    load_litellm()
    prepare_direct_transport()
    # One BLAS thread: the risk check's numpy (the SVM's kernel, WordLlama) otherwise wakes a
    # second OpenBLAS thread that spins for each small product; a check cost 14.7 ms of CPU
    # with it and 8.8 ms without, for the same wall time (measured side by side, one process).
    threadpool_limits(1)
    # The risk artefacts' headers: which languages a model reads (the models themselves are
    # read by the workers, worker_process.py: the web process never holds one).
    risk.warm_headers()
    reply_messages.listen()  # other web processes: stop a withdrawn reply, mirror a followed one
    gc.collect()
    gc.freeze()
    gc.set_threshold(*threshold)
    sys.setswitchinterval(switch_ms / 1000)
