"""The OpenAPI schema (drf-spectacular) describes the whole participant API, including the
streaming endpoints and the participant token scheme."""

import pytest
import yaml

pytestmark = pytest.mark.django_db

PATHS = [
    "/api/study/{slug}/start", "/api/study/session", "/api/study/instrument",
    "/api/study/consent", "/api/study/profile", "/api/study/panas/{phase}", "/api/study/topic",
    "/api/study/messages", "/api/study/turns/{number}", "/api/study/turns/{number}/retry",
    "/api/study/turns/{number}/annotation", "/api/study/finish", "/api/study/post-survey",
    "/api/study/withdraw", "/api/study/drafts", "/api/study/drafts/{key}",
]  # fmt: skip


def test_the_schema_lists_every_participant_endpoint(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    for path in PATHS:
        assert path in schema["paths"], path
    assert schema["components"]["securitySchemes"]["participantToken"]["name"] == "Authorization"
    stream = schema["paths"]["/api/study/messages"]["post"]["responses"]["200"]["content"]
    assert "text/event-stream" in stream
    start = schema["paths"]["/api/study/{slug}/start"]["post"]
    assert start.get("security", []) in ([], [{}])  # no token needed to start
