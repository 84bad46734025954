"""A study in several languages: the participant's language comes from the app's request (the
link's or the browser's) when the study enables it, else the study's default; it is recorded
on the participant, and the session, the study's texts and the instrument come in it, with
the same item ids in every language."""

import pytest

from annotations.demo_languages import ensure_instrument_translation
from annotations.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture
def spanish_study(make_chat_study):
    study = make_chat_study(
        languages=["en", "es"],
        default_language="en",
        consent_text="Please read this.",
        translations={
            "es": {
                "consent_text": "Por favor, lee esto.",
                "topic_labels": {"work": "trabajo"},
            }
        },
    )
    ensure_instrument_translation(study.instrument, "es")
    return study


class TestTheLanguageChosenAtStart:
    def test_an_enabled_language_is_recorded_and_the_session_speaks_it(
        self, participant_client, spanish_study
    ):
        client = participant_client(spanish_study)
        session = client.start(language="es-MX").body["session"]
        assert Participant.objects.get(prolific_pid=client.pid).language == "es"
        assert session["language"] == "es"
        assert session["study"]["consent_text"] == "Por favor, lee esto."
        assert session["study"]["topic_labels"] == {"work": "trabajo"}
        assert (session["study"]["languages"], session["study"]["default_language"]) == (
            ["en", "es"],
            "en",
        )

    def test_a_language_the_study_does_not_enable_falls_back_to_its_default(
        self, participant_client, spanish_study
    ):
        client = participant_client(spanish_study)
        session = client.start(language="ar").body["session"]
        assert (session["language"], session["study"]["consent_text"]) == (
            "en",
            "Please read this.",
        )

    def test_resuming_keeps_the_language_started_in(self, participant_client, spanish_study):
        first = participant_client(spanish_study)
        first.start(language="es")
        again = participant_client(spanish_study, pid=first.pid)
        assert again.start(session_id="SESSION1", language="en").body["session"]["language"] == "es"

    def test_a_malformed_language_is_refused(self, participant_client, spanish_study):
        reply = participant_client(spanish_study).start(language="<script>")
        assert (reply.status, reply.error["field"]) == (400, "language")


class TestTheInstrumentInTheParticipantsLanguage:
    def test_spanish_wording_with_the_english_item_ids(self, participant_client, spanish_study):
        english = participant_client(spanish_study)
        english.start(language="en")
        spanish = participant_client(spanish_study)
        spanish.start(language="es")
        en, es = english.get("instrument").body, spanish.get("instrument").body
        assert (en["language"], es["language"]) == ("en", "es")
        assert [i["id"] for i in es["panas_items"]] == [i["id"] for i in en["panas_items"]]
        proud = next(i for i in es["panas_items"] if i["id"] == "Proud")
        assert (proud["label"], proud["description"]) == (
            "Orgulloso/a",
            "satisfecho/a contigo o con algo que hiciste",
        )
        assert [o["id"] for o in es["q3_model_fit"]["options"]] == [
            o["id"] for o in en["q3_model_fit"]["options"]
        ]
        assert es["q3_follow_up"]["prompt"] == "¿Qué no encajó?"
        assert es["intensity_scale"]["labels"]["7"] == "muchísimo"
        assert es["profile"][0]["prompt"] == "Tu edad en años"

    def test_the_support_notice_comes_in_the_participants_language(
        self, participant_client, spanish_study
    ):
        spanish_study.support_resources = ""
        spanish_study.save()
        client = participant_client(spanish_study)
        session = client.start(language="es").body["session"]
        assert session["study"]["support_resources"].startswith("Si estás en peligro")
