"""The demo provider answers the personal-details prompt with JSON the schema check reads:
capitalised words mid-sentence, a place after "in"/"from"/..., offline and deterministic."""

from attune_collect.llm import Completion
from attune_collect.llm.demo_personal_details import (
    is_personal_details_request,
    personal_details_answer,
)
from attune_collect.llm.personal_details import (
    QuotedDetail,
    personal_details_messages,
    read_details,
)


def _completion(text: str) -> Completion:
    return Completion(text, "stop", 1, 1, 0.0, 1.0, "attune-demo/listener", 1)


def test_the_fake_answer_passes_the_schema_check():
    messages = personal_details_messages("I told Maya about it. We met in Bristol on Monday.")
    assert is_personal_details_request(messages)
    assert read_details(_completion(personal_details_answer(messages))) == [
        QuotedDetail("name", "Maya"),
        QuotedDetail("place", "Bristol"),
    ]


def test_other_requests_are_not_answered_by_it():
    assert not is_personal_details_request([{"role": "user", "content": "Hi Maya"}])
