"""Limits every participant request body meets before any serializer or service sees it.

PostgreSQL stores no NUL character (``\\x00``) in text or JSONB, and SQLite does: a NUL in a
free JSON field (draft data and keys, profile responses, annotation timings) used to be a 500
on one database and stored on the other. It is refused on both, with a 400 naming the field
(the same dotted path as the serializers' errors), and so is a body nested deeper than any
screen of the app sends. Each free JSON field also has a size limit (``json_size_at_most``).
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from annotations.services.errors import FlowError, invalid

MAX_DEPTH = 20
NUL = "\x00"


def check_body(data: Any) -> None:
    """Raise ``invalid`` naming the first field holding a NUL, or nested too deeply."""
    # An explicit stack, not recursion: a hostile body must not exhaust the interpreter's.
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise invalid(path or "body", f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            if NUL in value:
                raise _nul(path)
        elif isinstance(value, dict):
            for key, item in value.items():
                if NUL in str(key):
                    raise _nul(path or "body", "a key")
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))


def _nul(field: str, what: str = "it") -> FlowError:
    return invalid(field, f"{what} contains the NUL character (\\u0000), which is not allowed")


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
