"""The demo provider answers the same conversation the same way, and others differently."""

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.demo_provider import build_demo_reply

LISTENER = EndpointConfig(name="demo", model="attune-demo/listener")


async def test_the_same_messages_get_the_same_reply():
    messages = [{"role": "user", "content": "I had a rough day at work and I feel upset"}]
    first = await LLMGateway().complete(LISTENER, messages)
    second = await LLMGateway().complete(LISTENER, messages)

    assert first.text == second.text


def test_different_messages_get_different_replies():
    replies = {
        build_demo_reply("listener", [{"role": "user", "content": text}]).text
        for text in ("My exam is tomorrow", "My cat is sick", "I lost my job today")
    }

    assert len(replies) == 3


def test_the_reply_lifts_words_from_the_last_user_message():
    messages = [
        {"role": "user", "content": "earlier message about gardening"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "My sister moved abroad"},
    ]

    assert "My sister moved abroad" in build_demo_reply("listener", messages).text
