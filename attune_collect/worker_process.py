"""Start-up of a Celery worker process: load what its first task would otherwise load.

A worker's first improver task (the A/B comparison's second reply, annotations/tasks.py) paid
for importing litellm (about 2.6 s, more on a busy machine), registering the offline demo
provider, the direct transport's one-off set-up (TLS context, cost map) and the learned risk
check's model (the improved reply is risk-checked when stored), and litellm's own one-off work
on its first call (about 1 s more, after the import): the comparison reached the participant
6 to 12 s after the reply on each worker process's first task, 3 s when warm. Each process that
runs tasks does that work once at its start instead, ending with one call of the offline demo
improver (in this process: no network; ``benchmarks/comparison_latency.py`` measures it).

Which process runs the tasks depends on the pool: the prefork pool's children
(``worker_process_init``, sent in each child as it starts), every other pool (solo, threads)
the worker's own process (``worker_init``). The prefork parent only hands out messages, so it
loads nothing: its children are forked before any of this is imported.

The hooks are connected in ``attune_collect/celery.py``; the web process has its own start-up
(``web_process.py``).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time

from celery.concurrency import get_implementation
from celery.concurrency.prefork import TaskPool as PreforkPool

logger = logging.getLogger(__name__)

WARM_UP_MODEL = "attune-demo/improver"
WARM_UP_MESSAGES = [
    {"role": "system", "content": "Rewrite the assistant's last reply more warmly."},
    {"role": "user", "content": "Original reply: Starting up."},
]


def runs_tasks_in_children(pool_cls: object) -> bool:
    """True when the worker's pool (a class, or its name as the command line gives it) runs
    tasks in child processes (prefork), which then warm themselves."""
    resolved = get_implementation(pool_cls) if isinstance(pool_cls, str) else pool_cls
    return isinstance(resolved, type) and issubclass(resolved, PreforkPool)


def prepare_worker_process() -> None:
    """Import and load now what the first task (an improved reply) would wait for."""
    # Imported here: celery.py (which connects this) is imported by every web process too.
    from threadpoolctl import threadpool_limits

    from annotations.text_checks import risk
    from attune_collect.llm import EndpointConfig, LLMGateway, default_gateway
    from attune_collect.llm._litellm import load_litellm
    from attune_collect.llm.transport_direct import prepare_direct_transport

    started = time.perf_counter()
    # One BLAS thread, as in the web process (web_process.py has the figure): the risk model's
    # small products otherwise wake a second OpenBLAS thread that spins for each.
    threadpool_limits(1)
    load_litellm()
    prepare_direct_transport()
    default_gateway()
    risk.warm()  # the workers read each chat message with the learned model (services/safety.py)
    # One call through litellm (which registers the demo provider): its first call pays for
    # lazy imports and set-up. The demo provider answers in this process, with no network; a
    # throwaway gateway, so the process's usage ledger counts only real calls.
    try:
        asyncio.run(LLMGateway().complete(EndpointConfig(model=WARM_UP_MODEL), WARM_UP_MESSAGES))
    except Exception:  # the worker still starts: its first task pays, as without this
        logger.warning("the worker's warm-up call failed", exc_info=True)
    logger.info("worker process warmed in %.1f s", time.perf_counter() - started)


def worker_command(name: str, *, pool: str = "solo", concurrency: int = 1) -> list[str]:
    """The command that starts one named worker of this platform, as the end-to-end tests and
    the benchmarks run it beside their web processes: no gossip, mingle or heartbeat (one
    worker needs no peers, and their broker traffic would only add noise), warnings only."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "attune_collect",
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--loglevel=warning",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-n",
        f"{name}@%h",
    ]
