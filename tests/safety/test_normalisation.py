"""What a phone, a paste or a hurried typist does to a phrase does not hide it."""

from __future__ import annotations

import pytest

from annotations.text_checks.lexicons import IDENTITY_PATTERN, RISK_PATTERN, matches
from annotations.text_checks.normalise import normalise


@pytest.mark.parametrize(
    ("typed", "normalised"),
    [
        ("I don\u2019t want to be alive anymore", "i don't want to be alive anymore"),
        ("I\u2018m fine", "i'm fine"),
        ("\u201cquoted\u201d", '"quoted"'),
        ("self\u2011harm", "self-harm"),  # non-breaking hyphen
        ("sui\u200bcidal", "suicidal"),  # zero-width space
        ("sui\u00adcidal", "suicidal"),  # soft hyphen
        ("\ufb01ne", "fine"),  # NFKC: the "fi" ligature
        ("ＷＡＮＴ", "want"),  # NFKC: full-width letters
        ("  I   want\u00a0to\n\tdie  ", "i want to die"),
        ("im sad and i dont know, i cant", "i'm sad and i don't know, i can't"),
        ("i wanna go", "i want to go"),
        ("STRASSE", "strasse"),  # case folded
    ],
)
def test_normalise(typed, normalised):
    assert normalise(typed) == normalised


def test_phone_spellings_are_whole_words_only():
    assert normalise("important dontopia") == "important dontopia"


def test_matches_returns_the_normalised_phrase_once():
    text = "I WANT TO DIE. i want to\u00a0die. I want to di\u200be"
    assert matches(RISK_PATTERN, text) == ["want to die"]


def test_identity_names_are_matched_as_before():
    assert matches(IDENTITY_PATTERN, "As ChatGPT, a model by OpenAI, I hear you.") == [
        "chatgpt",
        "openai",
    ]
    assert matches(IDENTITY_PATTERN, "You could google the meta-analysis.") == []
