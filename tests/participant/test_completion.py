"""After the chat: minimum turns, post-PANAS, Q1-Q3 with the follow-up only where due, the
four-branch ratings; completion returns the Prolific code and redirect URL."""

import pytest

from annotations.dispatch import COMPUTE_FLAGS, SCAN_PERSONAL_DETAILS
from annotations.models import Conversation, ConversationState, ConversationWideAnswers

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered(participant_client, answered_turn):
    def make(study=None, turns=1):
        client = participant_client(study)
        client.onboard()
        for _ in range(turns):
            number = answered_turn(client)
            client.annotate(number)
        return client

    return make


POST = {
    "looking_for": ["vent"],
    "emotion_clarity": "implied",
    "model_fit": "very_well",
    "four_branch": {"perceiving": 7, "facilitating": 6, "understanding": 5, "managing": 4},
}


def test_finishing_needs_the_minimum_of_answered_turns(make_chat_study, answered):
    client = answered(make_chat_study(min_turns=2, max_turns=3), turns=1)
    reply = client.post("finish")
    assert reply.status == 409 and reply.error["code"] == "min_turns_not_reached"
    assert reply.error["min_turns"] == 2 and reply.error["answered"] == 1


def test_the_whole_post_chat_flow_completes(answered):
    client = answered()
    assert client.post("finish").body["step"] == "post_panas"
    assert client.post("post-survey", POST).error["code"] == "wrong_step"  # PANAS first
    assert client.post("panas/post", {"items": client.panas_items(5)}).body["step"] == "post_survey"
    session = client.post("post-survey", POST).body
    assert session["step"] == "complete"
    assert session["completion"]["code"] == "C0MPL3TE"
    answers = ConversationWideAnswers.objects.get()
    assert answers.looking_for == ["vent"] and answers.model_fit == "very_well"
    assert (answers.perceiving, answers.managing) == (7, 4)
    conversation = Conversation.objects.get()
    assert conversation.state == ConversationState.COMPLETED and conversation.completed_at
    assert client.session()["completion"]["code"] == "C0MPL3TE"  # a reload shows it again


def test_completing_asks_for_the_qa_flags_after_commit(
    answered, sent_tasks, django_capture_on_commit_callbacks
):
    client = answered()
    client.post("finish")
    client.post("panas/post", {"items": client.panas_items(5)})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert client.post("post-survey", POST).body["step"] == "complete"
    assert sent_tasks[COMPUTE_FLAGS] == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sent_tasks[COMPUTE_FLAGS] == [Conversation.objects.get().pk]
    # Its texts are scanned for personal details by a worker too, never in the request.
    assert sent_tasks[SCAN_PERSONAL_DETAILS] == [Conversation.objects.get().pk]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"looking_for": ["world peace"]}, "looking_for"),
        ({"looking_for": []}, "looking_for"),
        ({"emotion_clarity": "loud"}, "emotion_clarity"),
        ({"model_fit": "perfect"}, "model_fit"),
        ({"what_felt_off": ["nothing"]}, "what_felt_off"),  # very_well: the follow-up is not asked
        (
            {
                "four_branch": {
                    "perceiving": 8,
                    "facilitating": 6,
                    "understanding": 5,
                    "managing": 4,
                }
            },
            "four_branch.perceiving",
        ),
        ({"four_branch": {"perceiving": 7}}, "four_branch.facilitating"),
    ],
)
def test_a_bad_post_chat_answer_changes_nothing(answered, change, field):
    client = answered()
    client.post("finish")
    client.post("panas/post", {"items": client.panas_items()})
    reply = client.post("post-survey", {**POST, **change})
    assert reply.status == 400 and reply.error["field"] == field
    assert not ConversationWideAnswers.objects.exists()
    assert Conversation.objects.get().state == ConversationState.POST_SURVEY


def test_the_follow_up_is_kept_when_the_fit_was_poor(answered):
    client = answered()
    session = client.finish_and_complete()  # model_fit "mixed" with a follow-up answer
    assert session["step"] == "complete"
    assert ConversationWideAnswers.objects.get().what_felt_off == ["It gave advice too fast."]


def test_a_second_conversation_follows_when_the_study_asks_for_two(
    make_chat_study, answered, answered_turn
):
    study = make_chat_study(conversations_per_participant=2)
    client = answered(study)
    session = client.finish_and_complete()
    assert session["step"] == "pre_panas" and session["conversation"]["number"] == 2
    assert session["completion"] is None
    client.post("panas/pre", {"items": client.panas_items()})
    client.post("topic", {"category": "family"})
    client.annotate(answered_turn(client))
    assert client.finish_and_complete()["step"] == "complete"
    assert Conversation.objects.filter(state=ConversationState.COMPLETED).count() == 2


def test_a_preview_participant_gets_no_prolific_redirect(
    participant_client, answered_turn, researcher_client, chat_study
):
    from annotations.models import Participant

    response = researcher_client.post(f"/admin/annotations/study/{chat_study.pk}/preview/")
    token = response["Location"].split("#token=")[1]
    client = participant_client()
    client.token = token
    client.pid = Participant.objects.get(is_preview=True).prolific_pid
    client.onboard()
    client.annotate(answered_turn(client))
    session = client.finish_and_complete()
    assert session["preview"] is True
    assert session["completion"]["redirect_url"] is None
