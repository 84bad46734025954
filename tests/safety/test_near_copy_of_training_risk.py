"""A message whose embedding is a near copy of a training risk message is risk at the sure
level whatever the model's score (the rule that keeps every training risk message caught;
out of fold it flagged no everyday message): a different everyday message is not."""

from __future__ import annotations

import copy

from annotations.text_checks import risk
from tests.safety.conftest import TINY_EVERYDAY, TINY_RISK


def test_a_near_copy_fires_sure_and_an_everyday_message_does_not(tiny_model, use_risk_artefact):
    artefact = copy.deepcopy(tiny_model)
    # The score alone can never fire: only the neighbour rule can.
    artefact["thresholds"] = {"check_in": 1.0, "flag": 1.0, "neighbour_similarity": 0.93}
    use_risk_artefact(artefact)
    text, category = TINY_RISK[7]  # no lexicon phrase in it

    assessment = risk.assess(text.upper() + "!")

    assert not assessment.phrases
    assert assessment.risk and not assessment.borderline and assessment.signal == risk.MODEL
    assert assessment.neighbour == text and assessment.category == category
    assert risk.is_risk(text)
    everyday = TINY_EVERYDAY[8][0]
    assert not risk.assess(everyday).risk and not risk.is_risk(everyday)


def test_without_the_rule_the_same_message_is_no_risk(tiny_model, use_risk_artefact):
    artefact = copy.deepcopy(tiny_model)
    artefact["thresholds"] = {"check_in": 1.0, "flag": 1.0}  # an artefact without the rule
    use_risk_artefact(artefact)
    assert not risk.is_risk(TINY_RISK[7][0])
