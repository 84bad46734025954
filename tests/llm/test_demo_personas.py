"""Each demo persona has its own recognisable style, and every reply is labelled a demo."""

import pytest

from attune_collect.llm import DEMO_PERSONAS, EndpointConfig, GatewayError, LLMGateway

MESSAGES = [{"role": "user", "content": "My boss yelled at me and I feel so scared and nervous."}]


async def reply(persona: str, messages=MESSAGES):
    endpoint = EndpointConfig(name=f"demo-{persona}", model=f"attune-demo/{persona}")
    return await LLMGateway().complete(endpoint, messages)


@pytest.mark.parametrize("persona", DEMO_PERSONAS)
async def test_every_reply_is_labelled_and_named_as_a_demo(persona):
    completion = await reply(persona)

    assert completion.text.startswith("[demo] ")
    assert completion.model == f"attune-demo/{persona}"
    assert completion.cost_usd == 0.0


async def test_the_listener_reflects_feelings():
    text = (await reply("listener")).text

    assert "scared and nervous" in text


async def test_the_advisor_leads_with_advice():
    text = (await reply("advisor")).text

    assert "First," in text and "Second," in text


async def test_the_questioner_asks_questions():
    text = (await reply("questioner")).text

    assert text.count("?") >= 2


async def test_the_improver_rewrites_a_reply_more_warmly():
    prompt = "Rewrite this reply more warmly. Reply: You should just calm down and stop worrying."
    text = (await reply("improver", [{"role": "user", "content": prompt}])).text

    assert "You should" not in text
    assert "take a moment for yourself and stop worrying" in text


async def test_asked_who_it_is_it_says_it_is_a_demo():
    text = (await reply("listener", [{"role": "user", "content": "Are you a real AI?"}])).text

    assert "not a real language model" in text


async def test_an_unknown_persona_is_a_bad_request():
    with pytest.raises(GatewayError) as raised:
        await reply("oracle")

    assert raised.value.kind == "bad_request"
    assert "attune-demo/listener" in raised.value.message
