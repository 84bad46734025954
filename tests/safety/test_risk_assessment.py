"""What ``risk.assess`` says about a message: which signal fired (the lexicon's phrase, or the
model alone with its score, nearest training message and that message's category), whether a
model-only score is borderline (between the check-in and the flag thresholds: still risk), and
that a language without a model keeps the lexicon alone. ``is_risk`` agrees with ``assess``."""

from __future__ import annotations

import copy

from annotations.text_checks import risk

MODEL_ONLY = "honestly i'm so tired of existing"  # no lexicon phrase
LEXICON = "I want to end it all"
EVERYDAY = "can you recommend a good book about history"


def test_a_lexicon_phrase_fires_as_the_lexicon(tiny_model):
    assessment = risk.assess(LEXICON)
    assert assessment.risk and assessment.signal == risk.LEXICON
    assert assessment.phrases == ("end it all",)
    assert assessment.score is not None and not assessment.borderline
    assert risk.is_risk(LEXICON)


def test_the_model_alone_fires_with_its_score_and_nearest_message(tiny_model, use_risk_artefact):
    sure = copy.deepcopy(tiny_model)
    sure["thresholds"]["flag"] = sure["thresholds"]["check_in"]  # no borderline band
    use_risk_artefact(sure)
    assessment = risk.assess(MODEL_ONLY)
    assert assessment.risk and assessment.signal == risk.MODEL and not assessment.phrases
    assert assessment.score is not None and assessment.score >= sure["thresholds"]["flag"]
    assert not assessment.borderline
    assert assessment.neighbour == "i'm so tired of existing"
    assert assessment.category == "wish_to_be_dead"
    assert risk.is_risk(MODEL_ONLY)


def test_a_score_between_the_thresholds_is_borderline_and_still_risk(tiny_model, use_risk_artefact):
    score = risk.assess(MODEL_ONLY).score
    assert score is not None
    banded = copy.deepcopy(tiny_model)
    banded["thresholds"] = {"check_in": score - 0.01, "flag": score + 0.01}
    use_risk_artefact(banded)
    assessment = risk.assess(MODEL_ONLY)
    assert assessment.risk and assessment.borderline and assessment.signal == risk.MODEL
    assert assessment.evidence()["borderline"] is True
    assert risk.is_risk(MODEL_ONLY)


def test_below_the_check_in_threshold_is_no_risk(tiny_model, use_risk_artefact):
    score = risk.assess(MODEL_ONLY).score
    assert score is not None
    above = copy.deepcopy(tiny_model)
    above["thresholds"] = {"check_in": score + 0.01, "flag": score + 0.02}
    use_risk_artefact(above)
    assessment = risk.assess(MODEL_ONLY)
    assert not assessment.risk and assessment.signal is None and not assessment.borderline
    assert assessment.neighbour is None and not risk.is_risk(MODEL_ONLY)


def test_everyday_text_and_an_empty_message_are_no_risk(tiny_model):
    assert not risk.assess(EVERYDAY).risk and not risk.is_risk(EVERYDAY)
    empty = risk.assess("  \u200b ")
    assert not empty.risk and empty.score == 0.0


def test_a_language_without_a_model_keeps_the_lexicon_alone(tiny_model):
    assert risk.assess(MODEL_ONLY, language="en-GB").risk  # English in any region: the model
    for language in ("fr", "pt-BR"):  # no artefact reads them
        alone = risk.assess(MODEL_ONLY, language=language)
        assert not alone.risk and alone.score is None and alone.signal is None
        assert not risk.is_risk(MODEL_ONLY, language=language)
        assert risk.assess(LEXICON, language=language).phrases == ("end it all",)
