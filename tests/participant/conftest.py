"""Fixtures for the participant API: a study to chat in, participants, and the platform under
uvicorn for the streaming chat.

Tests that stream need ``live_participant`` (real HTTP to uvicorn in a thread, on the test
database, so they are transactional). Tests of the other steps use ``participant_client``
(the Django test client, inside the test's transaction) and ``answered_turn`` to put a
finished reply in place without a stream.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import uvicorn
from django.core.cache import cache

from annotations.demo import ensure_demo_endpoints
from annotations.models import ModelEndpoint, Participant, Study, StudyStatus
from annotations.participant_api.db import close_pool_connections
from annotations.services import chat
from annotations.services.improver import run_improver
from annotations.services.participant_sessions import participant_for_token
from attune_collect.llm import Completion
from tests.factories import make_study, make_test_server_endpoint, unique
from tests.llm.conftest import (  # noqa: F401 - fixtures and the warning filter, shared
    KEY_ENV,
    _shared_openai_server,
    api_key,
    openai_server,
    pytest_configure,
)
from tests.participant.client import DjangoTransport, LiveTransport, ParticipantClient

SUPPORT_TEXT = "If you are in danger, call 112 now. Samaritans: 116 123, any time."


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    cache.clear()  # throttle counts live in the cache; one test's calls must not limit the next
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _no_broker(sent_tasks) -> None:
    """Every participant test captures what it sends (``sent_tasks``, tests/conftest.py);
    test_improver_worker.py sends for real."""


@pytest.fixture
def improver_queue(sent_tasks) -> list[int]:
    """Turn ids the platform asked a worker to improve, in order."""
    return sent_tasks["annotations.improve_reply"]


def _study(pool: list[ModelEndpoint], improver: ModelEndpoint | None, **fields) -> Study:
    defaults = {
        "slug": unique("chat-study"),
        "status": StudyStatus.RECRUITING,
        "consent_version": "2",
        "topics": [
            {"category": "work", "subtopics": ["burnout", "deadlines"]},
            {"category": "family", "subtopics": []},
        ],
        "min_turns": 1,
        "max_turns": 3,
        "completion_code": "C0MPL3TE",
        "screenout_code": "SCR33N",
        "support_resources": SUPPORT_TEXT,
        "target_participants": 50,
    }
    study = make_study(**{**defaults, **fields})
    study.model_pool.set(pool)
    study.improver_endpoint = improver
    study.save()
    return study


@pytest.fixture
def make_chat_study(db) -> Callable[..., Study]:
    """A recruiting study on the offline demo provider (listener persona, demo improver)."""

    def make(**fields) -> Study:
        endpoints = {e.model_name: e for e in ensure_demo_endpoints()}
        return _study([endpoints["listener"]], endpoints["improver"], **fields)

    return make


@pytest.fixture
def chat_study(make_chat_study) -> Study:
    return make_chat_study()


@pytest.fixture
def upstream_endpoint(openai_server, api_key) -> ModelEndpoint:  # noqa: F811
    """An endpoint on the local OpenAI-compatible test server; no gateway retries, short timeout."""
    return make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("upstream"), timeout_s=2.0
    )


@pytest.fixture
def upstream_study(db, upstream_endpoint) -> Study:
    """A recruiting study whose chat model and improver are the local test server."""
    return _study([upstream_endpoint], upstream_endpoint)


@pytest.fixture
def participant_client(chat_study) -> Callable[..., ParticipantClient]:
    """New participants of ``chat_study`` (or another study) through the Django test client."""

    def make(study: Study | None = None, pid: str | None = None) -> ParticipantClient:
        return ParticipantClient(DjangoTransport(), (study or chat_study).slug, pid)

    return make


@pytest.fixture
def asgi_server(transactional_db) -> Iterator[str]:
    """The platform's ASGI application under uvicorn in a thread; yields its base URL."""
    with _uvicorn_in_a_thread() as url:
        yield url


@pytest.fixture
def second_asgi_server(asgi_server) -> Iterator[str]:
    """Another uvicorn beside ``asgi_server``, on an event loop of its own: as another web
    process would, it reaches the first one's replies only through Redis."""
    with _uvicorn_in_a_thread() as url:
        yield url


@contextlib.contextmanager
def _uvicorn_in_a_thread() -> Iterator[str]:
    from attune_collect.asgi_handler import AttuneASGIHandler

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        AttuneASGIHandler(),
        log_config=None,
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        close_pool_connections()  # or PostgreSQL refuses to drop the test database


@pytest.fixture
def live_participant(asgi_server) -> Iterator[Callable[..., ParticipantClient]]:
    """New participants talking real HTTP to the platform under uvicorn (streams work)."""
    transports: list[LiveTransport] = []

    def make(study: Study, pid: str | None = None) -> ParticipantClient:
        transports.append(LiveTransport(asgi_server))
        return ParticipantClient(transports[-1], study.slug, pid)

    yield make
    for transport in transports:
        transport.close()


def fake_completion(text: str) -> Completion:
    return Completion(
        text=text,
        finish_reason="stop",
        prompt_tokens=12,
        completion_tokens=8,
        cost_usd=0.0,
        latency_ms=120.0,
        model="attune-demo/listener",
        attempts=1,
        time_to_first_token_ms=40.0,
    )


@pytest.fixture
def answered_turn(django_capture_on_commit_callbacks) -> Callable[[ParticipantClient, str], int]:
    """Store a message and a finished reply through the chat services, without a stream
    (for tests about what comes after a reply). Returns the turn number."""

    def answer(
        client: ParticipantClient,
        text: str = "I feel nervous about work.",
        reply: str = "That sounds hard.",
        improve: bool = True,
    ) -> int:
        participant = participant_for_token(client.token)
        # Run what would run after commit (the improver request) although the test's
        # transaction never commits.
        with django_capture_on_commit_callbacks(execute=True):
            plan = chat.accept_message(participant, text, unique("key-abcdefgh"))
            assert chat.record_reply(plan.turn_id, fake_completion(reply)) is not None
        if improve and participant.study.improver_endpoint_id:
            run_improver(plan.turn_id)  # what the worker would do meanwhile
        return plan.turn_number

    return answer


# A valid post-chat survey (Q1-Q3, no follow-up, the four-branch ratings), as the service takes it.
POST_SURVEY = {
    "looking_for": ["vent"],
    "emotion_clarity": "clear",
    "model_fit": "mixed",
    "what_felt_off": [],
    "four_branch": {"perceiving": 5, "facilitating": 4, "understanding": 6, "managing": 3},
}


@pytest.fixture
def at_post_survey(answered_turn) -> Callable[[ParticipantClient], Participant]:
    """Take a participant through one answered turn to their conversation's post-chat survey."""

    def walk(client: ParticipantClient) -> Participant:
        client.onboard()
        assert client.annotate(answered_turn(client)).status == 200
        assert client.post("finish", {}).status == 200
        assert client.post("panas/post", {"items": client.panas_items(4)}).status == 200
        return Participant.objects.get(prolific_pid=client.pid)

    return walk
