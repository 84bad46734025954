"""The demo provider streams word by word (sync and async), with an optional token delay."""

import time

from attune_collect.llm import (
    EndpointConfig,
    LLMGateway,
    StreamDone,
    TokenDelta,
    register_demo_provider,
)
from attune_collect.llm._litellm import load_litellm

MESSAGES = [{"role": "user", "content": "I am excited about my new job"}]
ENDPOINT = EndpointConfig(name="demo", model="attune-demo/questioner")


async def test_streams_word_chunks_that_join_to_the_full_reply():
    gateway = LLMGateway()
    full = await gateway.complete(ENDPOINT, MESSAGES)

    events = [event async for event in gateway.stream(ENDPOINT, MESSAGES)]

    deltas = [event.text for event in events if isinstance(event, TokenDelta)]
    assert len(deltas) == len(full.text.split())
    assert "".join(deltas) == full.text
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert done.completion.completion_tokens == len(deltas)


async def test_the_token_delay_param_paces_the_stream():
    started = time.monotonic()

    events = [e async for e in LLMGateway().stream(ENDPOINT, MESSAGES, token_delay_ms=10)]

    assert time.monotonic() - started >= 0.010 * (len(events) - 2)


def test_sync_completion_and_streaming_work_through_litellm(monkeypatch):
    monkeypatch.setenv("ATTUNE_DEMO_TOKEN_DELAY_MS", "1")
    register_demo_provider()
    litellm = load_litellm()

    response = litellm.completion(model="attune-demo/listener", messages=MESSAGES)
    chunks = litellm.completion(model="attune-demo/listener", messages=MESSAGES, stream=True)
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)

    assert response.model == "attune-demo/listener"
    assert streamed == response.choices[0].message.content
