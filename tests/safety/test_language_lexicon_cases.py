"""The Spanish and German lexicon (``risk_phrases``) against the cases each retuning round wrote
down (``tests/safety/lexicon_cases``): every phrasing a round added fires, every everyday
sentence it excluded stays silent."""

from __future__ import annotations

import pytest

from annotations.text_checks.lexicons import risk_phrases
from tests.safety.lexicon_cases import ROUNDS


def _cases(kind: str) -> list:
    return [
        pytest.param(language, text, id=f"{round_name}-{language}-{index}")
        for round_name, module in ROUNDS.items()
        for language, texts in getattr(module, kind).items()
        for index, text in enumerate(texts)
    ]


@pytest.mark.parametrize(("language", "text"), _cases("STILL_RISK"))
def test_a_risk_phrasing_fires(language: str, text: str) -> None:
    assert risk_phrases(text, language), text


@pytest.mark.parametrize(("language", "text"), _cases("EXCLUDED"))
def test_an_excluded_phrasing_does_not_fire(language: str, text: str) -> None:
    assert risk_phrases(text, language) == [], (text, risk_phrases(text, language))


def test_jest_is_only_an_exclusion_after_an_idiom_not_after_a_plan() -> None:
    """A laugh does not silence a plan: "jaja" excludes the idiom, not the method."""
    assert risk_phrases("me tomo el frasco entero esta noche jaja", "es")
    assert risk_phrases("heut nacht geh ich zur brücke und spring haha", "de")
