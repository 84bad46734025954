"""Settings of a pytest run: the project's settings, with a data folder of the run's own.

Two runs sharing ``data/`` share the SQLite test database file and the embedded broker's
folders, and break each other ("disk I/O error"). So unless ATTUNE_DATA_DIR says where (an
explicit folder always wins), a run gets a fresh temporary folder, removed when it ends.

Under pytest-xdist each worker process is a run of its own in the same sense: the workers
share the controller's environment, so each takes a sub-folder of the run's folder (its own
SQLite files, embedded broker, releases) and a Redis database of its own (gw0 keeps the run's,
gw1 takes the one below, wrapping from 0 to 15), so a Celery worker started by one xdist worker
never consumes another's tasks. PostgreSQL needs nothing here: pytest-django gives every xdist
worker its own test database.

This is a settings module rather than conftest code because pytest-django loads the settings
before any conftest. The folder goes into the environment, so the worker and server processes
the tests start, and the settings module they load, use the same one.
"""

import atexit
import os
import re
import shutil
import tempfile

if not os.environ.get("ATTUNE_DATA_DIR", "").strip():  # blank counts as unset, as in env_str
    _run_data_dir = tempfile.mkdtemp(prefix="attune-pytest-")
    os.environ["ATTUNE_DATA_DIR"] = _run_data_dir
    atexit.register(shutil.rmtree, _run_data_dir, ignore_errors=True)

_xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ... under xdist
if _xdist_worker and not os.environ.get("ATTUNE_XDIST_ISOLATED"):
    # Marked in the environment so the processes this worker starts keep its folder and
    # database instead of nesting another level.
    os.environ["ATTUNE_XDIST_ISOLATED"] = _xdist_worker
    _worker_dir = os.path.join(os.environ["ATTUNE_DATA_DIR"], _xdist_worker)
    os.makedirs(_worker_dir, exist_ok=True)
    os.environ["ATTUNE_DATA_DIR"] = _worker_dir
    _index = int(_xdist_worker.removeprefix("gw") or 0)
    for _name in ("REDIS_URL", "CELERY_BROKER_URL"):
        _url = os.environ.get(_name, "").strip()
        _match = re.fullmatch(r"(rediss?://[^/]+)(?:/(\d+))?", _url)
        if _match:
            # Clamping at 0 would give gw0 and gw1 the same database when the run's is 0.
            _db = (int(_match.group(2) or 0) - _index) % 16
            os.environ[_name] = f"{_match.group(1)}/{_db}"

from tests.risk_artefact import use_lexicon_only_risk_artefact  # noqa: E402

use_lexicon_only_risk_artefact()  # before Django's start-up can import the risk check

from attune_collect.settings import *  # noqa: E402, F403

# Django's advice for a test run ("Speeding up the tests"): a password hash with the default
# PBKDF2 (1.5 million rounds) costs about 0.35 s of CPU here, and every persona fixture and
# factory user hashes one. MD5 is never used outside a test run; the processes a test starts
# (servers, workers) load these settings too, so they check the hashes the test wrote.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A transactional test's teardown empties the tables with this app's ``flush``: DELETE of the
# tables that hold rows, instead of a TRUNCATE of every table (tests/fast_flush, about 1 s less a
# test on PostgreSQL). First, so its command is the one Django finds.
INSTALLED_APPS = ["tests.fast_flush", *INSTALLED_APPS]  # noqa: F405
