"""The chat stream sends what the OpenAPI schema says it sends. Real streams (uvicorn, the local
OpenAI-compatible test server) are read byte for byte: every event's payload is validated
against the schema component the published document maps its name to (ChatStreamEvent, a
oneOf discriminated by the event name), with no key the schema does not state; the only
other thing on the wire is the keep-alive comment. The streams cover every kind of event:
a risky message (support), a silent model (keep-alive), a repeated submit (replay), an
upstream failure (error) and its retry."""

import json
import uuid
from typing import Any

import httpx
import pytest
import yaml
from jsonschema import Draft202012Validator

from annotations.participant_api.keepalive import KEEPALIVE_COMMENT
from tests.participant.test_safety_signals import RISKY

pytestmark = pytest.mark.django_db(transaction=True)


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable`` becomes a null alternative, and an
    object admits no property it does not list (the stream may add nothing undocumented)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if "properties" in converted:
        converted.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@pytest.fixture
def schema(client) -> dict[str, Any]:
    return yaml.safe_load(client.get("/api/schema/").content)


def validator(schema: dict[str, Any], component: str) -> Draft202012Validator:
    document = {"components": json_schema(schema["components"])}
    return Draft202012Validator({**document, "$ref": f"#/components/schemas/{component}"})


def raw_stream(http: httpx.Client, path: str, body: dict, headers: dict) -> list[tuple[str, str]]:
    """The stream's messages as sent: (event name, data line) or ("comment", the comment)."""
    with http.stream("POST", path, json=body, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    messages = []
    for block in text.split("\n\n")[:-1]:  # every message ends with a blank line
        lines = block.split("\n")
        if lines[0].startswith(":"):
            assert block + "\n\n" == KEEPALIVE_COMMENT.decode(), block
            messages.append(("comment", block))
            continue
        assert len(lines) == 2 and lines[0].startswith("event: ") and lines[1].startswith("data: ")
        messages.append((lines[0].removeprefix("event: "), lines[1].removeprefix("data: ")))
    assert text.endswith("\n\n")
    return messages


def test_every_event_of_real_streams_matches_its_schema_component(
    upstream_study, live_participant, openai_server, asgi_server, settings, schema
):
    upstream_study.improver_endpoint = None  # the next message needs no comparison first
    upstream_study.save()
    settings.ATTUNE_SSE_KEEPALIVE_S = 0.1
    client = live_participant(upstream_study)
    client.onboard()
    streams: list[list[tuple[str, str]]] = []
    with httpx.Client(base_url=asgi_server, timeout=20) as http:

        def send(text: str, key: str) -> list[tuple[str, str]]:
            body = {"text": text, "idempotency_key": key}
            streams.append(raw_stream(http, "/api/study/messages", body, client.headers))
            return streams[-1]

        key = uuid.uuid4().hex
        openai_server.behaviour.latency_s = 0.4  # silent before its first token
        send(RISKY, key)
        openai_server.behaviour.latency_s = 0
        send(RISKY, key)  # the same submit again: the stored turn is replayed
        assert client.annotate(1).status == 200
        openai_server.behaviour.server_error()
        send("And now?", uuid.uuid4().hex)
        streams.append(raw_stream(http, "/api/study/turns/2/retry", {}, client.headers))

    union = schema["components"]["schemas"]["ChatStreamEvent"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "event"
    assert {ref["$ref"] for ref in union["oneOf"]} == set(mapping.values())
    any_event = validator(schema, "ChatStreamEvent")
    seen: list[tuple[str, Any]] = []
    for stream in streams:
        for name, data in stream:
            if name == "comment":
                seen.append((name, None))
                continue
            event = {"event": name, "data": json.loads(data)}
            assert name in mapping, name
            component = mapping[name].rsplit("/", 1)[1]
            errors = [e.message for e in validator(schema, component).iter_errors(event)]
            assert not errors, (name, data, errors)
            assert any_event.is_valid(event)
            seen.append((name, event["data"]))

    names = [name for name, _ in seen]
    assert set(names) == {"turn", "delta", "done", "error", "comment"}  # every kind was checked
    assert set(mapping) == {"turn", "delta", "done", "error"}
    turns = [data for name, data in seen if name == "turn"]
    assert turns[0]["support"] is not None and turns[-1]["support"] is None
    assert [[n for n, _ in s if n not in ("delta", "comment")] for s in streams] == [
        ["turn", "done"], ["turn", "done"], ["turn", "error"], ["turn", "done"],
    ]  # fmt: skip
    assert streams[0].index(("comment", KEEPALIVE_COMMENT.decode().strip())) == 1


def test_an_event_the_schema_does_not_describe_fails_validation(schema):
    """The check above can fail: a payload with an undocumented key or a wrong type does."""
    any_event = validator(schema, "ChatStreamEvent")
    assert any_event.is_valid({"event": "delta", "data": {"text": "Hi"}})
    assert not any_event.is_valid({"event": "delta", "data": {"text": "Hi", "extra": 1}})
    assert not any_event.is_valid({"event": "delta", "data": {"text": 3}})
    assert not any_event.is_valid({"event": "finished", "data": {"text": "Hi"}})
    failed = {"turn": {"number": 1, "status": "failed"},
              "error": {"reason": "internal", "message": "m", "retryable": True}}  # fmt: skip
    assert any_event.is_valid({"event": "error", "data": failed})
    assert not any_event.is_valid({"event": "done", "data": failed})
