"""Every variable read through ``attune_collect/env.py`` is listed at the top of settings.py.

The README sends operators to that list; a variable read somewhere but missing from it is a
setting nobody can find. The scan reads the source (not the running settings), so a variable
read only in a service or a worker counts too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attune_collect.settings

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("attune_collect", "annotations", "evaluation")
ENV_HELPERS = {"env_str", "env_bool", "env_int", "env_list", "env_secret", "env_url"}


def variables_read_through_env_helpers() -> dict[str, str]:
    """Variable name -> the file that reads it, for every env helper call with a literal name."""
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0]
                if name in ENV_HELPERS and isinstance(first, ast.Constant):
                    found.setdefault(str(first.value), str(path.relative_to(ROOT)))
    return found


def documented_variables() -> set[str]:
    return set(re.findall(r"``([A-Z][A-Z0-9_]+)``", attune_collect.settings.__doc__ or ""))


def test_the_scan_finds_the_variables_settings_reads():
    # Guards the scan itself: if it found nothing, the test below would pass vacuously.
    assert {"DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "ATTUNE_DATA_DIR"} <= set(
        variables_read_through_env_helpers()
    )


def test_every_variable_read_is_documented():
    documented = documented_variables()
    missing = {
        name: where
        for name, where in variables_read_through_env_helpers().items()
        if name not in documented
    }
    assert not missing, f"add these to the list at the top of attune_collect/settings.py: {missing}"
