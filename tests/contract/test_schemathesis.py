"""Schemathesis against the participant API's OpenAPI schema, in process (the Django WSGI
application on the test database): a bounded number of generated requests per operation,
anonymous and with a participant token. Every check of Schemathesis runs on every response but
one: any 5xx or any response the schema does not describe is a failure. The test prints its
figures (``pytest tests/contract -s``): cases and failures, with the first failures.

Left out: ``positive_data_acceptance`` (a schema-valid body must not get a 400). The API checks
bodies against the study's own configuration, which no static schema states: its topics, PANAS
items, question and option ids, the consent version shown, the behaviour questions of a turn.
What a schema can state, it states (non-empty strings, id patterns, no NUL, confirm is true);
with that check on, the rest is reported here as rejected positive data."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from annotations.services.participant_sessions import issue_token
from tests.factories import make_conversation

MAX_EXAMPLES = 10  # per operation and persona: about 17 operations x 2 personas

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _run(headers: dict[str, str]) -> tuple[int, list[str]]:
    from attune_collect.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    cases, failures = 0, []
    for result in schema.include(path_regex="^/api/study/").get_all_operations():
        operation = result.ok()

        @hypothesis_settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def check(case) -> None:
            nonlocal cases
            cases += 1
            case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])

        try:
            check()
        except BaseException as failure:  # one (shrunk) failure per operation; the rest still run
            if not isinstance(failure, Exception | BaseExceptionGroup):
                raise
            lines = [line.strip() for line in str(failure).splitlines() if line.strip()]
            failures.append(f"{operation.label}: {' | '.join(lines[:8])[:600]}")
    return cases, failures


@pytest.mark.parametrize("persona", ["anonymous", "participant"])
def test_the_api_keeps_its_schema(persona):
    headers = {}
    if persona == "participant":
        headers = {"Authorization": f"Participant {issue_token(make_conversation().participant)}"}
    cases, failures = _run(headers)
    print(f"\nschemathesis ({persona}): {cases} cases, {len(failures)} failures")
    for failure in sorted(set(failures))[:40]:
        print("  " + failure)
    assert cases > 0 and not failures
