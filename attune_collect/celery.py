"""The Celery application. Tasks take ids, are idempotent and acknowledge late (see settings)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")

app = Celery("attune")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Platform tasks live in the project package, which autodiscovery (apps only) does not scan.
app.conf.imports = ("attune_collect.tasks",)
