"""Limits every participant request body meets before any serializer or service sees it.

PostgreSQL stores no NUL character (``\\x00``) in text or JSONB, and SQLite does: a NUL in a
free JSON field (draft data and keys, profile responses, annotation timings) used to be a 500
on one database and stored on the other. It is refused on both, with a 400 naming the field
(the same dotted path as the serializers' errors), and so is a body nested deeper than any
screen of the app sends. Each free JSON field also has a size limit (``json_size_at_most``).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from annotations.services.errors import invalid
from attunebench.json_tree import dotted_path, json_tree_problem

MAX_DEPTH = 20


def check_body(data: Any) -> None:
    """Raise ``invalid`` naming the first field holding a NUL, or nested too deeply."""
    problem = json_tree_problem(data, MAX_DEPTH)
    if problem is not None:
        field, message = problem
        raise invalid(field or "body", message)


def known_fields(serializer: serializers.Field, data: Any) -> Any:
    """The body without the keys the serializers ignore anyway (the schema allows them), at
    every depth: they are never stored, so nothing in them is checked."""
    if isinstance(serializer, serializers.Serializer) and isinstance(data, dict):
        fields = serializer.fields
        return {
            key: known_fields(fields[key], value) for key, value in data.items() if key in fields
        }
    if isinstance(serializer, serializers.ListField) and isinstance(data, list):
        return [known_fields(serializer.child, item) for item in data]
    if isinstance(serializer, serializers.DictField) and isinstance(data, dict):
        return {key: known_fields(serializer.child, value) for key, value in data.items()}
    return data


def parse_body(serializer_class: type[serializers.Serializer], body: Any) -> dict[str, Any]:
    """A request body as the services take it, or ``serializers.ValidationError`` (a 400 naming
    the field): what the schema states, checked (tests/participant/test_schema_and_checks_agree.py
    holds the two together)."""
    # What is_valid() runs, on the shared instance: validation keeps nothing on the serializer
    # or its fields (none of these has a validator needing an instance or a context), and a
    # new instance per body deep-copied every field again (``benchmarks/request_steps.py``; docs/benchmarks.md, "Request steps").
    return dict(
        shared_instance(serializer_class).run_validation(checked_body(serializer_class, body))
    )


def checked_body(serializer_class: type[serializers.Serializer], body: Any) -> Any:
    """The body's known fields, once no NUL, excess nesting or non-string for a string field
    is found in them (``invalid`` naming the field); what the serializer then validates."""
    shape = shared_instance(serializer_class)
    data = known_fields(shape, body)
    check_body(data)
    check_types(shape, data)
    return data


def represent(serializer_class: type[serializers.Serializer], instance: Any) -> Any:
    """``serializer_class(instance).data``, from the class's shared instance."""
    return shared_instance(serializer_class).to_representation(instance)


@functools.cache
def shared_instance[S: serializers.Serializer](serializer_class: type[S]) -> S:
    """One unbound instance per serializer class, its fields built at every depth, for what
    only reads them: the shape of a body (``known_fields``, ``check_types``), its validation
    (``parse_body``) and an answer's representation. DRF deep-copies every declared field, a
    nested serializer's too, for each new instance: once per request body and per answer, that
    was a measurable part of a chat message's CPU (``benchmarks/request_steps.py``; docs/benchmarks.md, "Request steps"). Safe to
    share between threads: nothing here binds data, validation keeps no state on a serializer or
    field, and the participant API's serializers read no context."""
    shared = serializer_class()
    _build_fields(shared)
    return shared


def _build_fields(field: serializers.Field | None) -> None:
    """Build the (lazily made) fields at every depth now, once, not on first use by a request."""
    if isinstance(field, serializers.Serializer):
        for child in field.fields.values():
            _build_fields(child)
    elif isinstance(
        field, serializers.ListField | serializers.DictField | serializers.ListSerializer
    ):
        _build_fields(field.child)


NO_NUL_PATTERN = "^[^\\u0000]*$"
# What str.strip() removes (DRF trims with it), spelled out: ECMA-262's ``\\s``, which JSON Schema
# validators and code generators read (Schemathesis validates with jsonschema-rs), leaves out
# U+001C to U+001F and U+0085, so a goal of one U+001C was schema-valid and refused as blank.
PYTHON_WHITESPACE = (
    "\\t-\\r\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
)
# A string DRF trims (``trim_whitespace``) and then needs non-empty holds a character that is
# neither whitespace nor NUL.
NOT_BLANK_PATTERN = f"^[^\\u0000]*[^{PYTHON_WHITESPACE}\\u0000][^\\u0000]*$"
_SCHEMA_KEYWORDS = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const", "not"}


def no_nul_in_request_strings(result: dict, generator, request, public) -> dict:
    """drf-spectacular hook: the schema states what ``check_body`` and DRF's trimming refuse.
    Every string of a request body takes no NUL (``pattern``, unless it has a pattern of its
    own), and one DRF trims and needs non-empty has a character other than whitespace; every
    key of a free-keyed object takes no NUL (``propertyNames``); a JSONField takes no null.

    Not stated: no NUL inside a free JSON value (profile answers and responses, draft data).
    That takes a recursive schema, and code generators refuse one (openapi-python-client:
    tests/participant/test_generated_client.py); the field's description says it."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith(("Input", "Request")):
            for prop in component.get("properties", {}).values():
                if not _SCHEMA_KEYWORDS & prop.keys():  # a JSONField: any value but null
                    prop["not"] = {"type": "null"}
            _patterned(component)
    return result


def _patterned(node: Any) -> None:
    if isinstance(node, dict):
        types = node.get("type")
        is_string = types == "string" or (isinstance(types, list) and "string" in types)
        if is_string and not {"pattern", "enum", "const", "format"} & node.keys():
            blank_refused = node.get("minLength", 0) >= 1
            node["pattern"] = NOT_BLANK_PATTERN if blank_refused else NO_NUL_PATTERN
        if isinstance(node.get("additionalProperties"), dict) and "propertyNames" not in node:
            node["propertyNames"] = {"pattern": NO_NUL_PATTERN}
        for value in node.values():
            _patterned(value)
    elif isinstance(node, list):
        for value in node:
            _patterned(value)


def check_types(serializer: serializers.Serializer, data: Any) -> None:
    """Refuse a number (or any non-string) where the serializer takes a string: DRF's CharField
    would turn ``123`` into ``"123"`` silently. Raises ``invalid`` naming the field."""
    found = _non_string(serializer, data)
    if found is not None:
        raise invalid(dotted_path(reversed(found)), "must be a string")


_STRING_FIELDS = (serializers.CharField, serializers.ChoiceField)


def _non_string(field: serializers.Field, value: Any) -> list[str | int] | None:
    """Where a non-string stands for a string field: its path, innermost step first (a name,
    or a list index), or None. The path is built only for a value refused: a body that passes,
    as nearly all do, formats none (an annotation's 36 answers are some 110 values)."""
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, dict):
            return None  # the serializer itself says what is wrong
        for name, child in field.fields.items():
            if name in value and (found := _non_string(child, value[name])) is not None:
                found.append(name)
                return found
    elif isinstance(field, serializers.ListField) and isinstance(value, list):
        for i, item in enumerate(value):
            if (found := _non_string(field.child, item)) is not None:
                found.append(i)
                return found
    elif isinstance(field, serializers.DictField) and isinstance(value, dict):
        for key, item in value.items():
            if (found := _non_string(field.child, item)) is not None:
                found.append(str(key))
                return found
    elif isinstance(field, _STRING_FIELDS) and not (value is None or isinstance(value, str)):
        return []
    return None


def json_size_at_most(max_bytes: int):
    """A serializer-field validator: the value, as compact UTF-8 JSON, fits in ``max_bytes``."""

    def validate(value: Any) -> None:
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > max_bytes:
            raise serializers.ValidationError(
                f"is {size} bytes of JSON; at most {max_bytes} are accepted"
            )

    return validate


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, with a body nested past the interpreter's limit (json raises
    RecursionError, which DRF lets through as a 500) refused as malformed like any other."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply") from None
