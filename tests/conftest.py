"""Fixtures shared by the whole suite: the personas and a study to work in.

Personas: ``researcher`` (runs studies: staff in the ``researcher`` group), ``reviewer`` (QA:
staff in the ``qa_reviewer`` group), ``viewer`` (staff in the read-only ``viewer`` group),
``outsider`` (a logged-in account with no role) and ``participant`` (a study participant;
participants have no Django account). The groups and their permissions come from the QA
app's migration (``annotations/qa/roles.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from celery import Celery
from django.utils import timezone
from kombu.exceptions import OperationalError

from attune_collect import dispatch as attune_dispatch
from attune_collect.celery import app as celery_app
from attune_collect.llm._litellm import apply_offline_environment

# No test may let litellm reach the internet, whatever settings module the run uses.
apply_offline_environment()


# The suite's risk check is the lexicon alone: tests/risk_artefact.py, set by tests/settings.py.

# `make test-sqlite` runs the suite again on the embedded default (SQLite, the embedded broker,
# the local-memory cache): a test of these folders that does not use the database runs no code
# that reaches the cache or the broker either (the pure core, and the model gateway, which uses
# neither), so it cannot tell the backends apart; `make test` has run it on PostgreSQL + Redis.
BACKEND_FREE_UNLESS_DATABASE = ("tests/engine/", "tests/stats/", "tests/benchmark/", "tests/llm/")
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "live_server"}
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend-bound-only",
        action="store_true",
        help="leave out the tests that cannot tell one database or cache backend from another",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--backend-bound-only"):
        return
    kept, left_out = [], []
    for item in items:
        backend_free = item.nodeid.startswith(BACKEND_FREE_UNLESS_DATABASE) and not (
            item.get_closest_marker("django_db")
            or DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        )
        (left_out if backend_free else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


PASSWORD = "correct-horse-battery-staple"
FLUSH_ATTEMPTS = 5


@pytest.fixture(scope="session", autouse=True)
def _flush_outlives_a_deadlock() -> Iterator[None]:
    """A transactional test's teardown empties the tables with one TRUNCATE; a Celery worker or
    uvicorn started by the test may still be writing (a task it took, the workers' periodic
    sweep), and PostgreSQL can then break the two off as a deadlock and fail the test after it
    passed. The flush is tried again a few times, waiting a little longer each time; any
    other error, or a deadlock that keeps coming, still fails the test."""
    import time

    from django.core.management.base import CommandError
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def teardown(self: TransactionTestCase) -> None:
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                original(self)
                return
            except CommandError as error:
                if attempt == FLUSH_ATTEMPTS or "deadlock detected" not in str(error.__cause__):
                    raise
                time.sleep(0.2 * attempt)

    TransactionTestCase._fixture_teardown = teardown  # type: ignore[method-assign]
    yield
    TransactionTestCase._fixture_teardown = original  # type: ignore[method-assign]


def _staff_in_role(django_user_model, username: str, role: str):
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(
        username, f"{username}@example.org", PASSWORD, is_staff=True
    )
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def researcher(django_user_model):
    return _staff_in_role(django_user_model, "researcher", "researcher")


@pytest.fixture
def reviewer(django_user_model):
    return _staff_in_role(django_user_model, "reviewer", "qa_reviewer")


@pytest.fixture
def viewer(django_user_model):
    return _staff_in_role(django_user_model, "viewer", "viewer")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("outsider", "outsider@example.org", PASSWORD)


@pytest.fixture
def study(db):
    from tests.factories import make_study

    return make_study(slug="wellbeing-2026", title="Wellbeing chats 2026")


@pytest.fixture
def participant(study):
    from tests.factories import make_participant

    return make_participant(study, prolific_pid="PID-PARTICIPANT", consent_version="1")


@pytest.fixture
def researcher_client(client, researcher):
    client.force_login(researcher)
    return client


@pytest.fixture
def sent_tasks(monkeypatch: pytest.MonkeyPatch) -> defaultdict[str, list]:
    """Celery messages the code under test sent (by name: ``attune_collect.dispatch``), by task
    name; none reaches a broker (a broker may be shared: a worker elsewhere would run them
    against another database). A test runs a task itself, or uses a real worker (see
    ``REAL_SEND_TASK``)."""
    sent: defaultdict[str, list] = defaultdict(list)

    def send_task(name: str, args: Sequence[Any] = (), **options: Any) -> None:
        sent[name].append(args[0] if len(args) == 1 else tuple(args))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    return sent


REAL_SEND_TASK = celery_app.send_task  # what a test that sends for real puts back


@contextmanager
def broker_down() -> Iterator[None]:
    """While inside, every task is sent to a broker that refuses the connection (Redis on a
    closed port of this machine): the error a dispatch meets when the broker is down."""
    dead = Celery("broker-down", broker="redis://127.0.0.1:1/0", fixups=[], set_as_current=False)
    dead.conf.broker_connection_timeout = 1
    real = attune_dispatch.celery_app
    attune_dispatch.celery_app = dead
    try:
        yield
    finally:
        attune_dispatch.celery_app = real


@pytest.fixture
def broker_outage(sent_tasks, monkeypatch: pytest.MonkeyPatch):
    """``with broker_outage():`` every message is refused as by a broker that is down (at once,
    no connection attempt); afterwards the broker is back and ``sent_tasks`` records again."""
    recorder = celery_app.send_task

    def refused(name: str, *args: Any, **options: Any) -> None:
        raise OperationalError("[Errno 111] Connection refused")

    @contextmanager
    def outage() -> Iterator[None]:
        monkeypatch.setattr(celery_app, "send_task", refused)
        try:
            yield
        finally:
            monkeypatch.setattr(celery_app, "send_task", recorder)

    return outage


@pytest.fixture
def sweep_at(django_capture_on_commit_callbacks):
    """``sweep_at(step, after_s)``: one step of the workers' sweep (``attune_collect/sweep.py``)
    run as if ``after_s`` seconds had passed, its messages sent as after its commits; returns
    what the step returns (what it sent)."""

    def run(step: Any, after_s: float = 0.0) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return step(timezone.now() + timedelta(seconds=after_s))

    return run
