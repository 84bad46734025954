"""Every request of a unit tells the model the conversation's language (prompt set v2): the
draft, the reviews, the pairwise and post-conversation calls and the judges' requests; the
system prompts stay the same in every language. A conversation file without a language is
English (data from before languages); the v1 prompt set says nothing about it, as it did."""

from attune_collect.llm import EndpointConfig
from attunebench.cache import MemoryCallCache
from attunebench.executor import CallExecutor
from attunebench.language import (
    UNDETERMINED,
    conversation_language,
    language_name,
    primary_language,
    with_language,
)
from attunebench.runner import RunOptions, run_unit
from tests.engine.conftest import FakeGateway

JUDGE = EndpointConfig("fake/judge")


async def requests_of(conversation, options: RunOptions) -> list[tuple[str, list[dict]]]:
    gateway = FakeGateway()
    executor = CallExecutor(MemoryCallCache(), gateway)
    await run_unit(conversation, EndpointConfig("fake/em"), "default", options, executor)
    return gateway.requests


def request_texts(requests) -> list[str]:
    """The request of each call: its last user message (the thread before it is history)."""
    return [messages[-1]["content"] for _, messages in requests]


async def test_every_request_names_the_conversations_language(conversations):
    spanish = with_language(conversations[0], "es")
    requests = await requests_of(spanish, RunOptions(judges=(JUDGE,)))
    texts = request_texts(requests)
    # Drafts and reviews, and the judges' requests (draft and reply judges) too.
    assert {model for model, _ in requests} == {"fake/em", "fake/judge"}
    assert len(texts) > 2 * len(spanish.turns)
    for text in texts:
        assert text.startswith('The conversation is in Spanish (BCP 47 language tag "es")'), text
    drafts = [t for t in texts if "Write the reply you would send" in t]
    assert len(drafts) == len(spanish.turns)
    assert all("in the language of the conversation" in t for t in drafts)

    english = await requests_of(conversations[0], RunOptions(judges=(JUDGE,)))
    assert all(
        t.startswith('The conversation is in English (BCP 47 language tag "en")')
        for t in request_texts(english)
    )
    # The system prompts do not change with the language: a report names them by one hash.
    systems = {m[0]["content"] for _, m in requests if m[0]["role"] == "system"}
    assert systems == {m[0]["content"] for _, m in english if m[0]["role"] == "system"}


async def test_the_v1_prompt_set_says_nothing_about_the_language(conversations):
    spanish = with_language(conversations[0], "es")
    texts = request_texts(await requests_of(spanish, RunOptions(prompt_set="v1")))
    assert texts and not any("Spanish" in t or "BCP 47" in t for t in texts)


def test_the_language_of_a_conversation(conversations):
    conversation = conversations[0]
    assert "language" not in conversation.metadata.other
    assert conversation_language(conversation) == "en"  # files from before languages
    assert conversation_language(with_language(conversation, "es-MX")) == "es"
    assert conversation_language(with_language(conversation, "Castellano")) == UNDETERMINED
    assert [primary_language(t) for t in ("AR", "zh_Hant", "", None, "x1")] == [
        "ar",
        "zh",
        None,
        None,
        None,
    ]
    assert language_name("de") == "German" and language_name("und") == "an undetermined language"
    assert language_name("qu") == 'the language with the tag "qu"'
