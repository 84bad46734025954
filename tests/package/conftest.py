"""Fixtures borrowed for the package tests: the evaluation tests' (scratch folders, a frozen
demo release, the demo models: the package's report is checked against the admin's) and the
engine tests' (a release folder, the local OpenAI-compatible server answering in JSON); and
the fresh virtual environment of the slow wheel and Inspect tests."""

from pathlib import Path

import pytest

from tests.engine.conftest import (  # noqa: F401  (pytest fixtures)
    _engine_server,
    conversations,
    executor,
    fake_gateway,
    json_server,
    release_dir,
)
from tests.evaluation.conftest import (  # noqa: F401  (pytest fixtures)
    demo_models,
    demo_release,
    evaluation_dirs,
    redis_prefix,
)
from tests.package.wheel_venv import shared_venv


@pytest.fixture(scope="session")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> tuple[Path, Path]:
    """(bin folder, wheel) of a fresh virtual environment with only the wheel installed, built
    once per test run: the wheel test and the Inspect task test share it (wheel_venv.py), also
    from two xdist workers (in their common temporary folder, the first builds it under a lock;
    the build also writes packaging/attunebench/build/, which two builds at once would share)."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    return shared_venv(shared / "wheel-venv")
