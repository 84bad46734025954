"""A borderline score of the learned model alone (between its check-in and flag thresholds) asks
QA to look and the participant how they are: the live signal is recorded with ``borderline``,
the participant sees a gentler check-in before the support resources (not the crisis notice on a
guess), the study's contacts are not e-mailed, and QA's flag is a warning that does not block
approval. A sure score brings the notice, the alert and a blocking flag, as a phrase does."""

from __future__ import annotations

import copy

import pytest

from annotations.models import Turn, TurnSignal
from annotations.services import safety
from annotations.text_checks import risk
from tests.factories import build_record, build_turn, make_conversation
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db

MODEL_ONLY = "honestly i'm so tired of existing"  # no lexicon phrase


def _artefact_around(tiny_model: dict, *, borderline: bool) -> dict:
    score = risk.assess(MODEL_ONLY).score
    assert score is not None
    artefact = copy.deepcopy(tiny_model)
    flag = score + 0.01 if borderline else score - 0.005
    artefact["thresholds"] = {"check_in": score - 0.01, "flag": flag}
    return artefact


def _checked_turn(study) -> Turn:
    record = build_record(turns=(build_turn(1, user_message=MODEL_ONLY),))
    conversation = make_conversation(study, record=record)
    return Turn.objects.get(conversation=conversation, number=1)


def test_a_borderline_message_brings_a_check_in_and_no_alert(
    study, tiny_model, use_risk_artefact, django_capture_on_commit_callbacks
):
    use_risk_artefact(_artefact_around(tiny_model, borderline=True))
    turn = _checked_turn(study)

    with django_capture_on_commit_callbacks() as callbacks:
        notice = safety.check_message(turn, study, actor_label="test")

    check_in = safety.check_in_notice(study, 1)
    assert notice == check_in and notice.gentle
    assert notice.resources.startswith(safety.CHECK_IN_TEXT)
    assert notice.resources.endswith(safety.support_resources(study))
    signal = TurnSignal.objects.get(turn=turn)
    assert signal.evidence["borderline"] is True and signal.evidence["signal"] == "model"
    assert signal.alert_resend_at is None and not callbacks  # no alert asked for
    assert not TurnSignal.objects.risk().exists()
    assert safety.notice_for_turn(turn, study) == check_in  # a retried reply shows it again
    assert safety.latest_risk_turn(turn.conversation_id) is None
    assert safety.latest_notice(turn.conversation_id, study) == check_in  # the session's
    flag = flags_of(turn.conversation)["risk_signal"]
    assert flag.severity == "warning"


def test_a_sure_model_score_brings_the_notice_the_alert_and_a_blocking_flag(
    study, tiny_model, use_risk_artefact
):
    use_risk_artefact(_artefact_around(tiny_model, borderline=False))
    turn = _checked_turn(study)

    notice = safety.check_message(turn, study, actor_label="test")

    assert notice is not None and notice.turn == 1 and not notice.gentle
    assert notice.resources == safety.support_resources(study)
    assert safety.latest_notice(turn.conversation_id, study) == notice
    signal = TurnSignal.objects.get(turn=turn)
    assert signal.evidence["borderline"] is False
    assert signal.alert_resend_at is not None
    assert TurnSignal.objects.risk().get() == signal
    assert flags_of(turn.conversation)["risk_signal"].severity == "critical"
