"""The live chat check and the QA scan agree on every corpus message: the same messages
signalled, with the same phrases and the same model evidence (score, borderline, nearest
message). The QA scan runs first, on the stored messages alone (no
live signal yet exists to lean on); then the live check runs on the same turns."""

from __future__ import annotations

import pytest

from annotations.models import SignalKind, Turn, TurnSignal
from annotations.services import safety
from tests.factories import build_record, build_turn, make_conversation
from tests.qa.conftest import flags_of
from tests.safety.corpus import EVERYDAY, RISK

pytestmark = pytest.mark.django_db


def test_live_check_and_qa_scan_agree_on_the_corpus(study):
    messages = RISK + EVERYDAY
    record = build_record(
        turns=tuple(build_turn(n, user_message=m) for n, m in enumerate(messages, start=1))
    )
    conversation = make_conversation(study, record=record)

    flag = flags_of(conversation)["risk_signal"]
    qa_phrases = {int(n): phrases for n, phrases in flag.evidence["turns"].items()}

    turns = Turn.objects.filter(conversation=conversation).order_by("number")
    assert turns.count() == len(messages)
    for turn in turns:
        safety.check_message(turn, study, actor_label="test")
    live = {
        s.turn.number: s.evidence
        for s in TurnSignal.objects.filter(kind=SignalKind.RISK).select_related("turn")
    }
    live_phrases = {number: evidence["phrases"] for number, evidence in live.items()}
    live_model = {
        str(number): {
            key: evidence[key] for key in ("score", "borderline", "neighbour", "category")
        }
        for number, evidence in live.items()
    }

    assert live_phrases == qa_phrases
    assert live_model == flag.evidence["model"]
    assert set(range(1, len(RISK) + 1)) <= set(qa_phrases)  # every risk message, in both
