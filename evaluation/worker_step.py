"""A bootstep every Celery worker runs: a periodic sweep for work whose worker is gone.

A worker killed in the middle of a unit leaves it "running" under a lease nobody renews, and
its Celery message unacknowledged (a Redis broker gives it back only after its visibility
timeout, an hour by default). So every live worker looks, every half lease, for running runs
with a lapsed unit and puts such units back in the queue (``services.units.sweep_running_runs``);
the unit's answered calls then replay from the shared call cache. It also finishes a run whose
last finalization request was lost, sends again the queued units of a run where nothing moved
for ``ATTUNE_UNCLAIMED_REQUEUE_S`` (their messages were lost with a killed worker), and does
the same for release builds (``releases.services.sweep_release_builds``).

The timer runs between tasks (in the worker's event loop) or in a timer thread (brokers without
an event loop, such as the embedded filesystem broker); either way only short queries run here.
"""

from __future__ import annotations

import logging

from celery import bootsteps
from django.db import close_old_connections

from evaluation import conf

logger = logging.getLogger(__name__)


def sweep_interval_s() -> float:
    bounds = (conf.unit_lease_s(), conf.unclaimed_requeue_s(), conf.release_build_lease_s())
    return max(1.0, min(60.0, min(bounds) / 2))


def sweep() -> None:
    from annotations.releases.services import sweep_release_builds
    from evaluation.services.units import sweep_running_runs

    for what, step in (("evaluation runs", sweep_running_runs),
                       ("release builds", sweep_release_builds)):  # fmt: skip
        try:
            step()
        except Exception:  # a database hiccup must not stop the timer: the next sweep tries again
            logger.warning("sweeping %s failed", what, exc_info=True)
    close_old_connections()


class LapsedUnitSweeper(bootsteps.StartStopStep):
    requires = {"celery.worker.components:Timer"}

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.entry = None

    def start(self, parent) -> None:
        self.entry = parent.timer.call_repeatedly(sweep_interval_s(), sweep)

    def stop(self, parent) -> None:
        if self.entry is not None:
            self.entry.cancel()
            self.entry = None
