"""Settings of the worker ``tests/releases/test_killed_worker.py`` starts: the test run's own
(``tests/settings.py``), plus a barrier the test controls in the middle of a release build
(``tests/build_hold.py``)."""

from tests.settings import *  # noqa: F403
from tests.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.build_hold.BuildHoldConfig"]
