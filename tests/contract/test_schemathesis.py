"""Schemathesis against the participant API's OpenAPI schema, in process (the Django WSGI
application on the test database), with every check (``--checks all``): a bounded number of
generated requests per operation, schema-valid (positive) and schema-violating (negative),
anonymous and with a participant token. Any 5xx, any response the schema does not describe,
a schema-valid request refused (``positive_data_acceptance``) or a schema-violating one
accepted (``negative_data_rejection``) is a failure. The test prints its figures
(``pytest tests/contract -s``): cases and failures, with the first failures.

What a schema can state, it states (annotations/participant_api/json_limits.py and the
serializers: lengths, id patterns, no NUL, not only whitespace, confirm is true;
tests/participant/test_schema_and_checks_agree.py holds the schema to the serializers), but
for no NUL deep inside a free JSON value, which positive cases lose (``without_nul``). The
rest depends on the study's own configuration, which no static schema knows: its slug, consent
version, topics, PANAS items and scale, question and option ids, the behaviour questions shown
at a turn. So the participant persona meets every operation at the step it serves (a fresh
participant per case: a consent case is made by a participant who has not consented yet), and
a generated positive case takes those configuration values from the study (``_configured``);
everything else in it stays as generated. Figures (10 examples per operation and persona,
derandomized, 18 operations): anonymous 180 cases (78 positive, 102 negative), participant
180 cases (80 positive, 100 negative; every positive case answered 2xx, in all 18 operations),
0 failures; 2.5 to 4 minutes on two busy cores."""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NotSet

from annotations.models import Study
from annotations.participant_api.db import close_pool_connections
from tests.participant.client import DjangoTransport, ParticipantClient
from tests.participant.conftest import (  # noqa: F401 - fixtures
    answered_turn,
    chat_study,
    make_chat_study,
)
from tests.participant.test_schema_and_checks_agree import without_nul

MAX_EXAMPLES = 10  # per operation and persona: 19 operations x 2 personas

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The step each operation serves (the participant persona's case is made there); "chat" else.
STEP_OF = {
    "POST /api/study/consent": "consent",
    "POST /api/study/comprehension": "comprehension",
    "POST /api/study/profile": "profile",
    "POST /api/study/panas/{phase}": "pre_panas",
    "POST /api/study/topic": "topic",
    "GET /api/study/turns/{number}": "annotation",
    "GET /api/study/turns/{number}/annotation": "annotation",
    "GET /api/study/turns/{number}/stream": "annotation",
    "POST /api/study/turns/{number}/annotation": "annotation",
    "POST /api/study/turns/{number}/retry": "annotation",
    "POST /api/study/finish": "annotated",
    "POST /api/study/post-survey": "post_survey",
}
STEPS = ["consent", "profile", "pre_panas", "topic", "chat", "annotation", "annotated"]
# The comprehension check is asked only by a study with questions: its cases are made in one.
COMPREHENSION = [
    {
        "id": "task",
        "question": "What will you do in this study?",
        "options": [
            {"id": "chat", "text": "Chat and rate replies"},
            {"id": "video", "text": "Watch"},
        ],
        "answer": "chat",
    }
]
RATES = {"participant_start": "100000/min", "participant": "100000/min"}
RATES["participant_study_start"] = RATES["participant_start"]
RATES["participant_message"] = RATES["participant"]  # the cases, not the limits, are tested


def _stage(study: Study, step: str, answer: Callable[..., int]) -> ParticipantClient:
    """A new participant of ``study`` at ``step``, walked there with valid answers."""
    client = ParticipantClient(DjangoTransport(), study.slug)
    assert client.start().status == 201
    if step == "comprehension":  # right after consent, in a study that asks it
        body = {"consent_version": study.consent_version, "agree": True}
        assert client.post("consent", body).body["step"] == "comprehension"
        return client
    walk = STEPS[: STEPS.index(step)] if step in STEPS else STEPS
    if "topic" in walk:
        client.onboard()
    else:
        bodies = {
            "consent": lambda: {"consent_version": study.consent_version, "agree": True},
            "profile": lambda: {"age": 34},
            "panas/pre": lambda: {"items": client.panas_items()},
        }
        for path in ("consent", "profile", "panas/pre")[: len(walk)]:
            reply = client.post(path, bodies[path]())
            assert reply.status == 200, (path, reply.body)
    if "chat" in walk:
        answer(client)
    if "annotation" in walk:
        assert client.annotate(1).status == 200
    if step == "post_survey":
        for path, body in [("finish", {}), ("panas/post", {"items": client.panas_items()})]:
            assert client.post(path, body).status == 200, (path, body)
    return client


def _first(question: dict[str, Any], but: tuple[str, ...] = ()) -> str:
    """The first option of a question that asks for no text (and is none of ``but``)."""
    return next(o["id"] for o in question["options"] if not o["other"] and o["id"] not in but)


def _configured(case: Any, study: Study, client: ParticipantClient | None) -> None:
    """A positive case with the values only the study's configuration makes valid, and no NUL
    inside a free JSON value (the one rule of the API its schema cannot state)."""
    if case.body is not None and not isinstance(case.body, NotSet):
        case.body = without_nul(case.body)
    params = case.path_parameters or {}
    if "slug" in params:
        params["slug"] = study.slug
    if "phase" in params:
        params["phase"] = "pre"
    if "number" in params:
        params["number"] = 1
    if case.operation.path == "/api/study/{slug}/start" and isinstance(case.body, dict):
        # A Prolific study takes Prolific's ids only (24 lowercase hex digits; the schema's
        # pattern is every study's): the generated id, turned into one.
        generated = str(case.body.get("prolific_pid", ""))
        case.body["prolific_pid"] = hashlib.sha256(generated.encode()).hexdigest()[:24]
    if client is None or not isinstance(case.body, dict):
        return
    body, path = case.body, case.operation.path
    if path == "/api/study/consent":
        body["consent_version"] = study.consent_version
    elif path == "/api/study/comprehension":
        body["answers"] = {q["id"]: q["answer"] for q in study.comprehension_questions}
    elif path == "/api/study/profile":
        body.update(answers={}, other_text={})  # the default instrument has no questionnaire
        if body["age"] < 18:
            body["age_confirmed"] = True  # unconfirmed, the app asks "is that right?" first
    elif path == "/api/study/panas/{phase}":
        body["items"] = client.panas_items()
    elif path == "/api/study/topic":
        body.update(category=study.topics[0]["category"], subtopic="", other_text={})
    elif path == "/api/study/turns/{number}/annotation" and case.method == "POST":
        valid = client.valid_annotation(1)
        body.update({key: valid[key] for key in ("mood_tags", "behaviour", "pairwise")})
        body["attention"] = None  # the study places no attention check
    elif path == "/api/study/post-survey":
        instrument = client.get("instrument").body
        fit = _first(instrument["q3_model_fit"], instrument["q3_follow_up"]["shown_when"])
        scale = instrument["intensity_scale"]["min"]
        body.update(
            looking_for=[_first(instrument["q1_looking_for"])],
            emotion_clarity=_first(instrument["q2_emotion_clarity"]),
            model_fit=fit,
            what_felt_off=[],  # asked only after a fit in shown_when
            four_branch={branch["id"]: scale for branch in instrument["four_branches"]},
            other_text={},
        )


def _run(
    study: Study, persona: str, answer: Callable[..., int], checked: Study
) -> tuple[Counter, Counter, list[str]]:
    from attune_collect.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    counts: Counter[GenerationMode] = Counter()
    accepted: Counter[str] = Counter()  # positive cases answered 2xx, per operation
    failures: list[str] = []
    for result in schema.include(path_regex="^/api/study/").get_all_operations():
        operation = result.ok()
        make = None
        step = STEP_OF.get(operation.label, "chat")
        target = checked if step == "comprehension" else study
        if persona == "participant":
            make = functools.partial(_stage, target, step, answer)
        try:
            accepted[operation.label] += 0
            _check(operation, target, make, counts, accepted)
        except BaseException as failure:  # one (shrunk) failure per operation; the rest still run
            if not isinstance(failure, Exception | BaseExceptionGroup):
                raise
            lines = [line.strip() for line in str(failure).splitlines() if line.strip()]
            failures.append(f"{operation.label}: {' | '.join(lines[:8])[:600]}")
    return counts, accepted, failures


def _check(
    operation: Any,
    study: Study,
    make: Callable[[], ParticipantClient] | None,
    counts: Counter[GenerationMode],
    accepted: Counter[str],
) -> None:
    """MAX_EXAMPLES cases of ``operation``, positive and negative, each made by a new
    participant from ``make`` (or anonymous), every check on every response."""
    modes = st.sampled_from(list(GenerationMode))

    @hypothesis_settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=modes.flatmap(lambda mode: operation.as_strategy(generation_mode=mode)))
    def check(case) -> None:
        mode = case.meta.generation.mode
        counts[mode] += 1
        client = make() if make else None
        if mode.is_positive:
            _configured(case, study, client)
        response = case.call_and_validate(headers=client.headers if client else {})
        if mode.is_positive and response.status_code < 300:
            accepted[operation.label] += 1

    check()


@pytest.mark.parametrize("persona", ["anonymous", "participant"])
def test_the_api_keeps_its_schema(
    persona,
    chat_study,  # noqa: F811
    make_chat_study,  # noqa: F811
    answered_turn,  # noqa: F811
    sent_tasks,
    settings,
):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": RATES}
    chat_study.target_participants = 10_000  # a fresh participant per case
    chat_study.save()
    checked = make_chat_study(comprehension_questions=COMPREHENSION, target_participants=10_000)
    try:
        counts, accepted, failures = _run(chat_study, persona, answered_turn, checked)
    finally:
        close_pool_connections()  # the views' database threads, or the test database stays open
    cases = sum(counts.values())
    figures = ", ".join(f"{counts[mode]} {mode.value}" for mode in GenerationMode)
    print(f"\nschemathesis ({persona}): {cases} cases ({figures}), {len(failures)} failures")
    met = sum(1 for n in accepted.values() if n)
    print(
        f"  positive cases answered 2xx: {accepted.total()}, in {met} of {len(accepted)} operations"
    )
    for failure in sorted(set(failures))[:40]:
        print("  " + failure)
    assert counts[GenerationMode.POSITIVE] > 0 and counts[GenerationMode.NEGATIVE] > 0
    assert not failures
    if persona == "participant":  # each operation was met where valid data is accepted
        assert not [label for label, n in accepted.items() if n == 0]
