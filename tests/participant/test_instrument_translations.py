"""Instrument translations: a translation of one base version, by the base's item ids; it
cannot add or rename an item, has its own content hash, and is stale once the base changes."""

import pytest

from annotations.models import AuditEntry, Instrument
from annotations.services.instrument_translations import (
    TranslationError,
    save_translation,
    text_paths,
    translation_status,
)
from annotations.services.instruments import ensure_default_instrument

pytestmark = pytest.mark.django_db


@pytest.fixture
def instrument() -> Instrument:
    return ensure_default_instrument()


def test_a_translation_has_its_own_hash_and_an_audit_entry(instrument):
    translation = save_translation(
        instrument, "es", {"panas_items.Proud.label": "Orgulloso/a"}, actor_label="test"
    )
    assert translation.base_hash == instrument.content_hash
    assert translation.content_hash not in ("", instrument.content_hash)
    assert AuditEntry.objects.filter(action="annotations.instrument_translation.save").exists()


def test_a_text_of_an_item_the_base_does_not_have_is_refused(instrument):
    with pytest.raises(TranslationError, match="panas_items.Happy.label"):
        save_translation(instrument, "es", {"panas_items.Happy.label": "Feliz"}, actor_label="t")


def test_missing_incomplete_current_and_stale(instrument):
    assert translation_status(instrument, "en", "en").state == "base"
    assert translation_status(instrument, "es", "en").state == "missing"
    partial = {"panas_items.Proud.label": "Orgulloso/a"}
    save_translation(instrument, "es", partial, actor_label="test")
    status = translation_status(instrument, "es", "en")
    assert status.state == "incomplete"
    assert len(status.missing) == len(text_paths(instrument)) - 1
    everything = {path: f"es: {text}" for path, text in text_paths(instrument).items()}
    save_translation(instrument, "es", everything, actor_label="test")
    assert translation_status(instrument, "es", "en").state == "current"
    # The base changes after the translation (possible while no study uses it): stale.
    instrument.definition = {**instrument.definition, "support_resources": "Call 112."}
    instrument.save()
    assert translation_status(instrument, "es", "en").state == "stale"
