"""While the comparison's second reply is being written, the participant saves every other
answer of the step (mood, behaviour, their version of the reply); the A/B choice itself waits
for both replies, and the step is submitted (the next message allowed) only with it, or once
the comparison is skipped. A later save replaces the answers saved before."""

import pytest

from annotations.models import BehaviourJudgement, MoodTag, PairwiseChoice, TurnAnnotation
from annotations.services import annotation_flow, chat
from annotations.services.errors import FlowError
from annotations.services.improver import run_improver
from annotations.services.participant_sessions import participant_for_token
from tests.participant.test_improved_reply_timeout import past_the_limit

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_turn(participant_client, answered_turn, improver_queue):
    """A participant at turn 1, its improved reply asked for and not written yet."""
    client = participant_client()
    client.onboard()
    answered_turn(client, reply="You should just calm down.", improve=False)
    turn_id = improver_queue[-1]
    assert client.get("turns/1/annotation").body["comparison"]["status"] == "pending"
    return client, turn_id


def annotation_of(turn_id: int) -> TurnAnnotation:
    return TurnAnnotation.objects.get(turn_id=turn_id)


def test_the_other_answers_are_saved_while_the_comparison_is_pending(waiting_turn):
    client, turn_id = waiting_turn
    reply = client.annotate(1)  # no A/B choice: there is nothing to compare yet
    assert reply.status == 200, reply.body
    assert reply.body["submitted"] is False and reply.body["answers_saved"] is True
    assert reply.body["comparison"]["status"] == "pending"
    annotation = annotation_of(turn_id)
    assert [(t.emotion, t.intensity) for t in annotation.mood_tags.all()] == [("Nervous", 4)]
    assert annotation.behaviour_judgements.count() == len(annotation.shown_behaviour_questions)
    assert annotation.human_edited_reply == "What I would have liked to hear."
    assert annotation.answers_saved_at is not None and annotation.submitted_at is None
    # The step is still open: the next message waits for the comparison.
    with pytest.raises(FlowError) as refused:
        chat.accept_message(participant_for_token(client.token), "And then?", "key-next-1234")
    assert refused.value.code == "out_of_turn"


def test_an_ab_choice_is_refused_while_the_comparison_is_pending(waiting_turn):
    client, turn_id = waiting_turn
    planned = annotation_of(turn_id).selected_pairwise_questions
    reply = client.annotate(1, pairwise={qid: "A" for qid in planned})
    assert reply.status == 400 and reply.error["field"] == "pairwise"
    annotation = annotation_of(turn_id)
    assert annotation.answers_saved_at is None and annotation.submitted_at is None
    assert not MoodTag.objects.exists() and not BehaviourJudgement.objects.exists()


def test_the_save_with_the_comparison_submits_and_replaces_the_saved_answers(waiting_turn):
    client, turn_id = waiting_turn
    assert client.annotate(1).status == 200
    assert run_improver(turn_id) == "ready"  # the worker wrote the second reply
    reply = client.annotate(
        1, mood_tags=[{"emotion": "Alert", "intensity": 2}], edited_reply="Better."
    )
    assert reply.status == 200, reply.body
    assert reply.body["submitted"] is True
    annotation = annotation_of(turn_id)
    assert [(t.emotion, t.intensity) for t in annotation.mood_tags.all()] == [("Alert", 2)]
    assert annotation.behaviour_judgements.count() == len(annotation.shown_behaviour_questions)
    assert annotation.human_edited_reply == "Better."
    assert PairwiseChoice.objects.filter(annotation=annotation).count() == len(
        annotation.pairwise_plan
    )


def test_saved_answers_then_a_skipped_comparison_submit_without_it(waiting_turn):
    client, turn_id = waiting_turn
    assert client.annotate(1).status == 200
    past_the_limit(turn_id)
    reply = client.annotate(1)
    assert reply.status == 200 and reply.body["submitted"] is True
    annotation = annotation_of(turn_id)
    assert annotation.improved_meta["pairwise_skipped"] is True
    assert annotation.mood_tags.count() == 1  # the saved answers replaced, not doubled


def test_a_step_without_a_comparison_is_submitted_at_once(
    participant_client, answered_turn, make_chat_study
):
    study = make_chat_study()
    study.improver_endpoint = None
    study.save()
    client = participant_client(study)
    client.onboard()
    answered_turn(client)
    reply = client.annotate(1)
    assert reply.status == 200 and reply.body["submitted"] is True
    assert reply.body["answers_saved"] is False
    assert annotation_flow.draft_key(1) == reply.body["draft_key"]
