"""The optional model mode of personal-detail detection: off by default (no model asked); on,
the configured endpoint's model (here the local OpenAI-compatible test server, real HTTP through
the gateway) names people and places, located by exact substring, findings of their own
detector and version in the same queue; an unreadable answer is recorded and ignored; a
conversation completed through a request only queues the scan (the model is the worker's)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from annotations.models import AuditEntry
from annotations.qa.models import PersonalDetailFinding, PersonalDetailScan
from annotations.qa.services.personal_details import (
    detector_version,
    detector_versions,
    scan_conversation,
)
from attune_collect.llm.personal_details import PERSONAL_DETAILS_MARKER, PROMPT_VERSION
from tests.factories import (
    build_record,
    build_turn,
    make_conversation,
    make_test_server_endpoint,
    unique,
)
from tests.llm.conftest import (  # noqa: F401 - fixtures shared with the gateway tests
    KEY_ENV,
    _shared_openai_server,
    api_key,
    openai_server,
)

pytestmark = pytest.mark.django_db

MESSAGE = "my sister Anjali moved to Leeds, mail her at anj@mail.com"
ANSWER = json.dumps(
    {
        "details": [
            {"kind": "name", "text": "Anjali"},
            {"kind": "place", "text": "Leeds"},
            {"kind": "name", "text": "Bob"},  # not in the text: dropped
            {"kind": "other", "text": "anj@mail.com"},  # the pattern's span stands
        ]
    }
)


@pytest.fixture
def conversation(study):
    record = build_record(turns=(build_turn(1, user_message=MESSAGE, llm_response="I hear you."),))
    return make_conversation(study, record=record)


@pytest.fixture
def model_on(settings, openai_server, api_key):  # noqa: F811
    endpoint = make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("pii"), timeout_s=2.0
    )
    settings.ATTUNE = replace(settings.ATTUNE, personal_details_endpoint=endpoint.alias)
    return endpoint


def _found(conversation) -> set[tuple[str, str, str]]:
    return {
        (f.kind, f.detector, MESSAGE[f.start : f.end])
        for f in PersonalDetailFinding.objects.filter(
            conversation=conversation, field_path__endswith="userMessage"
        )
    }


class TestOffByDefault:
    def test_no_model_is_asked_and_only_patterns_find(self, conversation, openai_server):  # noqa: F811
        before = openai_server.behaviour.request_count
        scan_conversation(conversation.pk)
        assert openai_server.behaviour.request_count == before
        assert _found(conversation) == {("email", "patterns", "anj@mail.com")}
        assert PersonalDetailScan.objects.get().detector_version == "patterns-1"
        assert "model" not in detector_versions()


class TestOn:
    def test_the_model_names_are_findings_of_their_own_detector(
        self,
        conversation,
        model_on,
        openai_server,  # noqa: F811
    ):
        openai_server.behaviour.reply = lambda body: ANSWER
        scan_conversation(conversation.pk)
        assert _found(conversation) == {
            ("email", "patterns", "anj@mail.com"),
            ("name", "model", "Anjali"),
            ("place", "model", "Leeds"),
        }
        model = PersonalDetailFinding.objects.filter(detector="model").first()
        assert model is not None and model.detector_version == f"{PROMPT_VERSION}:{model_on.alias}"
        assert model.status == "pending"  # the same review queue
        # The scan counts as current only with the model's version in it, as a release requires.
        assert PersonalDetailScan.objects.get().detector_version == detector_version()
        assert detector_version() == f"patterns-1+{PROMPT_VERSION}:{model_on.alias}"
        assert detector_versions()["model"] == f"{PROMPT_VERSION}:{model_on.alias}"

    def test_the_prompt_is_the_versioned_one(self, conversation, model_on, openai_server):  # noqa: F811
        bodies: list[dict] = []

        def reply(body: dict) -> str:
            bodies.append(body)
            return '{"details": []}'

        openai_server.behaviour.reply = reply
        scan_conversation(conversation.pk)
        system = bodies[0]["messages"][0]["content"]
        assert PERSONAL_DETAILS_MARKER in system and PROMPT_VERSION in system


class TestUnreadableAnswer:
    @pytest.mark.parametrize(
        "answer",
        ["Sure! {details: Anjali,,", '{"names": ["Anjali"]}', '{"details": [{"kind": "name"}]}'],
    )
    def test_recorded_and_ignored_the_scan_completes(
        self,
        conversation,
        model_on,
        openai_server,  # noqa: F811
        answer,
    ):
        openai_server.behaviour.reply = lambda body: answer
        scan_conversation(conversation.pk)
        assert _found(conversation) == {("email", "patterns", "anj@mail.com")}
        entry = AuditEntry.objects.filter(action="qa.personal_detail.model_unreadable").first()
        assert entry is not None and "Anjali" not in json.dumps(entry.data)
        assert PersonalDetailScan.objects.get().detector_version == detector_version()


class TestModelDown:
    def test_recorded_and_the_scan_stays_due(self, conversation, model_on, openai_server):  # noqa: F811
        openai_server.behaviour.server_error(times=10)
        scan_conversation(conversation.pk)
        assert _found(conversation) == {("email", "patterns", "anj@mail.com")}
        assert AuditEntry.objects.filter(action="qa.personal_detail.model_failed").exists()
        assert PersonalDetailScan.objects.get().detector_version != detector_version()
