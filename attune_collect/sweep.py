"""A bootstep every Celery worker runs: a periodic sweep for work that is owed but lost.

A worker killed in the middle of a task leaves its row "running" under a lease nobody renews,
and its Celery message unacknowledged (a Redis broker gives it back only after its visibility
timeout, an hour by default); a broker error right after a commit loses the message that the
commit promised (``attune_collect/dispatch.py`` logs it). Every task kind keeps, in the
database, the state that says it is still owed, and every live worker looks for such rows
every half of the shortest bound (at most every 60 s) and sends their tasks again:

- evaluation runs (``evaluation.services.units.sweep_running_runs``): units under a lapsed
  lease, queued units of a run where nothing moved for ``ATTUNE_UNCLAIMED_REQUEUE_S``, and a
  run whose units are all finished but that nobody finalized;
- release builds (``annotations.releases.services.sweep_release_builds``): a build under a
  lapsed lease, or queued and claimed by nobody past the bound;
- moderation verdicts (``annotations.services.moderation.sweep_unmoderated``): a message of a
  moderated study with no verdict some minutes after it was sent is asked about once more.

Each step claims what it sends again with a conditional update (or a marker written in the
same transaction), so the sweeps of several workers send a task once; a task sent twice is
harmless anyway (every task is idempotent).

The timer runs between tasks (in the worker's event loop) or in a timer thread (brokers without
an event loop, such as the embedded filesystem broker); either way only short queries run here.
This module imports the services, so it is loaded only after Django is set up: the platform's
task module (``attune_collect/tasks.py``) registers the bootstep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from celery import bootsteps
from django.db import close_old_connections

from annotations.releases.services import sweep_release_builds
from annotations.services.moderation import sweep_unmoderated
from attune_collect.config import attune_config
from evaluation.services.units import sweep_running_runs

logger = logging.getLogger(__name__)

STEPS: Sequence[tuple[str, Callable[[], object]]] = (
    ("evaluation runs", sweep_running_runs),
    ("release builds", sweep_release_builds),
    ("moderation verdicts", sweep_unmoderated),
)


def sweep_interval_s() -> float:
    config = attune_config()
    bounds = (
        config.evaluation_unit_lease_s,
        config.unclaimed_requeue_s,
        config.release_build_lease_s,
    )
    return max(1.0, min(60.0, min(bounds) / 2))


def sweep() -> None:
    for what, step in STEPS:
        try:
            step()
        except Exception:  # a database hiccup must not stop the timer: the next sweep tries again
            logger.warning("sweeping %s failed", what, exc_info=True)
    close_old_connections()


class PeriodicSweep(bootsteps.StartStopStep):
    requires = ("celery.worker.components:Timer",)

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.entry = None

    def start(self, parent) -> None:
        self.entry = parent.timer.call_repeatedly(sweep_interval_s(), sweep)

    def stop(self, parent) -> None:
        if self.entry is not None:
            self.entry.cancel()
            self.entry = None
