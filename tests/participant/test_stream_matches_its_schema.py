"""The chat stream sends what the OpenAPI schema says it sends. Real streams (uvicorn, the local
OpenAI-compatible test server) are read byte for byte: every event is validated against the
component the published document maps its name to (the stream's schema, which describes one
event before OpenAPI 3.2: ChatStreamEvent, a oneOf discriminated by the event name), and its data line, parsed, against that component's
contentSchema, with no key the schema does not state; the only other thing on the wire is the
keep-alive comment. The streams cover every kind of event: a risky message (support), a silent
model (keep-alive), a repeated submit (replay), an upstream failure (error) and its retry."""

import datetime
import json
import re
import uuid
from dataclasses import replace
from typing import Any

import httpx
import pytest
import schemathesis
import yaml
from jsonschema import Draft202012Validator

from annotations.participant_api.keepalive import KEEPALIVE_COMMENT
from tests.participant.test_safety_signals import RISKY

pytestmark = pytest.mark.django_db(transaction=True)
ANY_EVENT = "#/components/schemas/ChatStreamEvent"


def strict(node: Any) -> Any:
    """The schema with every object closed: the stream may add nothing undocumented."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    closed = {key: strict(value) for key, value in node.items()}
    if "properties" in closed:
        closed.setdefault("additionalProperties", False)
    return closed


@pytest.fixture
def schema(client) -> dict[str, Any]:
    return yaml.safe_load(client.get("/api/schema/").content)


def validator(schema: dict[str, Any], ref: str) -> Draft202012Validator:
    """A validator of the component ``ref`` ("#/components/schemas/...") of the document."""
    assert schema["openapi"].startswith("3.1")  # its schemas are JSON Schema 2020-12
    return Draft202012Validator({"components": strict(schema["components"]), "$ref": ref})


def validate(schema: dict[str, Any], ref: str, value: Any) -> list[str]:
    return [error.message for error in validator(schema, ref).iter_errors(value)]


def raw_stream(
    http: httpx.Client,
    path: str,
    body: dict | None,
    headers: dict,
    kept: list[httpx.Response],
) -> list[tuple[str, str]]:
    """The stream's messages as sent: (event name, data line) or ("comment", the comment).
    The response itself goes to ``kept`` (read whole: Schemathesis validates it again).
    Without a body, a GET (re-attaching to a turn)."""
    method = "GET" if body is None else "POST"
    with http.stream(method, path, json=body, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    kept.append(response)
    messages = []
    for block in text.split("\n\n")[:-1]:  # every message ends with a blank line
        lines = block.split("\n")
        if lines[0].startswith(":"):
            assert block + "\n\n" == KEEPALIVE_COMMENT.decode(), block
            messages.append(("comment", block))
            continue
        if lines[0].startswith("id: "):  # every event but queued: where to resume after it
            assert re.fullmatch(r"id: \d+:(\d+|end)", lines.pop(0)), block
        assert len(lines) == 2 and lines[0].startswith("event: ") and lines[1].startswith("data: ")
        messages.append((lines[0].removeprefix("event: "), lines[1].removeprefix("data: ")))
    assert text.endswith("\n\n")
    return messages


def test_every_event_of_real_streams_matches_its_schema_component(
    upstream_study, live_participant, openai_server, asgi_server, settings, schema
):
    upstream_study.improver_endpoint = None  # the next message needs no comparison first
    upstream_study.save()
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.1)
    client = live_participant(upstream_study)
    client.onboard()
    streams: list[list[tuple[str, str]]] = []
    responses: list[httpx.Response] = []
    with httpx.Client(base_url=asgi_server, timeout=20) as http:

        def send(text: str, key: str) -> list[tuple[str, str]]:
            body = {"text": text, "idempotency_key": key}
            streams.append(raw_stream(http, "/api/study/messages", body, client.headers, responses))
            return streams[-1]

        key = uuid.uuid4().hex
        openai_server.behaviour.latency_s = 0.4  # silent before its first token
        send(RISKY, key)
        openai_server.behaviour.latency_s = 0
        send(RISKY, key)  # the same submit again: the stored turn is replayed
        assert client.annotate(1).status == 200
        openai_server.behaviour.server_error()
        send("And now?", uuid.uuid4().hex)
        retry = raw_stream(http, "/api/study/turns/2/retry", {}, client.headers, responses)
        streams.append(retry)
        streams.append(
            raw_stream(http, "/api/study/turns/2/stream", None, client.headers, responses)
        )

    for operation, method in (
        ("/api/study/messages", "post"),
        ("/api/study/turns/{number}/retry", "post"),
        ("/api/study/turns/{number}/stream", "get"),
    ):
        content = schema["paths"][operation][method]["responses"]["200"]["content"]
        assert content["text/event-stream"] == {"schema": {"$ref": ANY_EVENT}}  # one event
    union = schema["components"]["schemas"]["ChatStreamEvent"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "event"
    assert {ref["$ref"] for ref in union["oneOf"]} == set(mapping.values())
    seen: list[tuple[str, Any]] = []
    for stream in streams:
        for name, data in stream:
            if name == "comment":
                seen.append((name, None))
                continue
            event = {"event": name, "data": data}  # as the schema reads an event: two lines
            assert name in mapping, name
            assert not validate(schema, mapping[name], event), (name, data)
            assert not validate(schema, ANY_EVENT, event), (name, data)
            component = schema["components"]["schemas"][mapping[name].rsplit("/", 1)[1]]
            content = component["properties"]["data"]
            assert content["contentMediaType"] == "application/json"
            payload = json.loads(data)
            errors = validate(schema, content["contentSchema"]["$ref"], payload)
            assert not errors, (name, data, errors)
            seen.append((name, payload))

    names = [name for name, _ in seen]
    assert set(names) == {"turn", "delta", "done", "error", "comment"}  # every kind was checked
    assert set(mapping) == {"turn", "queued", "delta", "done", "error"}
    turns = [data for name, data in seen if name == "turn"]
    assert turns[0]["support"] is not None and turns[3]["support"] is None  # the retry
    assert [[n for n, _ in s if n not in ("delta", "comment")] for s in streams] == [
        ["turn", "done"],
        ["turn", "done"],
        ["turn", "error"],
        ["turn", "done"],
        ["turn", "done"],  # the same turn again, re-attached
    ]
    assert streams[0].index(("comment", KEEPALIVE_COMMENT.decode().strip())) == 1

    # Schemathesis reads the document the same way (before 3.2 a stream's schema is one event):
    # every stream, as sent, passes its response validation, data lines included.
    operations = schemathesis.openapi.from_dict(schema)
    for response in responses:
        path = response.request.url.path.replace("/turns/2/", "/turns/{number}/")
        method = response.request.method
        assert operations[path][method].validate_response(response) is None


def test_an_event_the_schema_does_not_describe_fails_validation(schema):
    """The checks above can fail: an unknown name, a key or type the schema does not state;
    Schemathesis's own reading of the stream too."""
    assert not validate(schema, ANY_EVENT, {"event": "delta", "data": '{"text":"Hi"}'})
    assert validate(schema, ANY_EVENT, {"event": "finished", "data": '{"text":"Hi"}'})
    assert validate(schema, ANY_EVENT, {"event": "delta", "data": {"text": "Hi"}})  # a line
    delta = "#/components/schemas/StreamDeltaData"
    assert not validate(schema, delta, {"text": "Hi"})
    assert validate(schema, delta, {"text": "Hi", "extra": 1})
    assert validate(schema, delta, {"text": 3})
    failed = {
        "turn": {"number": 1, "status": "failed"},
        "error": {"reason": "internal", "message": "m", "retryable": True},
    }
    assert not validate(schema, "#/components/schemas/StreamErrorData", failed)
    assert validate(schema, "#/components/schemas/StreamDoneData", failed)

    send = schemathesis.openapi.from_dict(schema)["/api/study/messages"]["POST"]
    assert send.validate_response(_sse(b'event: delta\ndata: {"text":"Hi"}\n\n')) is None
    for wrong in (
        b'event: finished\ndata: {"text":"Hi"}\n\n',
        b'event: delta\ndata: {"text":3}\n\n',
    ):
        with pytest.raises(AssertionError, match="violates"):
            send.validate_response(_sse(wrong))


def _sse(content: bytes) -> httpx.Response:
    """A stream as received (Schemathesis reads how long it took, as of a response read)."""
    request = httpx.Request("POST", "http://testserver/api/study/messages")
    headers = {"content-type": "text/event-stream"}
    response = httpx.Response(200, headers=headers, content=content, request=request)
    response.elapsed = datetime.timedelta(0)
    return response
