"""The Celery application. Tasks take ids, are idempotent and acknowledge late (see settings)."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")

app = Celery("attune")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Platform tasks live in the project package, which autodiscovery (apps only) does not scan.
app.conf.imports = ("attune_collect.tasks",)
# Run by `celery -A attune_collect beat` (docs/prolific.md): every study linked to Prolific is
# synced (places freed by returned, timed-out and rejected submissions) every five minutes.
# The name is annotations.dispatch.PROLIFIC_SYNC_ALL (not imported here: Django is not set up).
PROLIFIC_SYNC_EVERY_S = 300.0
app.conf.beat_schedule = {
    "prolific-sync": {"task": "prolific.sync_all", "schedule": PROLIFIC_SYNC_EVERY_S},
}


# Each process that runs tasks loads litellm, the demo provider and the risk model at its
# start, not on its first task (attune_collect/worker_process.py). Only workers send these
# signals; the web processes import this module without running either hook.
@signals.worker_init.connect
def warm_worker(sender, **_kwargs) -> None:
    from attune_collect.worker_process import prepare_worker_process, runs_tasks_in_children

    if not runs_tasks_in_children(sender.pool_cls):  # solo, threads: this process runs them
        prepare_worker_process()


@signals.worker_process_init.connect
def warm_pool_process(**_kwargs) -> None:
    from attune_collect.worker_process import prepare_worker_process

    prepare_worker_process()
