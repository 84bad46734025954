"""The study's admin page says, for each enabled language, whether the instrument and the
study's texts are translated, and whether a translation is stale (its base changed since).
Translations are written through the audited service, not edited in the admin."""

import pytest

from annotations.demo_languages import ensure_instrument_translation

pytestmark = pytest.mark.django_db


def test_the_study_page_lists_missing_and_current_translations(researcher_client, chat_study):
    chat_study.languages = ["en", "es", "ar"]
    chat_study.save()
    ensure_instrument_translation(chat_study.instrument, "es")
    html = researcher_client.get(
        f"/admin/annotations/study/{chat_study.pk}/change/"
    ).content.decode()
    assert "en: instrument base, study texts base" in html
    assert "es: instrument current, study texts missing" in html
    assert '<li class="errornote">ar: instrument missing, study texts missing</li>' in html


def test_translations_are_listed_read_only(researcher_client, chat_study):
    ensure_instrument_translation(chat_study.instrument, "es")
    listing = researcher_client.get("/admin/annotations/instrumenttranslation/")
    assert listing.status_code == 200
    assert "current" in listing.content.decode()
    assert researcher_client.get("/admin/annotations/instrumenttranslation/add/").status_code == 403
