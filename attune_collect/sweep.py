"""A bootstep every Celery worker runs: a periodic sweep for work that is owed but lost.

A worker killed in the middle of a task leaves its row "running" under a lease nobody renews,
and its Celery message unacknowledged (a Redis broker gives it back only after its visibility
timeout, an hour by default); a broker error right after a commit loses the message that the
commit promised (``attune_collect/dispatch.py`` logs it). Every task kind keeps, in the
database, the state that says it is still owed, and every live worker looks for such rows
every half of the shortest bound (at most every 60 s; 7.5 s with the defaults, for the
improved reply's) and sends their tasks again:

- evaluation runs left queued (``evaluation.services.creation.start_runs_left_queued``):
  a run still queued past ``ATTUNE_UNCLAIMED_REQUEUE_S`` after its creation lost its start
  message; the sweep starts it (the conditional update to running is the claim);
- evaluation runs (``evaluation.services.units.sweep_running_runs``): units under a lapsed
  lease, queued units of a run where nothing moved for ``ATTUNE_UNCLAIMED_REQUEUE_S``, and a
  run whose units are all finished but that nobody finalized;
- evaluation runs whose finalizer died (``requeue_lost_finalizations``, first): left scoring
  under a lapsed ``finalize_lease_until``, put back to running and finalized again; a finished
  run's finalize message is sent again once its lease (the message's time) lapses;
- release builds (``annotations.releases.services.sweep_release_builds``): a build under a
  lapsed lease, or queued and claimed by nobody past the bound;
- moderation verdicts (``annotations.services.moderation.sweep_unmoderated``): a message of a
  moderated study with no verdict some minutes after it was sent is asked about once more.
- improved replies (``annotations.services.improver.sweep_improved_replies``): pending, no
  worker's lease on the call, untaken past ``improver_resend_after`` (a sixth of the
  comparison's window), and only while the participant can still be shown the comparison;
  past the window nothing is sent, but the reply stays pending so a late result is stored;
- QA flags (``annotations.qa.services.flagging.sweep_owed_flags``): completed conversations
  whose flags were not computed by ``Conversation.flags_resend_at``;
- risk alerts (``annotations.qa.services.risk_alerts.sweep_risk_alerts``): risk signals whose
  alert has not run (or failed) by ``TurnSignal.alert_resend_at``;
- idle conversations of Prolific studies (``annotations.prolific.places.sweep_idle_conversations``):
  open past the study's ``idle_abandon_minutes`` are abandoned and their places freed.
- webhook deliveries (``webhooks.delivery.sweep_webhook_deliveries``): pending past
  ``WebhookDelivery.resend_at`` (their message, or a retry's, lost).

Each step claims what it sends again with a conditional update (the last three through
``attune_collect.dispatch.resend_owed``, which moves the "resend at" time on), so the sweeps
of several workers send a task once; a task sent twice is harmless anyway (every task is
idempotent). Each reads an indexed column and sends at most ``RESEND_BATCH`` rows of a kind.

The timer runs between tasks (in the worker's event loop) or in a timer thread (brokers without
an event loop, such as the embedded filesystem broker); either way only short queries run here.
Each app registers its own steps (``register_sweep`` in its ``AppConfig.ready``), so a new kind
of owed work is added in its app, not here; the platform's task module
(``attune_collect/tasks.py``) registers the bootstep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from celery import bootsteps
from django.db import close_old_connections

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepStep:
    name: str
    step: Callable[[], object]
    # The bound (seconds) within which this kind's lost work must be found again: the sweep
    # runs every half of the shortest bound of all steps (at most every 60 s).
    bound_s: Callable[[], float] | None = None


_STEPS: dict[str, SweepStep] = {}


def register_sweep(
    name: str, step: Callable[[], object], bound_s: Callable[[], float] | None = None
) -> None:
    """Add a step to every worker's sweep (an app's ``ready``; registering again replaces)."""
    _STEPS[name] = SweepStep(name, step, bound_s)


def steps() -> tuple[SweepStep, ...]:
    return tuple(_STEPS.values())


def sweep_interval_s() -> float:
    bounds = [step.bound_s() for step in _STEPS.values() if step.bound_s is not None]
    return max(1.0, min(60.0, min(bounds) / 2)) if bounds else 60.0


def sweep() -> None:
    for registered in steps():
        what, step = registered.name, registered.step
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
