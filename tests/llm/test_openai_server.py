"""The local OpenAI-compatible test server itself: routes, scripted faults, many streams."""

import asyncio
import json

import httpx

from attune_collect.llm.testing import TestServer


def test_lists_its_model(openai_server: TestServer):
    response = httpx.get(f"{openai_server.base_url}/models")

    assert response.status_code == 200
    assert response.json()["data"][0]["id"] == "test-model"


def test_bad_json_returns_content_that_does_not_parse(openai_server: TestServer):
    openai_server.behaviour.bad_json()
    body = {"model": "m", "messages": [{"role": "user", "content": "answer in JSON"}]}

    content = httpx.post(f"{openai_server.base_url}/chat/completions", json=body).json()
    text = content["choices"][0]["message"]["content"]

    try:
        json.loads(text)
    except ValueError:
        pass
    else:
        raise AssertionError("bad_json() should produce unparseable content")
    assert openai_server.request_count == 1
    assert openai_server.behaviour.requests == [body]


def test_faults_are_consumed_in_order_then_normal_answers_resume(openai_server: TestServer):
    openai_server.behaviour.rate_limit(retry_after=7).server_error().status(503)
    url = f"{openai_server.base_url}/chat/completions"
    body = {"model": "m", "messages": []}

    responses = [httpx.post(url, json=body) for _ in range(4)]

    assert [r.status_code for r in responses] == [429, 500, 503, 200]
    assert responses[0].headers["retry-after"] == "7"


async def test_serves_hundreds_of_concurrent_streams(openai_server: TestServer):
    """220 streams open at once: the server holds every answer until all are admitted (a
    barrier, not a latency that a slow host outlasts), then each ends with [DONE]."""
    streams_open = 220
    openai_server.behaviour.hold()
    url = f"{openai_server.base_url}/chat/completions"
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi there"}]}
    limits = httpx.Limits(max_connections=300)

    async with httpx.AsyncClient(limits=limits, timeout=30) as client:

        async def one_stream() -> list[str]:
            async with client.stream("POST", url, json=body) as response:
                return [line async for line in response.aiter_lines() if line.startswith("data:")]

        streams = asyncio.gather(*(one_stream() for _ in range(streams_open)))
        deadline = asyncio.get_running_loop().time() + 30
        while openai_server.behaviour.in_flight < streams_open:
            assert asyncio.get_running_loop().time() < deadline, "the streams were not all admitted"
            await asyncio.sleep(0.005)  # yields to the client's tasks; the state is polled
        openai_server.behaviour.release()
        answered = await streams

    assert all(lines[-1] == "data: [DONE]" for lines in answered)
    assert openai_server.behaviour.max_in_flight == streams_open
