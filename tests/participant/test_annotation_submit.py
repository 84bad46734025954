"""The per-turn annotation: mood tags (PANAS items 1-7, or none), observed/preferred answers,
the edited reply and the A/B choices. Every value is checked against the instrument; a bad
value changes nothing and the error names the field."""

import pytest

from annotations.models import BehaviourJudgement, MoodTag, PairwiseChoice, TurnAnnotation

pytestmark = pytest.mark.django_db


@pytest.fixture
def chatting(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    answered_turn(client)  # the improved reply is ready too: the comparison can be answered
    return client


def test_a_valid_annotation_is_stored(chatting):
    body = chatting.valid_annotation(1)
    body["mood_tags"] = [
        {"emotion": "nervous", "intensity": 5},
        {"emotion": "Alert", "intensity": 2},
    ]
    reply = chatting.post("turns/1/annotation", body)
    assert reply.status == 200 and reply.body["submitted"] is True
    annotation = TurnAnnotation.objects.get(turn__number=1)
    assert [(t.emotion, t.intensity) for t in annotation.mood_tags.all()] == [
        ("Nervous", 5),
        ("Alert", 2),
    ]
    judgements = list(annotation.behaviour_judgements.all())
    assert [j.question_id for j in judgements] == annotation.shown_behaviour_questions
    assert {(j.observed, j.preferred) for j in judgements} == {("yes", "no")}
    assert annotation.human_edited_reply == "What I would have liked to hear."
    assert annotation.timings == {"mood": 4.5}
    assert [c.winner for c in annotation.pairwise_choices.all()] == ["B", "B"]


def test_no_mood_shift_is_an_empty_list(chatting):
    assert chatting.annotate(1, mood_tags=[]).status == 200
    assert not MoodTag.objects.exists()


def _shown(client):
    return [q["id"] for q in client.get("turns/1/annotation").body["behaviour_questions"]]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            lambda b, q: b.update(mood_tags=[{"emotion": "Happy", "intensity": 3}]),
            "mood_tags[0].emotion",
        ),
        (
            lambda b, q: b.update(mood_tags=[{"emotion": "Upset", "intensity": 9}]),
            "mood_tags[0].intensity",
        ),
        (
            lambda b, q: b.update(
                mood_tags=[
                    {"emotion": "Upset", "intensity": 2},
                    {"emotion": "upset", "intensity": 3},
                ]
            ),
            "mood_tags[1].emotion",
        ),
        (lambda b, q: b["behaviour"][q[0]].update(observed="maybe"), "behaviour.{q0}.observed"),
        (lambda b, q: b["behaviour"].pop(q[1]), "behaviour.{q1}"),
        (
            lambda b, q: b["behaviour"].update(B999={"observed": "yes", "preferred": "yes"}),
            "behaviour.B999",
        ),
        (lambda b, q: b["pairwise"].update(general="C"), "pairwise.general"),
        (lambda b, q: b["pairwise"].pop("general"), "pairwise.general"),
        (lambda b, q: b.update(timings={"mood": -1}), "timings.mood"),
        (lambda b, q: b.update(edited_reply="x" * 8001), "edited_reply"),
    ],
)
def test_an_invalid_label_is_refused_and_changes_nothing(chatting, change, field):
    body = chatting.valid_annotation(1)
    shown = _shown(chatting)
    change(body, shown)
    reply = chatting.post("turns/1/annotation", body)
    assert reply.status == 400, reply.body
    assert reply.error["code"] == "invalid"
    assert reply.error["field"] == field.format(q0=shown[0], q1=shown[1])
    assert not MoodTag.objects.exists() and not BehaviourJudgement.objects.exists()
    assert not PairwiseChoice.objects.exists()
    assert TurnAnnotation.objects.get().submitted_at is None


def test_a_second_submit_is_refused_and_keeps_the_first(chatting):
    assert chatting.annotate(1).status == 200
    reply = chatting.annotate(1, mood_tags=[])
    assert reply.status == 409 and reply.error["code"] == "already_submitted"
    assert MoodTag.objects.count() == 1


def test_a_turn_without_a_reply_has_nothing_to_annotate(chatting):
    reply = chatting.post("turns/2/annotation", {"mood_tags": [], "behaviour": {}})
    assert reply.status == 404 and reply.error["code"] == "not_found"
