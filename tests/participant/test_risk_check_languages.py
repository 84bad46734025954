"""The risk check in a study of several languages (issue 44, item 3): a Spanish participant's
risk message, sent through the real chat, shows the support notice and raises the signal (the
live check reads it in Spanish); the study's admin page says what reads each enabled language,
and warns about one without risk phrasings of its own (only the moderation model reads it)."""

import pytest

from annotations.demo_languages import ensure_instrument_translation
from annotations.models import Participant, SignalKind, TurnSignal
from annotations.services.safety import risk_coverage
from tests.factories import make_endpoint

SPANISH_RISK = "ya no kiero vivir, pienso en suicidarme"


@pytest.mark.django_db(transaction=True)
def test_a_spanish_risk_message_in_the_live_chat_shows_support(
    make_chat_study, live_participant, sent_tasks
):
    study = make_chat_study(languages=["en", "es"], default_language="en")
    ensure_instrument_translation(study.instrument, "es")
    client = live_participant(study)
    assert client.start(language="es").status in (200, 201)
    client.onboard()
    assert Participant.objects.get().language == "es"

    result = client.send(SPANISH_RISK)
    assert result.data("turn")["support"]["turn"] == 1
    assert result.names[-1] == "done"  # the chat goes on
    signal = TurnSignal.objects.get(kind=SignalKind.RISK)
    assert signal.evidence["phrases"] == ["ya no quiero vivir", "pienso en suicidarme"]
    assert sent_tasks["qa.risk_alert"] == [signal.turn_id]


@pytest.mark.django_db
def test_the_study_page_warns_about_a_language_without_risk_phrasings(
    researcher_client, chat_study
):
    chat_study.languages = ["en", "es", "ar"]
    chat_study.save()
    page = f"/admin/annotations/study/{chat_study.pk}/change/"
    html = researcher_client.get(page).content.decode()
    assert "<li>es: phrasings, learned model</li>" in html
    assert (
        '<li class="errornote">ar: English phrases only (no risk phrasings of its own and no '
        "moderation model: only English phrases are caught; set a moderation model)</li>"
    ) in html

    chat_study.moderation_endpoint = make_endpoint()
    chat_study.save()
    html = researcher_client.get(page).content.decode()
    assert (
        '<li class="errornote">ar: English phrases only, moderation model (no risk phrasings '
        "of its own: only the moderation model (and English phrases) reads it)</li>"
    ) in html
    assert [c.warning == "" for c in risk_coverage(chat_study)] == [True, True, False]
