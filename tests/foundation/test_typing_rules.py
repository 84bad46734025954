"""mypy checks the bodies of every function, annotated or not (``check_untyped_defs`` for the
whole project), and each ``type: ignore`` names its error code and says why on its own line,
so an ignore is a decision a reader can check rather than a silenced error."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def _mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def test_untyped_definitions_are_checked_everywhere():
    assert _mypy_config()["check_untyped_defs"] is True


def test_every_type_ignore_names_its_code_and_says_why():
    unjustified = []
    for package in _mypy_config()["files"]:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                found = IGNORE.search(line)
                if found is None:
                    continue
                reason = found["rest"].strip().lstrip("#-").strip()
                if not found["codes"] or not reason:
                    unjustified.append(f"{path.relative_to(ROOT)}:{number}")
    assert unjustified == []
