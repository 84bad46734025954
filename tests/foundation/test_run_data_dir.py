"""Each pytest run has a data folder of its own (tests/settings.py), unless ATTUNE_DATA_DIR says.

Checked in fresh processes that load the test settings as pytest does, with TMPDIR pointed at
the test's folder so that what they create and remove can be seen.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.processes import finish_process

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json, os; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'data': str(s.DATA_DIR), 'env': os.environ['ATTUNE_DATA_DIR'], "
    "'test_db': s.DATABASES['default']['TEST']['NAME'], 'exists': s.DATA_DIR.is_dir()}))"
)


def start_probe(tmp_path: Path, **env_overrides: str) -> subprocess.Popen:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("ATTUNE_DATA_DIR", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")
    }
    env.update(DJANGO_SETTINGS_MODULE="tests.settings", TMPDIR=str(tmp_path), **env_overrides)
    return subprocess.Popen(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish_probe(process: subprocess.Popen) -> dict:
    stdout, stderr = finish_process(process, timeout_s=120)
    assert process.returncode == 0, stderr
    return json.loads(stdout.strip().splitlines()[-1])


def probe(tmp_path: Path, **env_overrides: str) -> dict:
    return finish_probe(start_probe(tmp_path, **env_overrides))


def test_without_a_data_dir_each_run_gets_a_fresh_one_and_removes_it(tmp_path):
    # Two runs at once (each mostly Django's start-up): they still get a folder each.
    first, second = [finish_probe(p) for p in (start_probe(tmp_path), start_probe(tmp_path))]
    for found in (first, second):
        data = Path(found["data"])
        assert data.parent == tmp_path.resolve() and data.name.startswith("attune-pytest-")
        assert found["exists"] and Path(found["env"]).resolve() == data  # children inherit it
        assert Path(found["test_db"]).parent == data
        assert not data.exists()  # removed when the run ended
    assert first["data"] != second["data"]


def test_an_explicit_data_dir_is_honoured_and_kept(tmp_path):
    mine = tmp_path / "mine"
    found = probe(tmp_path, ATTUNE_DATA_DIR=str(mine))
    assert Path(found["data"]) == mine.resolve()
    assert Path(found["test_db"]) == mine.resolve() / "test-attune.sqlite3"
    assert mine.is_dir()


def test_this_run_uses_the_data_dir_its_children_inherit():
    inherited = os.environ.get("ATTUNE_DATA_DIR")
    assert inherited, "ATTUNE_DATA_DIR unset: was the run started with other settings?"
    assert Path(inherited).resolve() == settings.DATA_DIR
