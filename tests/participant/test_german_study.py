"""A study can enable German (issue 44): a participant arriving with lang=de takes it in German,
recorded on them; the instrument's texts come from the shipped German translation
(annotations/translations/attune_default_v1.de.json) with the English item ids; and a German
risk message, read by the German phrasings, raises the support notice in German."""

import json
from pathlib import Path

import pytest

from annotations.demo_languages import TRANSLATIONS_DIR, ensure_instrument_translation
from annotations.models import Participant, SignalKind, Study, TurnSignal
from annotations.services.instrument_translations import text_paths

GERMAN = json.loads(Path(TRANSLATIONS_DIR, "attune_default_v1.de.json").read_text(encoding="utf-8"))
GERMAN_RISK = "ich will nicht mehr leben"


def _german_study(make_chat_study) -> Study:
    # No study support text: the notice shows the instrument's, translated.
    study = make_chat_study(languages=["en", "de"], default_language="en", support_resources="")
    ensure_instrument_translation(study.instrument, "de")
    return study


@pytest.fixture
def german_study(db, make_chat_study) -> Study:
    return _german_study(make_chat_study)


@pytest.mark.django_db
def test_the_shipped_translation_covers_every_text_of_the_instrument(german_study):
    assert set(GERMAN) == set(text_paths(german_study.instrument))


@pytest.mark.django_db
def test_lang_de_is_recorded_on_the_participant(participant_client, german_study):
    client = participant_client(german_study)
    session = client.start(language="de").body["session"]
    assert Participant.objects.get(prolific_pid=client.pid).language == "de"
    assert session["language"] == "de"


@pytest.mark.django_db
def test_the_panas_words_come_in_german_with_the_english_ids(participant_client, german_study):
    english, german = participant_client(german_study), participant_client(german_study)
    english.start(language="en")
    german.start(language="de")
    en, de = english.get("instrument").body, german.get("instrument").body
    assert (en["language"], de["language"]) == ("en", "de")
    assert [i["id"] for i in de["panas_items"]] == [i["id"] for i in en["panas_items"]]
    proud_en = next(i for i in en["panas_items"] if i["id"] == "Proud")
    proud_de = next(i for i in de["panas_items"] if i["id"] == "Proud")
    assert proud_de["label"] == GERMAN["panas_items.Proud.label"] != proud_en["label"]
    assert proud_de["description"] == GERMAN["panas_items.Proud.description"]


@pytest.mark.django_db(transaction=True)
def test_the_behaviour_questions_come_in_german(make_chat_study, live_participant, sent_tasks):
    study = _german_study(make_chat_study)
    client = live_participant(study)
    assert client.start(language="de").status in (200, 201)
    client.onboard()
    assert client.send("Heute war ein langer Tag bei der Arbeit.").names[-1] == "done"

    questions = client.get("turns/1/annotation").body["behaviour_questions"]
    assert questions
    english = {q.id: q.participant_wording for q in study.instrument.parsed().behaviour_questions}
    for question in questions:
        german = GERMAN[f"behaviour_questions.{question['id']}.participant_wording"]
        assert question["text"] == german != english[question["id"]]


@pytest.mark.django_db(transaction=True)
def test_a_german_risk_message_raises_the_notice_in_german(
    make_chat_study, live_participant, sent_tasks
):
    study = _german_study(make_chat_study)
    client = live_participant(study)
    assert client.start(language="de").status in (200, 201)
    client.onboard()

    result = client.send(GERMAN_RISK)
    support = result.data("turn")["support"]
    assert (support["turn"], support["resources"]) == (1, GERMAN["support_resources"])
    assert result.names[-1] == "done"  # the chat goes on
    signal = TurnSignal.objects.get(kind=SignalKind.RISK)
    assert signal.evidence["phrases"] == ["ich will nicht mehr leben"]
    assert sent_tasks["qa.risk_alert"] == [signal.turn_id]
    # On reload, the session carries the same German notice.
    assert client.session()["support"]["resources"] == GERMAN["support_resources"]
