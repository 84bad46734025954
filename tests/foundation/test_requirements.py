"""The requirements files tell the truth: what the code imports is pinned, and what is pinned is
used. Runtime code (the apps, the project, the engine) must find its imports in
requirements.txt; tests and benchmarks in requirements-dev.txt (which includes it)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = (
    "annotations",
    "attune_collect",
    "attunebench",
    "evaluation",
    "researcher_api",
    "webhooks",
    "manage.py",
)
DEVELOPMENT = ("tests", "benchmarks")
# Pinned but never imported by name, and why each is needed all the same.
USED_WITHOUT_IMPORT = {
    "uvloop": "uvicorn's event loop, picked up by uvicorn itself",
    "httptools": "uvicorn's HTTP parser, picked up by uvicorn itself",
    "psycopg": "Django's PostgreSQL backend loads it (benchmarks import it too)",
    "httpx2": "the OpenAI SDK's HTTP client, pinned with it; benchmarks/eval_throughput.py "
    "imports it by its name at run time to probe it",
    "mypy": "the type checker, a command (make lint)",
    "django-stubs": "types of Django for mypy, and its Django plugin",
    "django-stubs-ext": "django-stubs' runtime half, pinned with it",
    "djangorestframework-stubs": "types of DRF for mypy, and its plugin",
    "celery-types": "types of Celery for mypy",
    "pandas-stubs": "types of pandas for mypy",
    "scipy-stubs": "types of SciPy for mypy",
    "types-pyyaml": "types of PyYAML for mypy",
    "pytest-django": "a pytest plugin",
    "pytest-asyncio": "a pytest plugin",
    "pytest-playwright": "a pytest plugin",
    "pytest-xdist": "a pytest plugin (the suite runs on two processes)",
    "ruff": "the linter and formatter, a command",
    "import-linter": "lint-imports, a command (the import contracts in .importlinter)",
    "setuptools": "the build backend of the attunebench wheel (packaging/attunebench, make wheel)",
    "openapi-python-client": "a command: tests/participant/test_generated_client.py generates "
    "a Python client from the served schema with it",
}


# Imported by a file that runs under another interpreter, never this project's virtualenv.
FOREIGN = {
    "inspect_ai": "benchmarks/inspect_probe.py runs in a scratch virtualenv (eval_throughput.py "
    "--inspect-python), and attunebench/inspect_task.py only where the wheel's `inspect` extra "
    "is installed (pinned in packaging/attunebench/pyproject.toml; tested in the wheel's "
    "scratch virtualenv); inspect-ai is never a dependency of the project",
}


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", requirement).lower()


def pins(filename: str) -> dict[str, str]:
    """name -> the whole line, following `-r other.txt` includes."""
    found: dict[str, str] = {}
    for raw in (ROOT / filename).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found.update(pins(line.removeprefix("-r ").strip()))
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]+\])?==\S+", line)
        assert match, f"{filename}: {raw!r} is not pinned as name==version"
        found[_name(match.group(1))] = line
    return found


@cache
def _distributions() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def third_party_imports(*roots: str) -> dict[str, set[str]]:
    """top-level module -> files importing it, leaving out the stdlib and the repo's own modules."""
    found: dict[str, set[str]] = {}
    for root in roots:
        for module, files in _imports_under(root).items():
            found.setdefault(module, set()).update(files)
    return found


@cache
def _imports_under(root: str) -> dict[str, frozenset[str]]:
    own = {p.stem for p in ROOT.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    own |= {p.stem for p in (ROOT / "benchmarks").glob("*.py")}  # scripts import their siblings
    own |= {"tests", "benchmarks", "__future__"}
    found: dict[str, set[str]] = {}
    path = ROOT / root
    for file in [path] if path.is_file() else path.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top not in sys.stdlib_module_names and top not in own:
                    found.setdefault(top, set()).add(str(file.relative_to(ROOT)))
    return {module: frozenset(files) for module, files in found.items()}


def _unpinned(imports: dict[str, set[str]], pinned: dict[str, str]) -> list[str]:
    problems = []
    for module, files in sorted(imports.items()):
        if module in FOREIGN:
            continue
        providers = {_name(d) for d in _distributions().get(module, [])}
        if not providers:
            problems.append(f"{module}: no installed distribution provides it ({min(files)})")
        elif not providers & pinned.keys():
            problems.append(f"{module} ({', '.join(sorted(providers))}) imported by {min(files)}")
    return problems


def test_runtime_imports_are_pinned_in_requirements_txt():
    assert _unpinned(third_party_imports(*RUNTIME), pins("requirements.txt")) == []


def test_test_and_benchmark_imports_are_pinned_in_requirements_dev_txt():
    assert _unpinned(third_party_imports(*DEVELOPMENT), pins("requirements-dev.txt")) == []


def test_every_pin_is_imported_or_says_why_it_is_needed():
    imported = third_party_imports(*RUNTIME, *DEVELOPMENT)
    provided = {_name(d) for module in imported for d in _distributions().get(module, [])}
    unused = sorted(pins("requirements-dev.txt").keys() - provided - USED_WITHOUT_IMPORT.keys())
    assert unused == []


def test_tenacity_is_not_ours_to_pin():
    # litellm imports tenacity only to retry by itself, which the gateway never asks it to do
    # (num_retries=0; tests/llm/test_gateway_without_tenacity.py runs it with tenacity missing).
    assert "tenacity" not in pins("requirements-dev.txt")
