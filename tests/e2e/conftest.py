"""Browser tests of the participant app: the platform under uvicorn (a subprocess) and a Celery
worker on the test database, driven by Playwright in Debian's chromium.

They run in a pytest invocation of their own (``make test-e2e``; Playwright's sync API keeps an
event loop on the main thread, which the async tests of the main run must not meet), so a plain
``pytest`` leaves this folder out: these tests are collected only when a path inside
tests/e2e is named on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.servers import KEY_ENV, KEY_VALUE, running_uvicorn

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
MANIFEST = ROOT / "frontend" / "dist" / ".vite" / "manifest.json"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


def _named_on_command_line(config: pytest.Config) -> bool:
    for arg in config.args:
        path = Path(arg.split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.name.startswith("test_") and not _named_on_command_line(config):
        return True
    return None


@pytest.fixture(scope="session", autouse=True)
def _sync_orm_beside_playwright() -> Iterator[None]:
    """Playwright's sync API runs an event loop on this thread, which makes Django take every
    ORM call of a test for one made from async code; the tests' own queries are plain sync
    code. Set for these tests only (this conftest is also imported by a plain run)."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install -y chromium (never `playwright install`)"
        )
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def built_frontend() -> Path:
    if not MANIFEST.exists():
        pytest.fail("The participant app is not built: run `make frontend` first.")
    return MANIFEST


@pytest.fixture(scope="session")
def openai_server():
    """The local OpenAI-compatible server the chat model of a test study points at."""
    from attune_collect.llm.testing import run_test_server

    with run_test_server() as server:
        yield server


@pytest.fixture(scope="session")
def email_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the server and the worker write the emails they send (one file each): they run
    in processes of their own, so Django's in-memory outbox cannot be read from a test."""
    return tmp_path_factory.mktemp("emails")


def email_env(folder: Path) -> dict[str, str]:
    return {
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(folder),
    }


@pytest.fixture(scope="session")
def platform_env(django_db_setup, django_db_blocker, email_folder) -> dict[str, str]:
    """What the platform's processes add to the environment: the test database, the model key."""
    from tests.worker_process import test_database_url

    with django_db_blocker.unblock():
        database_url = test_database_url()
    return {"DATABASE_URL": database_url, KEY_ENV: KEY_VALUE, **email_env(email_folder)}


@pytest.fixture(scope="session")
def platform(platform_env, built_frontend, openai_server) -> Iterator[str]:
    """uvicorn with the ASGI app and a Celery worker, both on the test database; the base URL."""
    from tests.worker_process import celery_worker

    # Both processes stop before pytest-django drops the test database (they hold connections).
    with celery_worker(extra_env=platform_env, name="e2e"), running_uvicorn(platform_env) as url:
        yield url


@pytest.fixture(scope="session")
def second_web_process(platform, platform_env) -> Iterator[str]:
    """A second uvicorn beside ``platform`` on the same database and Redis, as a deployment with
    two web processes behind a load balancer runs; its base URL."""
    with running_uvicorn(platform_env) as url:
        yield url


@pytest.fixture
def phone(browser, platform) -> Iterator[Page]:
    """A touch phone (390x844) in English, on the platform's real Content-Security-Policy."""
    from tests.e2e.steps import PHONE

    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    from django.core.cache import cache

    cache.clear()  # with Redis, the server's throttle counts live there too
    yield


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Path:
    folder = ROOT / "test-artifacts" / "screenshots" / request.node.originalname
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder
