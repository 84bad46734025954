"""A study's own texts (title, consent, support resources) in another language are a
translation of a base version: saving the translation through the audited setup path records
the base's hash; a later change of the base alone makes it stale; a translation that leaves out
a text the base has is incomplete. The admin lists each state (services/languages.py)."""

from __future__ import annotations

import pytest

from annotations.services.languages import language_statuses, study_texts_hash
from annotations.services.setup import save_setup

pytestmark = pytest.mark.django_db

SPANISH = {
    "title": "Charlas de bienestar",
    "consent_text": "Acepto participar.",
    "support_resources": "Llama al 024.",
}


def _state(study, language: str = "es") -> str:
    return next(s for s in language_statuses(study) if s.language == language).study_texts


@pytest.fixture
def bilingual(chat_study):
    chat_study.languages = ["en", "es"]
    chat_study.support_resources = "Call 988."
    chat_study.translations = {"es": dict(SPANISH)}
    return save_setup(chat_study, actor_label="test")


def test_a_saved_translation_is_of_the_current_base(bilingual):
    assert bilingual.translations["es"]["base_hash"] == study_texts_hash(bilingual)
    assert _state(bilingual) == "current"


def test_a_change_of_the_base_alone_makes_it_stale_until_it_is_translated_again(bilingual):
    bilingual.consent_text = "I agree to take part, and to the new terms."
    save_setup(bilingual, actor_label="test")
    assert _state(bilingual) == "stale"
    status = next(s for s in language_statuses(bilingual) if s.language == "es")
    assert status.needs_work

    bilingual.translations["es"]["consent_text"] = "Acepto participar y los nuevos términos."
    save_setup(bilingual, actor_label="test")
    assert _state(bilingual) == "current"


def test_a_text_the_base_has_and_the_translation_lacks_is_incomplete(bilingual):
    bilingual.translations["es"]["support_resources"] = ""
    save_setup(bilingual, actor_label="test")
    assert _state(bilingual) == "incomplete"
    assert next(s for s in language_statuses(bilingual) if s.language == "es").needs_work


def test_a_translation_of_no_known_base_is_stale(bilingual):
    del bilingual.translations["es"]["base_hash"]
    type(bilingual).objects.filter(pk=bilingual.pk).update(translations=bilingual.translations)
    bilingual.refresh_from_db()
    assert _state(bilingual) == "stale"


def test_saving_other_fields_keeps_an_untouched_translation_stale(bilingual):
    bilingual.support_resources = "Call or text 988."
    save_setup(bilingual, actor_label="test")
    bilingual.target_participants = 12
    save_setup(bilingual, actor_label="test")
    assert _state(bilingual) == "stale"
