"""Safety: a message with a risk phrase shows the study's support resources and flags the
conversation for QA, and the chat goes on. A reply that names a vendor or model is flagged."""

import pytest

from annotations.models import AuditEntry, SignalKind, TurnSignal
from attunebench.instrument import default_instrument

pytestmark = pytest.mark.django_db(transaction=True)

RISKY = "Honestly I want to end it all, I can't go on."


def test_a_risk_phrase_shows_support_and_the_chat_goes_on(chat_study, live_participant, sent_tasks):
    client = live_participant(chat_study)
    client.onboard()
    result = client.send(RISKY)
    assert result.data("turn")["support"] == {"resources": chat_study.support_resources, "turn": 1}
    assert result.names[-1] == "done"  # the model still answers
    signal = TurnSignal.objects.get()
    assert (signal.kind, signal.source) == (SignalKind.RISK, "user_message")
    assert signal.evidence["phrases"] == ["end it all", "can't go on"]
    assert signal.evidence["signal"] == "lexicon"
    assert AuditEntry.objects.filter(action="annotations.safety.risk").exists()
    assert client.session()["support"] == {"resources": chat_study.support_resources, "turn": 1}
    assert sent_tasks["qa.risk_alert"] == [signal.turn_id]  # flag and email, in the background


def test_without_study_resources_the_instruments_are_shown(make_chat_study, live_participant):
    study = make_chat_study(support_resources="")
    client = live_participant(study)
    client.onboard()
    support = client.send(RISKY).data("turn")["support"]
    assert support == {"resources": default_instrument().support_resources, "turn": 1}


def test_an_ordinary_message_raises_nothing(chat_study, live_participant, sent_tasks):
    client = live_participant(chat_study)
    client.onboard()
    assert client.send("Work has been stressful lately.").data("turn")["support"] is None
    assert not TurnSignal.objects.exists()
    assert client.session()["support"] is None
    assert "qa.risk_alert" not in sent_tasks


def test_a_reply_naming_its_vendor_is_flagged(upstream_study, live_participant, openai_server):
    openai_server.behaviour.reply = lambda body: "As ChatGPT, a model by OpenAI, I hear you."
    client = live_participant(upstream_study)
    client.onboard()
    result = client.send("Who are you?")
    assert result.names[-1] == "done"
    signal = TurnSignal.objects.get()
    assert (signal.kind, signal.source) == (SignalKind.IDENTITY_LEAK, "model_reply")
    assert signal.evidence == {"phrases": ["chatgpt", "openai"]}


def test_the_notice_names_the_latest_message_that_raised_it(make_chat_study, live_participant):
    """The app shows the notice right under that message: the stream and the session say
    which turn it is, and a later risk message moves it there."""
    study = make_chat_study()
    study.improver_endpoint = None  # no comparison to wait for between the turns
    study.save()
    client = live_participant(study)
    client.onboard()
    assert client.send(RISKY).data("turn")["support"]["turn"] == 1
    assert client.annotate(1).status == 200
    assert client.send("Work has been stressful lately.").data("turn")["support"] is None
    assert client.session()["support"]["turn"] == 1  # still shown, under the first message
    assert client.annotate(2).status == 200
    assert (
        client.send("I keep thinking I'd be better off dead.").data("turn")["support"]["turn"] == 3
    )
    assert client.session()["support"]["turn"] == 3
