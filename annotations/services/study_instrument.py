"""The parsed instrument of a study, cached per process.

Parsing validates the whole definition (every question, every coordinate), which is too slow
to repeat on every participant request. Caching by id is safe because an instrument that a
study uses can never change (``Instrument.save`` refuses; a change is a new version).
"""

from __future__ import annotations

import threading

from annotations.models import Instrument, Study
from attunebench.instrument import Instrument as InstrumentDefinition

_lock = threading.Lock()
_parsed: dict[int, InstrumentDefinition] = {}


def instrument_of(study: Study) -> InstrumentDefinition:
    found = _parsed.get(study.instrument_id)
    if found is not None:
        return found
    definition = Instrument.objects.only("definition").get(pk=study.instrument_id).parsed()
    with _lock:
        _parsed[study.instrument_id] = definition
    return definition
