"""``manage.py train_risk_model --language fr`` (no corpus for it) fails with a message that names
the languages that have one, and writes nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotations.text_checks.risk_corpus import corpus_languages


def test_the_corpus_languages_are_english_spanish_and_german():
    assert corpus_languages() == ["de", "en", "es"]


def test_a_language_without_a_corpus_is_refused_with_the_ones_that_have_one(tmp_path):
    out = tmp_path / "risk_model.fr.json"
    with pytest.raises(CommandError, match=r"no risk corpus for 'fr'.*de, en, es"):
        call_command("train_risk_model", "--language", "fr", "--out", str(out))
    assert not out.exists()
