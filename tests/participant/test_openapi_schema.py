"""The OpenAPI schema (drf-spectacular) describes the whole participant API, including the
streaming endpoints and the participant token scheme."""

import pytest
import yaml

pytestmark = pytest.mark.django_db

PATHS = [
    "/api/study/{slug}/start",
    "/api/study/session",
    "/api/study/instrument",
    "/api/study/consent",
    "/api/study/profile",
    "/api/study/panas/{phase}",
    "/api/study/topic",
    "/api/study/messages",
    "/api/study/turns/{number}",
    "/api/study/turns/{number}/retry",
    "/api/study/turns/{number}/annotation",
    "/api/study/finish",
    "/api/study/post-survey",
    "/api/study/withdraw",
    "/api/study/drafts",
    "/api/study/drafts/{key}",
]


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


def test_the_schema_types_what_the_app_relies_on(client):
    """The app's types are generated from these (frontend/src/api/schema.d.ts): the step is an
    enum, the comparison's responses an object with A and B, nullable fields say so (OpenAPI
    3.1, the newest version code generators read: tests/participant/test_generated_client.py)."""
    from annotations.services.progress import Step

    document = yaml.safe_load(client.get("/api/schema/").content)
    assert document["openapi"] == "3.1.0"
    schemas = document["components"]["schemas"]
    assert schemas["StepEnum"]["enum"] == [step.value for step in Step]
    step = schemas["SessionOutput"]["properties"]["step"]
    assert step["allOf"] == [{"$ref": "#/components/schemas/StepEnum"}]
    responses = schemas["ComparisonOutput"]["properties"]["responses"]
    assert responses["oneOf"] == [
        {"$ref": "#/components/schemas/ComparisonResponsesOutput"},
        {"type": "null"},
    ]
    pair = schemas["ComparisonResponsesOutput"]
    assert set(pair["properties"]) == set(pair["required"]) == {"A", "B"}
    session = schemas["SessionOutput"]["properties"]
    for name in ("conversation", "chat", "support", "completion", "screenout"):
        assert _nullable(session[name]), name
    assert _nullable(schemas["TurnOutput"]["properties"]["error"])
    assert _nullable(schemas["ExitOutput"]["properties"]["redirect_url"])


def _nullable(prop: dict) -> bool:
    """Null allowed, as OpenAPI 3.1+ says it (JSON Schema: a null type, no ``nullable``)."""
    types = prop.get("type", [])
    return "null" in types or {"type": "null"} in prop.get("oneOf", [])
