"""Settings of the worker processes the end-to-end tests start: the project's settings, plus
what a test passes in the environment (a short unit lease, its own Redis namespace and its own
Celery queue, so parallel test runs sharing Redis db 15 never take each other's tasks)."""

import os

from attune_collect.settings import *  # noqa: F403

ATTUNE_EVALUATION_UNIT_LEASE_S = float(os.environ.get("ATTUNE_TEST_UNIT_LEASE_S", "120"))
ATTUNE_EVALUATION_REDIS_PREFIX = os.environ.get("ATTUNE_TEST_REDIS_PREFIX", "attune:evaluation:")
ATTUNE_EVALUATION_QUEUE = os.environ.get("ATTUNE_TEST_QUEUE") or None
if ATTUNE_EVALUATION_QUEUE:
    CELERY_TASK_DEFAULT_QUEUE = ATTUNE_EVALUATION_QUEUE  # what the worker consumes
