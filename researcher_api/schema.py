"""The researcher API's own OpenAPI document, apart from the participant API's.

Both are generated from the one URLconf: the participant schema (``/api/schema/``,
``frontend/openapi.yaml``) leaves out every path under ``/api/v1/``; this one
(``/api/v1/schema/``, ``clients/python/openapi.yaml``) keeps only those, with its own title
and version. ``manage.py spectacular --custom-settings researcher_api.schema.SCHEMA_SETTINGS``
writes it.
"""

from __future__ import annotations

from typing import Any

PREFIX = "/api/v1/"


def without_researcher_api(
    endpoints: list[tuple[Any, ...]], **kwargs: Any
) -> list[tuple[Any, ...]]:
    return [endpoint for endpoint in endpoints if not endpoint[0].startswith(PREFIX)]


def only_researcher_api(endpoints: list[tuple[Any, ...]], **kwargs: Any) -> list[tuple[Any, ...]]:
    """The /api/v1/ paths but the schema's own (a document, not an operation to script)."""
    return [
        endpoint
        for endpoint in endpoints
        if endpoint[0].startswith(PREFIX) and endpoint[0] != f"{PREFIX}schema/"
    ]


SCHEMA_SETTINGS = {
    "TITLE": "Attune researcher API",
    "DESCRIPTION": "Scripted access to a lab's studies, QA, releases and evaluation runs, with "
    "personal, study-scoped tokens (docs/researcher-api.md).",
    "VERSION": "1.0.0",
    "PREPROCESSING_HOOKS": ["researcher_api.schema.only_researcher_api"],
    "SCHEMA_PATH_PREFIX": PREFIX,
}
