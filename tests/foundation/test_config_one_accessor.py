"""The platform's own settings are read through ``settings.ATTUNE`` with ``attune_config()``
only: no module reads an ``ATTUNE_*`` Django setting of its own, and no app wraps a field of
the record in an accessor that returns it unchanged (evaluation/conf.py did, for seven)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("annotations", "attune_collect", "evaluation", "researcher_api", "webhooks")
SETTINGS_MODULE = ROOT / "attune_collect" / "settings.py"


def _modules() -> list[tuple[str, ast.Module]]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or path == SETTINGS_MODULE:
                continue
            found.append((str(path.relative_to(ROOT)), ast.parse(path.read_text())))
    return found


def _is_settings(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "settings"


def test_no_module_reads_an_attune_setting_beside_the_record():
    reads = []
    for where, tree in _modules():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _is_settings(node.value)
                and node.attr.startswith("ATTUNE_")
            ):
                reads.append((where, node.lineno, node.attr))
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "getattr"
                and len(node.args) >= 2
                and _is_settings(node.args[0])
            ):
                name = node.args[1]
                if isinstance(name, ast.Constant) and str(name.value).startswith("ATTUNE"):
                    reads.append((where, node.lineno, str(name.value)))
    assert reads == []


def _returns_a_field_of_the_record(function: ast.FunctionDef) -> bool:
    body = [s for s in function.body if not isinstance(s, ast.Expr)]  # without the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    value = body[0].value
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Call)
        and getattr(value.value.func, "id", "") == "attune_config"
    )


# Left while the release build is reworked (issue 41, item 2: its folders and chunks are that
# change's lines); to be inlined like the others once it has landed.
PENDING = {
    ("annotations/releases/services.py", "releases_root"),
    ("annotations/releases/services.py", "chunk_size"),
}


def test_no_app_wraps_a_field_in_an_accessor_of_its_own():
    accessors = [
        (where, node.name)
        for where, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and _returns_a_field_of_the_record(node)
    ]
    assert set(accessors) - PENDING == set()
