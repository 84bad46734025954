"""No private Django name (one starting with ``_`` that Django defines) is used outside the
adapter modules that rebuild parts of Django for the chat's speed (issue 41): a Django upgrade
can change such a name silently, so each use must live where one module owns the concern and its
tests fail when Django changes (``ADAPTERS`` says which; docs/architecture.md what each buys).

Found by reading the source (``ast``), as a linter would:
- an attribute named like one of Django's private names read on anything but ``self``/``cls``
  (``obj._state``, ``signal._live_receivers``), or ``from django... import _name``;
- in a class that subclasses a Django class, a method that overrides a private Django method
  (``def _commit``) or a read of a private name the class inherits (``super()._commit()``).
A name our own code also defines outside such subclasses (``_lock``, ``_client``) is ours.
Django's documented ``Model._meta`` API is public in all but name."""

from __future__ import annotations

import ast
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ["annotations", "attune_collect", "evaluation", "webhooks", "researcher_api"]
DOCUMENTED = {"_meta"}  # https://docs.djangoproject.com/en/stable/ref/models/meta/

# One module per concern; the tests named beside each fail when the Django they rely on changes.
ADAPTERS = {
    # the participant API's ASGI path (tests/participant/test_request_signals_on_the_loop.py)
    "attune_collect/asgi_handler.py",
    # reads compiled once per connection (tests/foundation/test_compiled_query.py)
    "attune_collect/compiled_query.py",
    # one Redis client per process for Django's Redis cache (tests/foundation/test_shared_redis_cache.py)
    "attune_collect/cache.py",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {name for name in names if _private(name)}


def _django_private_names() -> set[str]:
    names: set[str] = set()
    for path in Path(django.__file__).parent.rglob("*.py"):
        if "/tests/" not in str(path):
            names |= _defined_names(ast.parse(path.read_text(encoding="utf-8")))
    return names


def _django_imports(tree: ast.Module) -> set[str]:
    """The names a module binds from django."""
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("django"):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            bound |= {
                (alias.asname or alias.name).split(".")[0]
                for alias in node.names
                if alias.name.startswith("django")
            }
    return bound


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_super_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _django_subclasses(tree: ast.Module) -> list[ast.ClassDef]:
    from_django = _django_imports(tree)
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(_root_name(base) in from_django for base in node.bases)
    ]


def _sources() -> dict[str, ast.Module]:
    trees = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "/migrations/" not in str(path):
                trees[str(path.relative_to(ROOT))] = ast.parse(path.read_text(encoding="utf-8"))
    return trees


def _uses(trees: dict[str, ast.Module], django_names: set[str]) -> list[str]:
    # Our own private names, outside the classes that extend Django's: those are ours.
    ours: set[str] = set()
    for tree in trees.values():
        inside = {id(n) for c in _django_subclasses(tree) for n in ast.walk(c)}
        for node in ast.walk(tree):
            if id(node) not in inside:
                ours |= _defined_names(node) if isinstance(node, ast.stmt) else set()
    djangos = (django_names - ours) - DOCUMENTED
    found: list[str] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("django"):
                found += [
                    f"{path}:{node.lineno} import {a.name}" for a in node.names if _private(a.name)
                ]
            if (
                isinstance(node, ast.Attribute)
                and node.attr in djangos
                and _root_name(node) not in ("self", "cls")
                and not _is_super_call(node.value)
            ):
                found.append(f"{path}:{node.lineno} .{node.attr}")
        for cls in _django_subclasses(tree):
            own = {
                n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            assigned = _defined_names(cls) - own
            for node in ast.walk(cls):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node in cls.body:
                    if node.name in django_names and _private(node.name):
                        found.append(f"{path}:{node.lineno} overrides {node.name}")
                elif (
                    isinstance(node, ast.Attribute)
                    and node.attr in django_names - DOCUMENTED
                    and (_is_super_call(node.value) or node.attr not in own | assigned)
                ):
                    found.append(f"{path}:{node.lineno} inherited .{node.attr}")
    return sorted(set(found))


def test_private_django_names_only_in_the_adapter_modules():
    uses = _uses(_sources(), _django_private_names())
    outside = [use for use in uses if use.split(":")[0] not in ADAPTERS]
    assert outside == []


def test_the_check_sees_a_private_name_read_on_a_django_object():
    tree = ast.parse("def f(obj):\n    return obj._state.adding\n")
    assert _uses({"x.py": tree}, {"_state"}) == ["x.py:2 ._state"]


def test_the_check_sees_an_override_of_a_private_django_method():
    source = (
        "from django.db.backends.postgresql import base\n"
        "class W(base.DatabaseWrapper):\n"
        "    def _commit(self):\n"
        "        return super()._commit()\n"
    )
    found = _uses({"x.py": ast.parse(source)}, {"_commit"})
    assert found == ["x.py:3 overrides _commit", "x.py:4 inherited ._commit"]
