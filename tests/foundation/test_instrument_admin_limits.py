"""The instrument admin refuses a definition whose data could not be stored or imported: an
intensity scale of 1..10 (the database holds 1..7) and a renamed PANAS item."""

import json

import pytest
from django.urls import reverse

from annotations.models import Instrument
from attunebench.instrument import default_instrument_data

pytestmark = pytest.mark.django_db


def _post(researcher_client, definition: dict):
    url = reverse("admin:annotations_instrument_add")
    data = {"name": definition["name"], "version": "1", "description": "", "definition": ""}
    data["definition"] = json.dumps(definition)
    return researcher_client.post(url, data)


def test_the_admin_refuses_an_intensity_scale_of_1_to_10(researcher_client):
    definition = {**default_instrument_data(), "name": "wide-scale", "version": 1}
    definition["intensity_scale"] = {"min": 1, "max": 10, "labels": {"1": "a", "10": "b"}}
    response = _post(researcher_client, definition)
    assert response.status_code == 200
    assert "intensity_scale.max" in response.text and "1..7" in response.text
    assert not Instrument.objects.filter(name="wide-scale").exists()


def test_the_admin_refuses_a_renamed_panas_item(researcher_client):
    definition = {**default_instrument_data(), "name": "renamed-panas", "version": 1}
    for item in definition["panas_items"]:
        if item["id"] == "Nervous":
            item["id"] = "Anxious"
    response = _post(researcher_client, definition)
    assert response.status_code == 200
    assert "Anxious" in response.text and "PANAS" in response.text
    assert not Instrument.objects.filter(name="renamed-panas").exists()
