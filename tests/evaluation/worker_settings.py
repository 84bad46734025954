"""Settings of the worker processes the end-to-end tests start: the project's settings, plus
what a test passes in the environment (a short unit lease, its own Redis namespace and its own
Celery queue, so parallel test runs sharing Redis db 15 never take each other's tasks)."""

import os
from dataclasses import replace

from attune_collect.settings import *  # noqa: F403
from attune_collect.settings import ATTUNE

ATTUNE = replace(
    ATTUNE,
    evaluation_unit_lease_s=float(os.environ.get("ATTUNE_TEST_UNIT_LEASE_S", "120")),
    evaluation_redis_prefix=os.environ.get("ATTUNE_TEST_REDIS_PREFIX", "attune:evaluation:"),
    evaluation_queue=os.environ.get("ATTUNE_TEST_QUEUE") or None,
)
if ATTUNE.evaluation_queue:
    CELERY_TASK_DEFAULT_QUEUE = ATTUNE.evaluation_queue  # what the worker consumes
if os.environ.get("ATTUNE_TEST_BUILD_HOLD"):
    # A barrier the test controls in the middle of a release build (tests/build_hold.py)
    from attune_collect.settings import INSTALLED_APPS

    INSTALLED_APPS = [*INSTALLED_APPS, "tests.build_hold.BuildHoldConfig"]
