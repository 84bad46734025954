"""An instrument may only ask for what the database and the importer can hold: its intensity
scale lies within 1..7 (the mood-tag and branch CHECK constraints), and its PANAS items are the
fixed PANAS list the AttuneBench reader accepts, so a definition outside either is refused."""

import pytest

from attunebench.instrument import (
    InstrumentError,
    default_instrument_data,
    load_instrument,
)
from attunebench.vocabulary import PANAS_ITEMS


def _error_for(data: dict) -> InstrumentError:
    with pytest.raises(InstrumentError) as raised:
        load_instrument(data)
    return raised.value


@pytest.mark.parametrize(("low", "high", "bad"), [(1, 10, "max"), (0, 7, "min"), (-3, 5, "min")])
def test_an_intensity_scale_beyond_1_to_7_is_refused(low, high, bad):
    data = default_instrument_data()
    data["intensity_scale"] = {"min": low, "max": high, "labels": {}}
    error = _error_for(data)
    assert error.field == f"intensity_scale.{bad}"
    assert "1..7" in str(error)


def test_a_narrower_scale_inside_1_to_7_is_accepted():
    data = default_instrument_data()
    data["intensity_scale"] = {"min": 1, "max": 5, "labels": {"1": "a little", "5": "very"}}
    assert load_instrument(data).intensity_scale.max == 5


def test_a_renamed_panas_item_is_refused():
    data = default_instrument_data()
    index = next(i for i, item in enumerate(data["panas_items"]) if item["id"] == "Nervous")
    data["panas_items"][index]["id"] = "Anxious"
    error = _error_for(data)
    assert error.field == f"panas_items[{index}].id"
    assert "'Anxious'" in str(error) and "PANAS" in str(error)


def test_a_panas_item_with_the_wrong_polarity_is_refused():
    data = default_instrument_data()
    proud = next(i for i, item in enumerate(data["panas_items"]) if item["id"] == "Proud")
    nervous = next(i for i, item in enumerate(data["panas_items"]) if item["id"] == "Nervous")
    data["panas_items"][proud]["polarity"] = "negative"
    data["panas_items"][nervous]["polarity"] = "positive"  # counts stay balanced
    error = _error_for(data)
    assert error.field == f"panas_items[{min(proud, nervous)}].polarity"


def test_the_default_uses_exactly_the_fixed_panas_list():
    ids = load_instrument(default_instrument_data()).panas_ids
    assert sorted(ids) == sorted(PANAS_ITEMS)
