"""The researcher API has its own OpenAPI document; the participant API's stays as it was."""

from __future__ import annotations

import pytest
import yaml

pytestmark = pytest.mark.django_db


def test_the_participant_schema_has_no_researcher_path(client):
    paths = yaml.safe_load(client.get("/api/schema/").content)["paths"]
    assert paths and not [p for p in paths if p.startswith("/api/v1/")]


def test_the_researcher_schema_has_only_its_paths_and_a_bearer_token(client):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    assert schema["info"]["title"] == "Attune researcher API"
    assert all(p.startswith("/api/v1/") for p in schema["paths"])
    assert "/api/v1/schema/" not in schema["paths"]
    scheme = schema["components"]["securitySchemes"]["researcherToken"]
    assert scheme == {"type": "http", "scheme": "bearer", "description": "A researcher API token."}
