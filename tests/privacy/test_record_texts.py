"""The texts a scan reads are every free string a conversation file carries: one-word answers
and imported keys the format does not model included, and each can be replaced in place."""

import json

import pytest

from annotations.qa.personal_details.kinds import DetailKind
from annotations.qa.personal_details.redaction import repeats
from annotations.qa.personal_details.texts import record_texts, replace_texts
from attunebench import records
from attunebench.writer import conversation_to_dict

EMAIL = "priya.k88@gmail.com"


def _record() -> records.Conversation:
    """A record with a string in every place a conversation file can hold one."""
    annotations = records.TurnAnnotations(
        binary_judgements=(records.BinaryJudgement("B1", "yes", "no", "na"),),
        llm_improved="improved",
        human_edited="edited",
        pairwise_comparisons=(records.PairwiseComparison("PW1", "original", "human", "A"),),
        selected_pairwise_questions=("PW1",),
        other={"reviewNote": {"by hand": ["annotation note"]}},
    )
    return records.Conversation(
        conversation_id="c1",
        metadata=records.Metadata(
            model="m",
            provider="p",
            model_version="v",
            timestamp="2026-01-01T00:00:00",
            category="work",
            subtopic="boss",
            other={"category_other": "my job", "source": "imported metadata"},
        ),
        participant_profile=records.ParticipantProfile(
            participant_id="P1",
            schema_version="1",
            age=30,
            traits=("trait",),
            goals=("goal",),
            responses={"nickname": EMAIL, "choices": ["a", "b"]},
            extra={"contact": "extra text"},
            other={"imported": "profile other"},
        ),
        pre_panas=records.Panas({"Interested": 3}, 10, 10, other={"comment": "panas note"}),
        conversation_wide=records.ConversationWide(
            looking_for=("advice",),
            emotion_clarity="clear",
            model_fit="good",
            what_felt_off=("too long",),
            other={"q1_lookingFor_other": "help"},
        ),
        turns=(
            records.Turn(
                2,
                "user words",
                "model words",
                mood_tags=(records.MoodTag("Interested", 3),),
                annotations=annotations,
                other={"importedNote": "turn other"},
            ),
        ),
        other={"weird key": "record other", "participantProfile": "clash"},
    )


def test_a_one_word_profile_answer_is_a_text():
    assert record_texts(_record())["participantProfile.responses.nickname"] == EMAIL


def test_imported_keys_the_format_does_not_model_are_texts():
    texts = record_texts(_record())
    assert texts["participantProfile.extra.contact"] == "extra text"
    assert texts["participantProfile.imported"] == "profile other"
    assert texts["turns[turnNumber=2].importedNote"] == "turn other"
    assert texts['turns[turnNumber=2].annotations.reviewNote["by hand"][0]'] == "annotation note"
    assert texts["metadata.source"] == "imported metadata"
    assert texts['["weird key"]'] == "record other"


def test_ids_the_model_times_and_vocabulary_values_are_not_texts():
    texts = set(record_texts(_record()).values())
    for value in ("c1", "P1", "m", "p", "v", "2026-01-01T00:00:00", "Interested", "PW1", "B1"):
        assert value not in texts


@pytest.mark.parametrize("encoded", [False, True])
def test_every_text_is_replaced_in_place_and_none_is_left_in_the_file(encoded):
    record = _record()
    texts = record_texts(record)
    new = {path: f"<{index}>" for index, path in enumerate(texts)}
    replaced = replace_texts(record, new)
    if encoded:
        written = json.dumps(conversation_to_dict(replaced), ensure_ascii=False)
        assert [text for text in texts.values() if json.dumps(text) in written] == []
    else:
        assert record_texts(replaced) == new


def test_a_path_that_names_no_text_is_refused():
    with pytest.raises(ValueError, match="names no free text"):
        replace_texts(_record(), {"turns[turnNumber=9].userMessage": "x"})


def test_a_reviewed_detail_repeats_at_whole_words_as_typed_only():
    texts = {
        "a": "Priya said hi. Priya's mum",
        "b": "Priyanka and priya and (Priya)",
    }
    found = {(s.path, s.start, s.end) for s in repeats(texts, {"Priya": DetailKind.NAME})}
    assert found == {("a", 0, 5), ("a", 15, 20), ("b", 24, 29)}
