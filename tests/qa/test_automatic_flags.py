"""Each automatic check fires on a conversation that should raise it, and not on one that should not."""

from dataclasses import replace

import pytest

from annotations.models import Participant
from annotations.qa.flags import flag_types
from annotations.qa.models import AttentionCheck, FlagStatus, StudyQASettings
from attunebench import records
from tests.factories import (
    build_record,
    build_turn,
    make_conversation,
    make_study,
    time_annotations,
)
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


def with_turns(*turns: records.Turn, **fields) -> records.Conversation:
    return build_record(turns=turns, **fields)


def judgements(answer: str, preferred: str, n: int = 3) -> records.TurnAnnotations:
    return records.TurnAnnotations(
        binary_judgements=tuple(
            records.BinaryJudgement(q, observed=answer, preferred=preferred)
            for q in ("B1", "B2", "B3", "B4", "B5", "B6")[:n]
        ),
        human_edited="My edited reply.",
    )


def test_every_check_is_registered():
    assert {t.key for t in flag_types()} == {
        "failed_attention_check",
        "fast_annotation",
        "unedited_replies",
        "straight_lining",
        "short_messages",
        "identity_leak",
        "risk_signal",
        "duplicate_participant",
        "comprehension_second_attempt",
    }


def test_a_plain_conversation_raises_nothing(study):
    assert flags_of(make_conversation(study)) == {}


def test_failed_attention_check(study):
    AttentionCheck.objects.create(
        study=study,
        survey="profile",
        item_key="attention_1",
        prompt="Choose 'often' here.",
        expected_answers=["often"],
    )

    def answering(answer):
        profile = records.ParticipantProfile(
            participant_id=f"p-{answer}", responses={"attention_1": answer}
        )
        return make_conversation(study, record=build_record(participant_profile=profile))

    flag = flags_of(answering("never"))["failed_attention_check"]
    assert flag.evidence["failed"] == [
        {"survey": "profile", "item": "attention_1", "given": "never", "expected": ["often"]}
    ]
    assert "failed_attention_check" not in flags_of(answering("Often "))  # case and spaces


def test_fast_annotation(study):
    StudyQASettings.objects.create(study=study, fast_annotation_seconds=10)
    hurried = make_conversation(study, n_turns=3)
    time_annotations(hurried, [4, 3, 40])
    flag = flags_of(hurried)["fast_annotation"]
    assert flag.turn_numbers == [1, 2] and flag.severity == "critical"  # 2 of 3 turns
    careful = make_conversation(study, n_turns=3)
    time_annotations(careful, [25, 31, 40])
    assert "fast_annotation" not in flags_of(careful)


def test_edited_reply_identical_on_every_turn(study):
    def turn(n, edited):
        base = build_turn(n)
        return replace(base, annotations=replace(base.annotations, human_edited=edited))

    unedited = make_conversation(
        study, record=with_turns(turn(1, "Model reply 1"), turn(2, " Model  reply 2 "))
    )
    assert flags_of(unedited)["unedited_replies"].evidence == {"turns": [1, 2]}
    one_edited = make_conversation(
        study, record=with_turns(turn(1, "Model reply 1"), turn(2, "Kinder."))
    )
    assert "unedited_replies" not in flags_of(one_edited)


def test_same_answer_to_every_behaviour_question(study):
    straight = make_conversation(
        study,
        record=with_turns(
            build_turn(1, annotations=judgements("yes", "yes")),
            build_turn(2, annotations=judgements("yes", "yes")),
        ),
    )
    flag = flags_of(straight)["straight_lining"]
    assert flag.evidence == {"answers": 6, "observed": "yes", "preferred": "yes"}
    varied = make_conversation(
        study,
        record=with_turns(
            build_turn(1, annotations=judgements("yes", "yes")),
            build_turn(2, annotations=judgements("no", "yes")),
        ),
    )
    assert "straight_lining" not in flags_of(varied)
    too_few = make_conversation(
        study, record=with_turns(build_turn(1, annotations=judgements("yes", "yes")))
    )
    assert "straight_lining" not in flags_of(too_few)


def test_very_short_or_empty_messages(study):
    short = make_conversation(
        study, record=with_turns(build_turn(1, user_message=" "), build_turn(2))
    )
    flag = flags_of(short)["short_messages"]
    assert flag.turn_numbers == [1] and flag.severity == "warning"  # an empty message
    fine = make_conversation(study, record=with_turns(build_turn(1, user_message="okay then")))
    assert "short_messages" not in flags_of(fine)


def test_identity_leaking_reply(study):
    leaky = make_conversation(
        study,
        record=with_turns(
            build_turn(1), build_turn(2, llm_response="As ChatGPT, made by OpenAI, I can't feel.")
        ),
    )
    flag = flags_of(leaky)["identity_leak"]
    assert flag.evidence == {"turns": {"2": ["chatgpt", "openai"]}}
    careful = make_conversation(
        study, record=with_turns(build_turn(1, llm_response="You could google the meta-analysis."))
    )
    assert "identity_leak" not in flags_of(careful)


def test_risk_signal(study):
    at_risk = make_conversation(
        study,
        record=with_turns(build_turn(1, user_message="Some days I don't want to live any more.")),
    )
    flag = flags_of(at_risk)["risk_signal"]
    assert flag.severity == "critical" and flag.turn_numbers == [1]
    upset = make_conversation(
        study, record=with_turns(build_turn(1, user_message="This deadline is killing me."))
    )
    assert "risk_signal" not in flags_of(upset)


def test_duplicate_participant(study):
    profile = records.ParticipantProfile(participant_id="same-person")
    first = make_conversation(study, record=build_record(participant_profile=profile))
    second = make_conversation(study, record=build_record(participant_profile=profile))
    assert first.participant_id == second.participant_id
    Participant.objects.filter(pk=first.participant_id).update(prolific_pid="PID-TWICE")
    flag = flags_of(first)["duplicate_participant"]
    assert flag.severity == "warning"  # the study allows one conversation per participant
    assert flag.evidence["others"] == [{"conversation": second.external_id, "study": study.slug}]

    alone = make_conversation(study)
    Participant.objects.filter(pk=alone.participant_id).update(prolific_pid="PID-ONCE")
    assert "duplicate_participant" not in flags_of(alone)


def test_same_pid_in_another_study_is_information(study):
    here = make_conversation(study)
    there = make_conversation(make_study())
    Participant.objects.filter(pk__in=[here.participant_id, there.participant_id]).update(
        prolific_pid="PID-B"
    )
    flag = flags_of(here)["duplicate_participant"]
    assert flag.severity == "info" and flag.status == FlagStatus.OPEN


def test_live_signals_of_the_chat_backend_raise_flags_too(study):
    from annotations.models import Turn, TurnSignal

    conversation = make_conversation(study)  # nothing in its text
    turn = Turn.objects.get(conversation=conversation, number=2)
    TurnSignal.objects.create(
        turn=turn, kind="identity_leak", source="improved_reply", evidence={"phrases": ["gemini"]}
    )
    flag = flags_of(conversation)["identity_leak"]
    assert flag.evidence == {"turns": {"2": ["gemini"]}} and flag.turn_numbers == [2]
