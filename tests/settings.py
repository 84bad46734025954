"""Settings of a pytest run: the project's settings, with a data folder of the run's own.

Two runs sharing ``data/`` share the SQLite test database file and the embedded broker's
folders, and break each other ("disk I/O error"). So unless ATTUNE_DATA_DIR says where (an
explicit folder always wins), a run gets a fresh temporary folder, removed when it ends.

This is a settings module rather than conftest code because pytest-django loads the settings
before any conftest. The folder goes into the environment, so the worker and server processes
the tests start, and the settings module they load, use the same one.
"""

import atexit
import os
import shutil
import tempfile

if not os.environ.get("ATTUNE_DATA_DIR", "").strip():  # blank counts as unset, as in env_str
    _run_data_dir = tempfile.mkdtemp(prefix="attune-pytest-")
    os.environ["ATTUNE_DATA_DIR"] = _run_data_dir
    atexit.register(shutil.rmtree, _run_data_dir, ignore_errors=True)

from attune_collect.settings import *  # noqa: E402, F403
