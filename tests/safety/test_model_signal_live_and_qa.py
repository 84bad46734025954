"""A message only the learned model catches is signalled live and flagged by QA alike: the
live signal says the model fired (score, borderline, nearest message), QA's risk flag lists the
turn with no phrase and the model's evidence, and says it was borderline. Both agree on every
message, also when QA scans again after the live signals exist."""

from __future__ import annotations

import pytest

from annotations.models import SignalKind, Turn, TurnSignal
from annotations.services import safety
from tests.factories import build_record, build_turn, make_conversation
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db

MESSAGES = (
    "im so done with everything",  # the tiny model alone, in its borderline band
    "I want to end it all",  # the lexicon
    "can you recommend a good book about history",  # neither
)


def test_a_model_only_message_is_signalled_live_and_flagged_borderline(study, tiny_model):
    record = build_record(
        turns=tuple(build_turn(n, user_message=m) for n, m in enumerate(MESSAGES, start=1))
    )
    conversation = make_conversation(study, record=record)
    flag = flags_of(conversation)["risk_signal"]
    assert flag.evidence["turns"] == {"1": [], "2": ["end it all"]}
    model = flag.evidence["model"]
    assert model["1"]["borderline"] is True and model["1"]["category"] == "wish_to_be_dead"
    assert model["2"]["borderline"] is False
    assert "the risk model fired alone in 1 message(s), 1 borderline" in flag.summary
    assert flag.turn_numbers == [1, 2]

    for turn in Turn.objects.filter(conversation=conversation):
        safety.check_message(turn, study, actor_label="test")
    live = {
        s.turn.number: s.evidence
        for s in TurnSignal.objects.filter(kind=SignalKind.RISK).select_related("turn")
    }
    assert set(live) == {1, 2}
    assert live[1]["signal"] == "model" and live[1]["phrases"] == []
    for number in ("1", "2"):
        seen = {k: live[int(number)][k] for k in ("score", "borderline", "neighbour", "category")}
        assert seen == model[number]

    again = flags_of(conversation)["risk_signal"]  # the scan reads the live signals too now
    assert again.evidence == flag.evidence
