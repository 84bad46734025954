"""The learned risk model reads a chat message in a worker, not before the reply: the web
process checks the lexicon at once (a phrase still brings the notice in the stream's first
event), marks the turn's model read owed and sends it to a worker; the worker's read records
what only the model saw (a sure score: the signal, the alert, the notice in the session the app
reads as the reply ends; a borderline one: the check-in, no alert), completes a phrase's signal
with the model's view so the live signal equals the QA scan's, and clears the owed mark. A read
lost to the broker is sent again by the sweep, once, after the bound."""

from __future__ import annotations

import copy

import pytest

from annotations.dispatch import READ_MESSAGE_RISK, RISK_ALERT
from annotations.models import AuditEntry, SignalKind, Turn, TurnSignal
from annotations.services import safety
from annotations.services.participant_sessions import participant_for_token
from annotations.text_checks import risk
from attune_collect.dispatch import resend_bound
from tests.qa.conftest import flags_of
from tests.safety.conftest import (  # noqa: F401  (fixtures)
    tiny_artefact,
    use_risk_artefact,
)

pytestmark = pytest.mark.django_db

MODEL_ONLY = "honestly i'm so tired of existing"  # no lexicon phrase
PHRASE = "Honestly I want to end it all, I can't go on."


@pytest.fixture
def sure_model(tiny_artefact, use_risk_artefact) -> None:  # noqa: F811
    """The tiny model, sure of MODEL_ONLY (its flag threshold just below that score)."""
    use_risk_artefact(tiny_artefact)
    score = risk.assess(MODEL_ONLY).score
    assert score is not None
    artefact = copy.deepcopy(tiny_artefact)
    artefact["thresholds"] = {"check_in": score - 0.01, "flag": score - 0.005}
    use_risk_artefact(artefact)


@pytest.fixture
def client(participant_client, chat_study):
    client = participant_client(chat_study)
    client.onboard()
    return client


def _turn(client, number: int = 1) -> Turn:
    participant = participant_for_token(client.token or "")
    return Turn.objects.get(conversation__participant=participant, number=number)


def test_a_model_only_message_is_read_by_the_worker_not_before_the_reply(
    sure_model, client, answered_turn, sent_tasks, django_capture_on_commit_callbacks
):
    answered_turn(client, MODEL_ONLY, improve=False)
    turn = _turn(client)
    assert turn.risk_read_due_at is not None  # owed to a worker ...
    assert sent_tasks[READ_MESSAGE_RISK] == [turn.pk]  # ... and sent to one
    assert not TurnSignal.objects.exists()  # the web process did not run the model
    assert client.session()["support"] is None

    with django_capture_on_commit_callbacks(execute=True):
        assert safety.read_message_risk(turn.pk) == "risk"  # what the worker does
    signal = TurnSignal.objects.get(turn=turn, kind=SignalKind.RISK)
    assert signal.evidence["signal"] == "model" and signal.evidence["borderline"] is False
    assert sent_tasks[RISK_ALERT] == [turn.pk]
    turn.refresh_from_db()
    assert turn.risk_read_due_at is None
    notice = client.session()["support"]  # what the app reads as the reply ends
    assert notice is not None and notice["turn"] == 1 and not notice.get("gentle")

    assert safety.read_message_risk(turn.pk) == "risk"  # a redelivered task changes nothing
    assert TurnSignal.objects.count() == 1 and sent_tasks[RISK_ALERT] == [turn.pk]
    assert AuditEntry.objects.filter(action="annotations.safety.risk").count() == 1


def test_a_phrase_brings_the_notice_at_once_and_the_worker_completes_its_evidence(
    sure_model, client, answered_turn, sent_tasks
):
    answered_turn(client, PHRASE, improve=False)
    turn = _turn(client)
    assert client.session()["support"]["turn"] == 1  # the lexicon's, before any worker
    assert sent_tasks[RISK_ALERT] == [turn.pk]
    signal = TurnSignal.objects.get(turn=turn)
    assert signal.evidence == {"phrases": ["end it all", "can't go on"], "signal": "lexicon"}

    assert safety.read_message_risk(turn.pk) == "risk"
    signal.refresh_from_db()
    assert signal.evidence["phrases"] == ["end it all", "can't go on"]
    assert signal.evidence["score"] is not None and signal.evidence["borderline"] is False
    assert sent_tasks[RISK_ALERT] == [turn.pk]  # no second alert
    qa = flags_of(turn.conversation)["risk_signal"].evidence
    live = {k: signal.evidence[k] for k in ("score", "borderline", "neighbour", "category")}
    assert qa["model"]["1"] == live  # the live signal reads as the QA scan does


def test_an_ordinary_message_is_read_and_no_longer_owed(sure_model, client, answered_turn):
    answered_turn(client, "Work has been stressful lately.", improve=False)
    turn = _turn(client)
    assert safety.read_message_risk(turn.pk) == "none"
    turn.refresh_from_db()
    assert turn.risk_read_due_at is None and not TurnSignal.objects.exists()


def test_without_a_model_that_can_fire_nothing_is_owed(client, answered_turn, sent_tasks):
    """The suite's lexicon-only artefact (a language no model reads is the same case)."""
    answered_turn(client, MODEL_ONLY, improve=False)
    assert _turn(client).risk_read_due_at is None
    assert READ_MESSAGE_RISK not in sent_tasks


def test_a_lost_read_is_sent_again_once_after_the_bound(
    sure_model, client, answered_turn, broker_outage, sent_tasks, sweep_at
):
    with broker_outage():
        answered_turn(client, MODEL_ONLY, improve=False)
    turn = _turn(client)
    assert sent_tasks[READ_MESSAGE_RISK] == []  # lost with the broker
    bound_s = resend_bound().total_seconds()
    assert sweep_at(safety.sweep_owed_risk_reads, bound_s - 5) == 0
    assert sweep_at(safety.sweep_owed_risk_reads, bound_s + 1) == 1
    assert sweep_at(safety.sweep_owed_risk_reads, bound_s + 1) == 0  # another worker's sweep
    assert sent_tasks[READ_MESSAGE_RISK] == [turn.pk]
    safety.read_message_risk(turn.pk)
    assert sweep_at(safety.sweep_owed_risk_reads, 10 * bound_s) == 0
