"""Fixtures for the evaluation-engine tests: seeded release folders, a fake gateway that answers
like the demo provider without litellm (fast), and the local OpenAI-compatible server answering
our prompts with valid JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from annotations.seeding import demo_conversations
from attune_collect.llm import Completion, EndpointConfig, GatewayError, LLMGateway
from attune_collect.llm.demo_json import json_answer
from attune_collect.llm.testing import TestServer, run_test_server
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.instrument import default_instrument
from attunebench.records import Conversation
from attunebench.writer import write_conversation_file

KEY_ENV = "ENGINE_TEST_API_KEY"
Messages = Sequence[Mapping[str, Any]]


def demo_json_reply(messages: Messages, persona: str = "listener") -> str:
    """What the demo provider answers to a JSON prompt, without going through litellm."""
    digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
    return json_answer(
        messages, persona=persona, seed=digest, reply_text=lambda text: f"[demo] {text[:60]}"
    )


def seeded(count: int = 3, seed: int = 11) -> list[Conversation]:
    return list(demo_conversations(default_instrument(), count, seed))


@pytest.fixture
def conversations() -> list[Conversation]:
    return seeded()


@pytest.fixture
def release_dir(tmp_path: Path, conversations: list[Conversation]) -> Path:
    """A release folder: conversations/ and subsamples/sample2.txt."""
    folder = tmp_path / "release"
    for conversation in conversations:
        write_conversation_file(conversation, folder / "conversations")
    names = sorted(path.name for path in (folder / "conversations").iterdir())
    (folder / "subsamples").mkdir()
    (folder / "subsamples" / "sample2.txt").write_text("\n".join(names[:2]) + "\n")
    return folder


class FakeGateway(LLMGateway):
    """Answers like the demo provider (or via ``reply``), records every request, no HTTP."""

    def __init__(self, reply: Callable[[str, Messages], str] | None = None) -> None:
        super().__init__()
        self.reply = reply or (lambda model, messages: demo_json_reply(messages))
        self.requests: list[tuple[str, list[dict[str, Any]]]] = []
        self.failures: dict[int, GatewayError] = {}  # request number (0-based) -> error

    async def complete(
        self, endpoint: EndpointConfig, messages: Messages, **params: Any
    ) -> Completion:
        number = len(self.requests)
        self.requests.append((endpoint.model, [dict(m) for m in messages]))
        if number in self.failures:
            raise self.failures[number]
        text = self.reply(endpoint.model, messages)
        return Completion(
            text=text,
            finish_reason="stop",
            prompt_tokens=100,
            completion_tokens=20,
            cost_usd=0.001,
            latency_ms=1.0,
            model=endpoint.model,
            attempts=1,
        )


@pytest.fixture
def fake_gateway() -> FakeGateway:
    return FakeGateway()


@pytest.fixture
def executor(fake_gateway: FakeGateway) -> CallExecutor:
    return CallExecutor(MemoryCallCache(), fake_gateway)


def server_json_reply(body: dict[str, Any]) -> str:
    return demo_json_reply(body.get("messages", []))


@pytest.fixture(scope="session")
def _engine_server() -> Iterator[TestServer]:
    with run_test_server() as server:
        yield server


@pytest.fixture
def json_server(_engine_server: TestServer, monkeypatch: pytest.MonkeyPatch) -> TestServer:
    """The local OpenAI-compatible server, answering our prompts with valid JSON."""
    _engine_server.behaviour.reset()
    _engine_server.behaviour.reply = server_json_reply
    monkeypatch.setenv(KEY_ENV, "sk-engine-test")
    return _engine_server
