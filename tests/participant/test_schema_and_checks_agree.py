"""The schema's constraints and the API's checks of a request body agree, both ways.

Every body the schema calls valid passes the API's parsing (``json_limits.parse_body``: NUL and
depth, strings that must be strings, the serializers), for bodies Schemathesis generates from
the served schema; and every constraint the schema states on a body's field (lengths, patterns,
bounds, item counts, enums, keys) is enforced: a value just past it is refused with a 400
naming that field. What only the study's configuration decides (its topics, items, question
ids) is the services' business and tests/contract/test_schemathesis.py's.

One rule the schema does not state: no NUL inside a free JSON value (profile answers and
responses, draft data) at any depth, which takes a recursive schema that code generators
refuse; the fields' descriptions say it, and generated bodies lose their NULs (``without_nul``)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from rest_framework.exceptions import ValidationError

from annotations.participant_api import serializers as io
from annotations.participant_api.json_limits import NO_NUL_PATTERN, NOT_BLANK_PATTERN, parse_body
from annotations.services.errors import FlowError

# A small valid body of each request component: the base each probe changes one field of.
VALID = {
    "StartInput": {"prolific_pid": "p1"},
    "ConsentInput": {"consent_version": "1", "agree": True},
    "ComprehensionInput": {"answers": {"task": "chat"}},
    "ProfileInput": {"age": 30},
    "PanasInput": {"items": {}},
    "TopicInput": {"category": "work"},
    "MessageInput": {"text": "Hello", "idempotency_key": "key-12345"},
    "AnnotationInput": {"mood_tags": [], "behaviour": {}},
    "PostSurveyInput": {
        "looking_for": ["a"],
        "emotion_clarity": "b",
        "model_fit": "c",
        "four_branch": {},
    },
    "DraftInput": {"data": {"text": "draft"}},
    "WithdrawInput": {"confirm": True},
    "ClientErrorInput": {"message": "TypeError: x is undefined"},
}
# A valid value of the component an array or object of them holds (for item and key probes).
VALID_ITEM = {
    "MoodTagInput": {"emotion": "Nervous", "intensity": 3},
    "BehaviourAnswerInput": {"observed": "yes", "preferred": "no"},
}


@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict[str, Any]:
    from django.test import Client

    with django_db_blocker.unblock():
        return yaml.safe_load(Client().get("/api/schema/").content)


def without_nul(value: Any) -> Any:
    """``value`` with the NUL character taken out of every string and key, at every depth."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [without_nul(item) for item in value]
    if isinstance(value, dict):
        return {without_nul(key): without_nul(item) for key, item in value.items()}
    return value


def _request_components(document: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(path, method, component name) of every operation with a JSON body."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                ref = content["application/json"]["schema"]["$ref"]
                yield path, method.upper(), ref.rsplit("/", 1)[1]


def _refused(component: str, body: Any) -> str | None:
    """The field a 400 names, or None when the body passes."""
    try:
        parse_body(getattr(io, component), body)
    except FlowError as error:
        assert error.code == "invalid", error
        return error.field or ""
    except ValidationError as error:
        detail = error.detail
        assert isinstance(detail, dict), detail
        return next(iter(detail))
    return None


def test_every_request_component_is_covered(document):
    names = {name for _, _, name in _request_components(document)}
    assert names == set(VALID)
    for name, body in VALID.items():
        assert _refused(name, body) is None, name


@pytest.mark.slow  # about 250 generated bodies: 10 to 20 s on a busy machine
def test_what_the_schema_calls_valid_passes_the_api_checks(document):
    operations = schemathesis.openapi.from_dict(document)
    for path, method, component in _request_components(document):
        _generated_bodies_pass(operations[path][method], component)


def _generated_bodies_pass(operation: Any, component: str) -> None:
    @hypothesis_settings(
        max_examples=25,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def passes(case) -> None:
        body = without_nul(case.body)
        assert _refused(component, body) is None, (component, body)

    passes()


def _violations(prop: dict[str, Any], schemas: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(what, value) pairs just past each constraint ``prop`` states; nested in one level."""
    ref = (prop.get("allOf") or [prop])[0].get("$ref")
    if ref is not None and "type" not in prop:  # a component: an enum, or probed on its own
        enum = schemas[ref.rsplit("/", 1)[1]].get("enum")
        if enum is not None:
            yield "enum", _not_in(enum)
        return
    if "oneOf" in prop:  # a string or blank: past the longest branch
        yield "maxLength", "x" * (max(b.get("maxLength", 0) for b in prop["oneOf"]) + 1)
    types = prop.get("type", [])
    types = [types] if isinstance(types, str) else types
    if "string" in types:
        if "maxLength" in prop:
            yield "maxLength", "x" * (prop["maxLength"] + 1)
        if prop.get("minLength", 0) >= 1:
            yield "minLength", ""
        if prop.get("pattern") == NOT_BLANK_PATTERN:
            yield "not blank", " \t "
        if prop.get("pattern") in (NO_NUL_PATTERN, NOT_BLANK_PATTERN):
            yield "no NUL", "a\x00b"
        elif "pattern" in prop:
            yield "pattern", "!" * (prop.get("maxLength", 10) or 1)
        if "enum" in prop:
            yield "enum", _not_in(prop["enum"])
    if "integer" in types or "number" in types:
        if "maximum" in prop:
            yield "maximum", prop["maximum"] + 1
        if "minimum" in prop:
            yield "minimum", prop["minimum"] - 1
    if "array" in types:
        item = _item(prop["items"])
        if "maxItems" in prop:
            yield "maxItems", [item] * (prop["maxItems"] + 1)
        for what, value in _violations(prop["items"], schemas):
            yield f"items: {what}", [value]
    if "object" in types and "additionalProperties" in prop:
        value = _item(prop["additionalProperties"])
        if "pattern" in prop.get("propertyNames", {}):
            yield "key without NUL", {"a\x00b": value}
        if isinstance(prop["additionalProperties"], dict):
            for what, bad in _violations(prop["additionalProperties"], schemas):
                yield f"values: {what}", {"k": bad}


def _not_in(enum: list[Any]) -> Any:
    if all(isinstance(value, bool) for value in enum):
        return next(value for value in (False, True) if value not in enum)
    return "none-of-these"


def _item(schema: dict[str, Any]) -> Any:
    ref = schema.get("$ref", "").rsplit("/", 1)[-1]
    if ref in VALID_ITEM:
        return VALID_ITEM[ref]
    types = schema.get("type", "string")
    return {"integer": 3, "number": 1.5}.get(types if isinstance(types, str) else "", "x")


def test_every_constraint_the_schema_states_is_enforced(document):
    schemas = document["components"]["schemas"]
    probed: list[str] = []
    for name, valid in VALID.items():
        for field, prop in schemas[name]["properties"].items():
            for what, value in _violations(prop, schemas):
                body = {**valid, field: value}
                refused = _refused(name, body)
                assert refused is not None, (name, field, what, value)
                assert refused.split(".")[0].split("[")[0] == field, (name, field, what, refused)
                probed.append(f"{name}.{field}: {what}")
    # Nested components (an array's items, a dict's values) are probed through their holder.
    for name in ("MoodTagInput", "BehaviourAnswerInput"):
        holder, field = {"MoodTagInput": ("AnnotationInput", "mood_tags")}.get(
            name, ("AnnotationInput", "behaviour")
        )
        for sub, prop in schemas[name]["properties"].items():
            for what, value in _violations(prop, schemas):
                item = {**VALID_ITEM[name], sub: value}
                wrapped = [item] if field == "mood_tags" else {"B1": item}
                assert _refused(holder, {**VALID[holder], field: wrapped}) is not None, (
                    name,
                    sub,
                    what,
                )
                probed.append(f"{name}.{sub}: {what}")
    # The constraints the issue names are among them: non-empty ids and answers, no NUL.
    for expected in (
        "ConsentInput.consent_version: minLength",
        "TopicInput.category: not blank",
        "MessageInput.text: not blank",
        "MessageInput.text: maxLength",
        "MessageInput.idempotency_key: pattern",
        "PostSurveyInput.looking_for: items: minLength",
        "MoodTagInput.emotion: minLength",
        "ProfileInput.age: maximum",
        "ProfileInput.responses: key without NUL",
        "WithdrawInput.confirm: enum",
        "BehaviourAnswerInput.observed: enum",
    ):
        assert expected in probed, (expected, probed)


def test_the_not_blank_pattern_means_what_drf_trims_in_every_regex_engine():
    """DRF trims with str.strip(); the schema's pattern must refuse exactly those characters
    alone, read as Python reads it and as ECMA-262 does (jsonschema-rs, which Schemathesis
    validates with, and every generated client): ECMA's ``\\s`` lacks U+001C-U+001F and U+0085."""
    python = re.compile(NOT_BLANK_PATTERN)
    ecma = jsonschema_rs.validator_for({"type": "string", "pattern": NOT_BLANK_PATTERN})
    whitespace = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert len(whitespace) == 29
    for blank in whitespace:
        assert python.match(blank) is None, hex(ord(blank))
        assert not ecma.is_valid(blank), hex(ord(blank))
        assert not ecma.is_valid(blank * 3)
    for text in ("a", " a ", "\x1ca\x85", "é", "\u200b"):  # U+200B is no whitespace to str.strip
        assert python.match(text) and ecma.is_valid(text), repr(text)
