"""Schemathesis against the researcher API's own schema (/api/v1/schema/), in process, with a
researcher's write token of the demo study, as tests/contract/test_schemathesis.py does for the
participant API: schema-valid (positive) and schema-violating (negative) cases of every
operation, every response checked against the document (status documented, body valid,
content type), no 5xx, every schema-violating request refused.

One check is left out: ``positive_data_acceptance``. The researcher API's valid requests depend
on rows no static schema knows (a model endpoint's alias, a release version higher than the
last, a study that is recruiting to be paused), and the API refuses the others with a
documented 400, 404 or 409; the permission matrix and the generated client's workflow test the
accepted paths. A positive case's path parameters are the demo study's own rows (``_rows``).
Kept fast: MAX_EXAMPLES per operation (22 operations)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.researcher_api.conftest import (  # noqa: F401 - fixtures
    mint,
    personas,
    scratch_dirs,
    sides,
)

MAX_EXAMPLES = 5

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _rows(case: Any, own: Any) -> None:
    params = case.path_parameters or {}
    if "slug" in params:
        params["slug"] = own.study.slug
    if "id" in params:
        path = case.operation.path
        if path.startswith("/api/v1/releases/"):
            params["id"] = own.release.pk
        elif path.startswith("/api/v1/evaluations/"):
            params["id"] = own.run.pk
        else:
            params["id"] = own.conversation_id


def test_the_researcher_api_keeps_its_schema(personas, sides, settings):  # noqa: F811
    from attune_collect.wsgi import application

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"researcher_token": "100000/min"},
    }
    own = sides["own"]
    headers = {"Authorization": f"Bearer {mint(personas['researcher'], [own.study], 'write')}"}
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
    counts: Counter[GenerationMode] = Counter()
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @hypothesis_settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=st.sampled_from(list(GenerationMode)).flatmap(
                lambda mode, op=operation: op.as_strategy(generation_mode=mode)
            )
        )
        def check(case) -> None:
            counts[case.meta.generation.mode] += 1
            if case.meta.generation.mode.is_positive:
                _rows(case, own)
            case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])

        try:
            check()
        except Exception as failure:  # one (shrunk) failure per operation; the rest still run
            lines = [line.strip() for line in str(failure).splitlines() if line.strip()]
            failures.append(f"{operation.label}: {' | '.join(lines[:8])[:600]}")
    print(f"\nschemathesis (researcher): {operations} operations, {counts.total()} cases")
    for failure in failures:
        print("  " + failure)
    assert operations == 22
    assert counts[GenerationMode.POSITIVE] > 0 and counts[GenerationMode.NEGATIVE] > 0
    assert not failures
