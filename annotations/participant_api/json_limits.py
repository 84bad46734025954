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

from annotations.services.errors import invalid
from evaluation.benchmark.json_tree import json_tree_problem

MAX_DEPTH = 20


def check_body(data: Any) -> None:
    """Raise ``invalid`` naming the first field holding a NUL, or nested too deeply."""
    problem = json_tree_problem(data, MAX_DEPTH)
    if problem is not None:
        field, message = problem
        raise invalid(field or "body", message)


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
