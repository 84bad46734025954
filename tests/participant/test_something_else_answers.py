"""'Something else' answers carry the participant's own words: a study topic with
``"other": true`` and an instrument option with ``"other": true`` (Q1's "Something else") ask
for text, which is stored beside the option id (``category_other``, ``q1_lookingFor_other``),
exported with the conversation's record and given a column of the release tables. Text for an
option that does not ask for it, or missing or too long text, is refused naming the field."""

import pytest

from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation, ConversationWideAnswers
from annotations.releases.tables import table_rows
from annotations.services.study_instrument import instrument_of

pytestmark = pytest.mark.django_db

TOPICS = [
    {"category": "work", "subtopics": ["burnout"]},
    {"category": "something else", "other": True},
]
POST = {
    "emotion_clarity": "implied",
    "model_fit": "very_well",
    "four_branch": {"perceiving": 7, "facilitating": 6, "understanding": 5, "managing": 4},
}


@pytest.fixture
def study(make_chat_study):
    return make_chat_study(topics=TOPICS)


@pytest.fixture
def at_topic(participant_client, study):
    client = participant_client(study)
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    client.post("profile", {"age": 30})
    client.post("panas/pre", {"items": client.panas_items()})
    return client


@pytest.fixture
def at_post_survey(at_topic, answered_turn):
    at_topic.post("topic", {"category": "work"})
    at_topic.annotate(answered_turn(at_topic))
    at_topic.post("finish")
    at_topic.post("panas/post", {"items": at_topic.panas_items(5)})
    return at_topic


def test_the_app_learns_which_options_ask_for_text(at_topic):
    topics = at_topic.session()["study"]["topics"]
    assert [t["other"] for t in topics] == [False, True]
    q1 = at_topic.get("instrument").body["q1_looking_for"]
    assert [o["id"] for o in q1["options"] if o["other"]] == ["other"]


def test_a_topic_in_the_participants_own_words_is_stored_beside_its_id(at_topic):
    reply = at_topic.post(
        "topic",
        {"category": "something else", "other_text": {"category": "  my sister's wedding "}},
    )
    assert reply.status == 200 and reply.body["step"] == "chat"
    assert reply.body["conversation"]["topic_other"] == "my sister's wedding"  # the chat's heading
    conversation = Conversation.objects.get()
    assert conversation.topic_category == "something else"
    assert conversation.metadata_other == {"category_other": "my sister's wedding"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"category": "something else"}, "other_text.category"),  # no text
        ({"category": "something else", "other_text": {"category": "  "}}, "other_text.category"),
        (
            {"category": "something else", "other_text": {"category": "x" * 201}},
            "other_text.category",
        ),
        ({"category": "work", "other_text": {"category": "astrology"}}, "other_text.category"),
        ({"category": "something else", "other_text": {"subtopic": "x"}}, "other_text.subtopic"),
    ],
)
def test_topic_text_is_refused_where_it_is_not_asked_or_missing(at_topic, body, field):
    reply = at_topic.post("topic", body)
    assert reply.status == 400 and reply.error["field"] == field
    assert Conversation.objects.get().topic_category == ""  # nothing written


def test_q1s_something_else_is_stored_exported_and_released(at_post_survey):
    body = {
        **POST,
        "looking_for": ["vent", "other"],
        "other_text": {"looking_for": "To feel less alone"},
    }
    reply = at_post_survey.post("post-survey", body)
    assert reply.status == 200 and reply.body["step"] == "complete"
    assert ConversationWideAnswers.objects.get().other == {
        "q1_lookingFor_other": "To feel less alone"
    }

    conversation = Conversation.objects.get()
    record = conversation_to_record(conversation)
    assert record.conversation_wide.other == {"q1_lookingFor_other": "To feel less alone"}
    rows = table_rows(record, "p1", False, instrument_of(conversation.study))
    wide = rows["conversation_wide"][0]
    assert (wide["q1_looking_for_other"], wide["q2_emotion_clarity_other"]) == (
        "To feel less alone",
        None,
    )
    assert rows["conversations"][0]["category_other"] is None  # the topic was one of the list's


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"looking_for": ["other"]}, "other_text.looking_for"),  # no text
        ({"looking_for": ["vent"], "other_text": {"looking_for": "x"}}, "other_text.looking_for"),
        (
            {"looking_for": ["other"], "other_text": {"looking_for": "ok", "emotion_clarity": "x"}},
            "other_text.emotion_clarity",
        ),
        (
            {"looking_for": ["other"], "other_text": {"looking_for": "ok", "why": "x"}},
            "other_text.why",
        ),
    ],
)
def test_post_survey_text_is_refused_where_it_is_not_asked_or_missing(
    at_post_survey, change, field
):
    reply = at_post_survey.post("post-survey", {**POST, **change})
    assert reply.status == 400 and reply.error["field"] == field
    assert not ConversationWideAnswers.objects.exists()


def test_the_topics_words_reach_the_export_and_the_release(at_topic):
    at_topic.post(
        "topic", {"category": "something else", "other_text": {"category": "moving abroad"}}
    )
    conversation = Conversation.objects.get()
    record = conversation_to_record(conversation)
    assert (record.metadata.category, record.metadata.other) == (
        "something else",
        # The participant's recorded language rides along in the same open metadata object.
        {"category_other": "moving abroad", "language": conversation.participant.language},
    )
    assert conversation.participant.language == "en"
    rows = table_rows(record, "p1", False, instrument_of(conversation.study))
    assert rows["conversations"][0]["category_other"] == "moving abroad"
