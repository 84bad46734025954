"""Instruments are immutable once a study uses them: a change makes a new version."""

import copy

import pytest

from annotations.models import Instrument, InstrumentInUseError
from annotations.services.instruments import create_instrument_version, ensure_default_instrument
from attunebench.instrument import InstrumentError, default_instrument_data
from tests.factories import make_study

pytestmark = pytest.mark.django_db


def test_default_instrument_is_created_once():
    assert ensure_default_instrument().pk == ensure_default_instrument().pk
    assert Instrument.objects.count() == 1


def test_an_unused_instrument_may_still_be_edited():
    instrument = ensure_default_instrument()
    instrument.definition["description"] = "typo fixed"
    instrument.save()
    assert Instrument.objects.get(pk=instrument.pk).definition["description"] == "typo fixed"


def test_an_instrument_in_use_refuses_changes():
    study = make_study()
    instrument = study.instrument
    instrument.definition["behaviour_questions"][0]["participant_wording"] = "Changed?"
    with pytest.raises(InstrumentInUseError, match="create version 2 instead"):
        instrument.save()
    instrument.refresh_from_db()
    assert instrument.definition["behaviour_questions"][0]["participant_wording"] != "Changed?"


def test_a_change_becomes_a_new_version():
    make_study()
    definition = copy.deepcopy(default_instrument_data())
    definition["version"] = 2
    definition["behaviour_questions"][0]["participant_wording"] = (
        "Did the reply notice your feelings?"
    )
    new = create_instrument_version(definition, actor_label="user:researcher")
    assert (new.version, Instrument.objects.count()) == (2, 2)
    stored = Instrument.objects.get(pk=new.pk)
    assert stored.definition["behaviour_questions"][0]["participant_wording"] == (
        "Did the reply notice your feelings?"
    )
    assert stored.content_hash == new.content_hash != ensure_default_instrument().content_hash
    # The version the study uses is untouched.
    first = Instrument.objects.get(version=1)
    assert first.definition["behaviour_questions"][0]["participant_wording"] != (
        "Did the reply notice your feelings?"
    )


def test_an_invalid_definition_is_refused_and_changes_nothing():
    definition = copy.deepcopy(default_instrument_data())
    definition["version"] = 3
    definition["panas_items"] = definition["panas_items"][:19]
    with pytest.raises(InstrumentError):
        create_instrument_version(definition, actor_label="user:researcher")
    assert not Instrument.objects.filter(version=3).exists()
