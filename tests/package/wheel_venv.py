"""The fresh virtual environment of the slow package tests: the wheel built from this checkout,
installed with only its declared dependencies at requirements.txt's pins (by uv, pinned in
requirements-dev.txt: from its cache, or PyPI the first time). The wheel test and the Inspect
task test share one per test run (the ``wheel_venv`` fixture in conftest.py), since building it
is most of their time."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
from pathlib import Path

from uv import find_uv_bin

ROOT = Path(__file__).resolve().parents[2]
# uv resolves and installs the environment (pip took minutes: docs/benchmarks.md, evaluation
# engine throughput). It reads no pip.conf: the packages come from PyPI.
UV = find_uv_bin()


def run(*command: str | Path, env: dict[str, str] | None = None) -> str:
    found = subprocess.run(
        [str(c) for c in command],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        check=False,
    )
    assert found.returncode == 0, f"{command[:3]} failed:\n{found.stdout}\n{found.stderr}"
    return found.stdout


def pins(folder: Path) -> Path:
    """requirements.txt's pins as a constraints file (extras left out: pip refuses them there)."""
    lines = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?(==\S+)", line)
        if match:
            lines.append(match.group(1) + match.group(3))
    path = folder / "constraints.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def build_wheel(folder: Path) -> Path:
    wheels = folder / "wheel"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        wheels,
        ROOT / "packaging" / "attunebench",
    )
    (wheel,) = wheels.glob("attunebench-*.whl")
    return wheel


def install(bin_folder: Path, folder: Path, *requirements: str | Path) -> None:
    """``requirements`` installed into the environment of ``bin_folder``, at requirements.txt's
    pins."""
    run(
        UV,
        "pip",
        "install",
        "--quiet",
        "--python",
        bin_folder / "python",
        "-c",
        pins(folder),
        *requirements,
    )


def listed(bin_folder: Path) -> str:
    """The environment's packages, one ``name==version`` a line (``pip list --format=freeze``)."""
    return run(UV, "pip", "list", "--python", bin_folder / "python", "--format=freeze")


def fresh_venv(folder: Path) -> tuple[Path, Path]:
    """(the environment's bin folder, the wheel): the wheel and its dependencies installed."""
    wheel = build_wheel(folder)
    venv = folder / "venv"
    run(UV, "venv", "--quiet", "--python", sys.executable, venv)
    install(venv / "bin", folder, wheel)
    return venv / "bin", wheel


def shared_venv(folder: Path) -> tuple[Path, Path]:
    """``fresh_venv`` in ``folder``, built by the first process that asks (the others wait on a
    lock file beside it) and reused by the rest."""
    folder.mkdir(parents=True, exist_ok=True)
    ready = folder / "ready"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not ready.exists():
            bin_folder, wheel = fresh_venv(folder)
            ready.write_text(f"{bin_folder}\n{wheel}\n")
    bin_folder, wheel = ready.read_text().split()
    return Path(bin_folder), Path(wheel)
