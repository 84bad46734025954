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
    openai_server.behaviour.latency_s = 0.2  # every stream is open at the same time
    url = f"{openai_server.base_url}/chat/completions"
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi there"}]}
    limits = httpx.Limits(max_connections=300)

    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def one_stream() -> list[str]:
            async with client.stream("POST", url, json=body) as response:
                return [line async for line in response.aiter_lines() if line.startswith("data:")]

        streams = await asyncio.gather(*(one_stream() for _ in range(220)))

    assert all(lines[-1] == "data: [DONE]" for lines in streams)
    assert openai_server.behaviour.max_in_flight >= 200
