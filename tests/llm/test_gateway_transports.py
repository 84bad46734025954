"""Which transport an endpoint gets: OpenAI's protocol directly, everything else through litellm."""

import pytest

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.transport import uses_litellm, wire_model

BASE = "http://127.0.0.1:9/v1"


@pytest.mark.parametrize(
    ("model", "api_base", "force", "through_litellm"),
    [
        ("openai/gpt-4o-mini", None, False, False),  # OpenAI itself
        ("openai/llama3", BASE, False, False),  # any OpenAI-compatible server
        ("hosted_vllm/meta/llama-3", BASE, False, False),  # vLLM
        ("lm_studio/qwen", BASE, False, False),
        ("gpt-4o-mini", BASE, False, False),  # no provider: OpenAI's protocol at the base
        ("openai/gpt-4o-mini", BASE, True, True),  # the endpoint forces litellm
        ("anthropic/claude-3-5-sonnet-20240620", None, False, True),
        ("ollama/llama3", "http://127.0.0.1:11434", False, True),  # Ollama's native API
        ("hosted_vllm/meta/llama-3", None, False, True),  # no server to call directly
        ("attune-demo/listener", None, False, True),  # the demo provider lives in litellm
    ],
)
def test_the_transport_follows_the_protocol(model, api_base, force, through_litellm):
    endpoint = EndpointConfig(name="e", model=model, api_base=api_base, force_litellm=force)

    assert uses_litellm(endpoint) is through_litellm
    assert LLMGateway().needs_litellm(endpoint) is through_litellm


def test_the_server_gets_the_model_name_without_the_provider():
    assert wire_model("openai/gpt-4o-mini") == "gpt-4o-mini"
    assert wire_model("hosted_vllm/meta/llama-3") == "meta/llama-3"
    assert wire_model("gpt-4o-mini") == "gpt-4o-mini"


async def test_the_demo_provider_answers_through_litellm():
    gateway = LLMGateway()
    endpoint = EndpointConfig(name="demo", model="attune-demo/listener")

    completion = await gateway.complete(endpoint, [{"role": "user", "content": "I feel low"}])

    assert gateway.transport_for(endpoint).name == "litellm"
    assert completion.text
    assert completion.cost_usd == 0.0


async def test_both_transports_send_the_same_request(
    gateway: LLMGateway, make_endpoint, openai_server, transport
):
    endpoint = make_endpoint(params={"temperature": 0.3})

    [event async for event in gateway.stream(endpoint, [{"role": "user", "content": "hi"}])]

    assert gateway.transport_for(endpoint).name == transport
    body = openai_server.behaviour.requests[0]
    assert body["model"] == "test-model"
    assert (body["stream"], body["stream_options"], body["temperature"]) == (
        True,
        {"include_usage": True},
        0.3,
    )
    assert body["messages"] == [{"role": "user", "content": "hi"}]
