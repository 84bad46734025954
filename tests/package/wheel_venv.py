"""The fresh virtual environment of the slow package tests: the wheel built from this checkout,
installed with only its declared dependencies at requirements.txt's pins (from pip's cache, or
PyPI the first time). The wheel test and the Inspect task test share one per test process
(the ``wheel_venv`` fixture in conftest.py; both carry the same xdist group), since building it
is most of their time."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Both tests are in this xdist group: `make test` runs with --dist loadgroup, so one process
# runs them and they share the environment.
XDIST_GROUP = "wheel_venv"


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
    """requirements.txt's pins as a constraints file (pip refuses extras there)."""
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


def pip_install(bin_folder: Path, folder: Path, *requirements: str | Path) -> None:
    run(
        bin_folder / "python",
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
        "-c",
        pins(folder),
        *requirements,
    )


def fresh_venv(folder: Path) -> tuple[Path, Path]:
    """(the environment's bin folder, the wheel): the wheel and its dependencies installed."""
    wheel = build_wheel(folder)
    venv = folder / "venv"
    run(sys.executable, "-m", "venv", venv)
    pip_install(venv / "bin", folder, wheel)
    return venv / "bin", wheel
