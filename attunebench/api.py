"""The engine's Python API, for the Django side (issue 8 distributes units over Celery workers).

A unit is (conversation, model, mode). A worker process keeps one ``CallExecutor`` per event
loop (it owns the per-model call slots, the tokens-per-minute budget and the in-flight table)
over a cache that all workers share::

    from attunebench import api

    executor = api.CallExecutor(api.SQLiteCallCache(path))  # or any api.CallCache backend
    options = api.RunOptions(panas_strategy="delta", judges=(api.EndpointConfig("openai/gpt-4o"),))
    output = await api.run_unit(conversation, api.EndpointConfig("openai/gpt-4o-mini"), "default",
                                options, executor, source_file=name, priority=unit_number)
    api.write_output(path, output)  # atomic; api.finished_output(path, fingerprint) to skip

``run_unit`` records failed answers and failed calls in the output and never raises for
them; it raises ``FatalModelError`` only when the model cannot be called at all. A retried
unit replays its answered calls from the cache, so it costs only the calls that are missing.
Before a run, ``planned_calls`` counts the calls (for a cost estimate); afterwards
``score_runs`` + ``write_scores`` produce scores.json and the Parquet tables.

``CallCache`` is the backend interface (see cache.py for the contract: ``get``, ``put`` with
first-writer-wins, ``close``); a Redis implementation shares the cache across machines.
Limits (``EndpointConfig.max_concurrency``, ``requests_per_minute``, ``tokens_per_minute``) hold
per process; cross-worker limits need a shared limiter (not part of this engine yet).
"""

from attune_collect.llm import EndpointConfig
from attunebench.asking import FatalModelError
from attunebench.batch import finished_output, write_output
from attunebench.cache import CachedCall, CallCache, MemoryCallCache, SQLiteCallCache
from attunebench.errors import AttuneBenchError
from attunebench.executor import CallEvent, CallExecutor, ModelUsage
from attunebench.release import SourcedConversation, load_conversations
from attunebench.runner import (
    MODES,
    PANAS_STRATEGIES,
    RunOptions,
    planned_calls,
    run_unit,
)
from attunebench.score_folder import read_runs, score_runs, write_scores

__all__ = [
    "AttuneBenchError",
    "MODES",
    "PANAS_STRATEGIES",
    "CachedCall",
    "CallCache",
    "CallEvent",
    "CallExecutor",
    "FatalModelError",
    "MemoryCallCache",
    "EndpointConfig",
    "ModelUsage",
    "RunOptions",
    "SQLiteCallCache",
    "SourcedConversation",
    "finished_output",
    "load_conversations",
    "planned_calls",
    "read_runs",
    "run_unit",
    "score_runs",
    "write_output",
    "write_scores",
]
