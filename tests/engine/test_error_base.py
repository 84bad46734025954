"""The engine's errors for bad input share one base, ``AttuneBenchError`` (a ValueError, so the
callers' ``except ValueError`` still catches them): every ValueError subclass defined in the
attunebench package is one, and this test names them, so a new one is seen here."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import attunebench
from attunebench import api
from attunebench.errors import AttuneBenchError
from attunebench.instrument import InstrumentError, load_instrument
from attunebench.reader import FormatError

EXPECTED = {
    "attunebench.instrument.InstrumentError",
    "attunebench.leaderboard.LeaderboardError",
    "attunebench.other_text.OtherTextError",
    "attunebench.profile.ProfileError",
    "attunebench.reader.FormatError",
    "attunebench.release.DataFolderError",
    "attunebench.schemas.SchemaError",
}


def _value_errors_defined_in_the_engine() -> dict[str, type[ValueError]]:
    found: dict[str, type[ValueError]] = {}
    for module_info in pkgutil.walk_packages(attunebench.__path__, "attunebench."):
        if module_info.name.endswith("__main__"):
            continue  # runs the command line when imported
        if module_info.name == "attunebench.inspect_task":
            continue  # the optional Inspect extra: inspect_ai is not installed here (its own test)
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, ValueError):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def test_every_value_error_of_the_engine_has_the_one_base():
    found = _value_errors_defined_in_the_engine()
    found.pop("attunebench.errors.AttuneBenchError")
    assert set(found) == EXPECTED
    assert [name for name, cls in found.items() if not issubclass(cls, AttuneBenchError)] == []


def test_the_base_is_a_value_error_and_exported_by_the_api():
    assert issubclass(AttuneBenchError, ValueError)
    assert api.AttuneBenchError is AttuneBenchError and "AttuneBenchError" in api.__all__


def test_a_refused_instrument_is_caught_by_the_base_with_its_field():
    with pytest.raises(AttuneBenchError) as caught:
        load_instrument({"name": "broken"})
    assert isinstance(caught.value, InstrumentError) and str(caught.value)
    assert issubclass(FormatError, AttuneBenchError)
