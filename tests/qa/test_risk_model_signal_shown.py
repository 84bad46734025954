"""The QA conversation page names what the learned risk check saw on a turn: a model-only signal
as "Risk model" with its score, borderline, and nearest training message; a lexicon signal keeps
its phrases and adds the model's score."""

from __future__ import annotations

from annotations.models import SignalKind, TurnSignal
from annotations.qa.detail import _signal

MODEL_ONLY = {
    "phrases": [],
    "signal": "model",
    "score": 0.41,
    "borderline": True,
    "neighbour": "i'm so tired of existing",
    "category": "wish_to_be_dead",
}


def test_a_model_only_signal_shows_its_score_and_neighbour():
    view = _signal(TurnSignal(kind=SignalKind.RISK, source="user_message", evidence=MODEL_ONLY))
    assert view.check == "Risk model" and view.fired
    assert view.detail == (
        "participant's message: score 0.41, borderline, nearest “i'm so tired of existing” (wish_to_be_dead)"
    )


def test_a_lexicon_signal_keeps_its_phrases_and_adds_the_score():
    evidence = {**MODEL_ONLY, "phrases": ["end it all"], "signal": "lexicon", "borderline": False}
    view = _signal(TurnSignal(kind=SignalKind.RISK, source="user_message", evidence=evidence))
    assert view.check == "Risk words"
    assert view.detail.startswith("participant's message: “end it all” (model: score 0.41, nearest")
