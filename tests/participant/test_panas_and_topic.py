"""Pre-PANAS (every item on the scale) and the topic (one of the study's)."""

import pytest

from annotations.models import Conversation, ConversationState, PanasResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def profiled(participant_client):
    client = participant_client()
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    client.post("profile", {"age": 30})
    return client


def test_pre_panas_is_stored_with_totals(profiled):
    items = profiled.panas_items(2)
    items["Nervous"] = 7
    reply = profiled.post("panas/pre", {"items": items})
    assert reply.status == 200 and reply.body["step"] == "topic"
    response = PanasResponse.objects.get(conversation__participant__prolific_pid=profiled.pid)
    assert response.phase == "pre"
    assert (response.total_positive, response.total_negative) == (20, 25)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda items: items.pop("Proud"), "items.Proud"),
        (lambda items: items.update(Proud=8), "items.Proud"),
        (lambda items: items.update(Happy=3), "items.Happy"),
        (lambda items: items.update(Proud=0), "items.Proud"),
    ],
)
def test_a_bad_panas_answer_names_the_item_and_writes_nothing(profiled, change, field):
    items = profiled.panas_items()
    change(items)
    reply = profiled.post("panas/pre", {"items": items})
    assert reply.status == 400 and reply.error["field"] == field
    assert not PanasResponse.objects.exists()


def test_a_topic_outside_the_study_list_is_refused(profiled):
    profiled.post("panas/pre", {"items": profiled.panas_items()})
    reply = profiled.post("topic", {"category": "astrology"})
    assert reply.status == 400 and reply.error["field"] == "category"
    reply = profiled.post("topic", {"category": "work", "subtopic": "cooking"})
    assert reply.status == 400 and reply.error["field"] == "subtopic"


def test_choosing_a_topic_opens_the_chat(profiled):
    profiled.post("panas/pre", {"items": profiled.panas_items()})
    reply = profiled.post("topic", {"category": "work", "subtopic": "burnout"})
    assert reply.status == 200 and reply.body["step"] == "chat"
    assert reply.body["chat"] == {"turns": [], "answered": 0, "can_send": True, "can_finish": False}
    conversation = Conversation.objects.get(participant__prolific_pid=profiled.pid)
    assert conversation.state == ConversationState.CHATTING
    assert (conversation.topic_category, conversation.topic_subtopic) == ("work", "burnout")
    assert conversation.started_at is not None


def test_the_topic_needs_the_pre_panas_first(profiled):
    reply = profiled.post("topic", {"category": "work"})
    assert reply.status == 409 and reply.error["code"] == "wrong_step"
