"""Instrument versions: the shipped default, and new versions instead of edits."""

from __future__ import annotations

from django.db import transaction

from annotations.models import Instrument
from annotations.services.setup import save_setup
from attunebench.instrument import default_instrument_data, load_instrument


def ensure_default_instrument() -> Instrument:
    """The shipped default instrument, created on first use (idempotent)."""
    data = default_instrument_data()
    parsed = load_instrument(data)
    existing = Instrument.objects.filter(name=parsed.name, version=parsed.version).first()
    if existing is not None:
        return existing
    return create_instrument_version(data, actor_label="system")


@transaction.atomic
def create_instrument_version(definition: dict, *, actor_label: str) -> Instrument:
    """Validate and store a definition as a new, immutable version."""
    parsed = load_instrument(definition)  # raises InstrumentError naming the field
    instrument = Instrument(
        name=parsed.name,
        version=parsed.version,
        description=definition.get("description", ""),
        definition=definition,
    )
    return save_setup(instrument, actor_label=actor_label)
