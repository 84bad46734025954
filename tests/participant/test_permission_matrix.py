"""The participant API's permission matrix: who reaches which /api/study/ endpoint.

- Without a participant token every endpoint but ``start`` answers 401 ``unauthenticated``,
  whoever asks: anonymous, a logged-in outsider, viewer, QA reviewer, researcher or superuser
  (a staff session cookie opens nothing here: only the ``Authorization: Participant`` header
  authenticates, and CSRF never comes into it) - and nothing is written.
- A participant token reaches its own participant's data only: a turn, an annotation or a
  draft of another participant is out of reach (404, as for a turn that does not exist).
- A participant token opens nothing on the staff side: QA pages and admin pages, even those
  of the participant's own study and records, send it to the login page (the QA/admin
  matrix of every page and persona is tests/qa/test_permission_matrix.py).
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotations.models import (
    AuditEntry,
    Conversation,
    Participant,
    ParticipantDraft,
    ParticipantSession,
    Turn,
    TurnAnnotation,
)
from annotations.participant_api import urls as participant_urls
from annotations.services import chat
from tests.factories import unique
from tests.participant.client import ParticipantClient

pytestmark = pytest.mark.django_db

ANNOTATION = {"mood_tags": [], "behaviour": {}}
# (url name, method, path under /api/study/, body): every participant endpoint but start.
ENDPOINTS = [
    ("study-session", "get", "session", None),
    ("study-instrument", "get", "instrument", None),
    ("study-consent", "post", "consent", {"consent_version": "2", "agree": True}),
    ("study-comprehension", "post", "comprehension", {"answers": {}}),
    ("study-profile", "post", "profile", {"age": 30}),
    ("study-panas", "post", "panas/pre", {"items": {}}),
    ("study-topic", "post", "topic", {"category": "work"}),
    ("study-messages", "post", "messages", {"text": "hello", "idempotency_key": "matrix-key-1"}),
    ("study-turn", "get", "turns/1", None),
    ("study-turn-retry", "post", "turns/1/retry", {}),
    ("study-turn-stream", "get", "turns/1/stream", None),
    ("study-annotation", "get", "turns/1/annotation", None),
    ("study-annotation", "post", "turns/1/annotation", ANNOTATION),
    ("study-finish", "post", "finish", {}),
    ("study-post-survey", "post", "post-survey", {}),
    ("study-withdraw", "post", "withdraw", {"confirm": True}),
    ("study-drafts", "get", "drafts", None),
    ("study-draft", "put", "drafts/message", {"data": {"text": "typed"}}),
    ("study-draft", "delete", "drafts/message", None),
]
# A study link starts (or resumes) a participant: no token yet. An error of the app may come
# before any token too (tests/participant/test_client_errors.py: anonymous, throttled).
OPEN_TO_ALL = {"study-start", "study-client-errors"}
NO_TOKEN_PERSONAS = ["anonymous", "outsider", "viewer", "reviewer", "researcher", "superuser"]


def test_the_matrix_lists_every_participant_endpoint():
    routes = {pattern.name for pattern in participant_urls.urlpatterns}
    assert {name for name, *_ in ENDPOINTS} == routes - OPEN_TO_ALL


def _written() -> dict[str, int]:
    tables = (
        Participant,
        ParticipantSession,
        Conversation,
        Turn,
        TurnAnnotation,
        ParticipantDraft,
        AuditEntry,
    )
    return {model.__name__: model.objects.count() for model in tables}


class TestWithoutAParticipantToken:
    @pytest.fixture
    def http(self, request, django_user_model):
        # A browser that enforces CSRF like a real one: a refusal must be the 401, not CSRF's.
        http = APIClient(enforce_csrf_checks=True)
        if request.param == "superuser":
            http.force_login(django_user_model.objects.create_superuser("root", "r@example.org"))
        elif request.param != "anonymous":
            http.force_login(request.getfixturevalue(request.param))
        return http

    @pytest.mark.parametrize("http", NO_TOKEN_PERSONAS, indirect=True)
    @pytest.mark.parametrize(
        ("name", "method", "path", "body"), ENDPOINTS, ids=[f"{m}-{p}" for _, m, p, _ in ENDPOINTS]
    )
    def test_every_endpoint_is_unauthenticated(self, http, name, method, path, body):
        before = _written()
        call = getattr(http, method)
        url = f"/api/study/{path}"
        response = call(url, body, format="json") if body is not None else call(url)
        assert response.status_code == 401, (url, response.status_code, response.content[:200])
        assert response.json()["error"]["code"] == "unauthenticated"
        assert response["WWW-Authenticate"].startswith("Participant")
        assert _written() == before


@pytest.fixture
def alice_and_bob(participant_client, answered_turn):
    """Alice: turn 1 answered and annotated, turn 2 answered (its annotation open), a draft.
    Bob: in the same study, one turn of his own."""
    alice, bob = participant_client(), participant_client()
    alice.onboard()
    bob.onboard()
    answered_turn(alice, "Alice's first worry")
    assert alice.annotate(1).status == 200
    answered_turn(alice, "Alice's second worry", reply="A reply for Alice only.")
    draft = alice.put("drafts/annotation:2", {"data": {"edited_reply": "Alice's edit"}})
    assert draft.status == 200
    answered_turn(bob, "Bob's own message")
    return alice, bob


def _alice_untouched(alice: ParticipantClient) -> None:
    step = alice.get("turns/2/annotation").body
    assert step["submitted"] is False
    assert alice.get("turns/2").body["user_message"] == "Alice's second worry"
    drafts = {d["key"]: d["data"] for d in alice.get("drafts").body}
    assert drafts == {"annotation:2": {"edited_reply": "Alice's edit"}}


class TestAParticipantTokenReachesOnlyItsOwnData:
    @pytest.mark.parametrize(
        ("method", "path", "body"),
        [
            ("get", "turns/2", None),
            ("get", "turns/2/annotation", None),
            ("post", "turns/2/annotation", ANNOTATION),
        ],
    )
    def test_another_participants_turn_is_not_found(self, alice_and_bob, method, path, body):
        alice, bob = alice_and_bob
        reply = getattr(bob, method)(path, *([body] if body is not None else []))
        assert reply.status == 404 and reply.error["code"] == "not_found"
        assert "Alice" not in str(reply.body)
        _alice_untouched(alice)

    def test_the_same_turn_number_is_the_participants_own_turn(self, alice_and_bob):
        alice, bob = alice_and_bob
        assert bob.get("turns/1").body["user_message"] == "Bob's own message"
        step = bob.get("turns/1/annotation").body
        assert step["submitted"] is False  # Alice's turn 1 is annotated, Bob's is not
        assert "Alice" not in str(step) and "Alice" not in str(bob.session())

    def test_another_participants_drafts_are_out_of_reach(self, alice_and_bob):
        alice, bob = alice_and_bob
        assert bob.get("drafts").body == []
        assert bob.delete("drafts/annotation:2").status == 204  # clears Bob's own (none)
        assert bob.put("drafts/annotation:2", {"data": {"edited_reply": "Bob's"}}).status == 200
        _alice_untouched(alice)
        assert [d["data"] for d in bob.get("drafts").body] == [{"edited_reply": "Bob's"}]

    @pytest.mark.django_db(transaction=True)
    def test_another_participants_failed_turn_cannot_be_retried(self, chat_study, live_participant):
        # The retry streams, so it runs under uvicorn (live_participant, on committed data).
        alice, bob = live_participant(chat_study), live_participant(chat_study)
        alice.onboard()
        bob.onboard()
        participant = Participant.objects.get(prolific_pid=alice.pid)
        plan = chat.accept_message(participant, "Alice's worry", unique("key-abcdefgh"))
        chat.record_failure(plan.turn_id, "upstream error", claim=plan.claim)
        refused = bob.retry(1)
        assert refused.status == 404 and refused.body["error"]["code"] == "not_found"
        turn = Turn.objects.get(pk=plan.turn_id)
        assert turn.status == "failed" and turn.conversation.participant == participant


class TestAParticipantTokenOnTheStaffSide:
    @pytest.fixture
    def own_records(self, participant_client, answered_turn, chat_study):
        client = participant_client()
        client.onboard()
        answered_turn(client)
        participant = Participant.objects.get(prolific_pid=client.pid)
        return client, {
            "participant": participant,
            "study": chat_study,
            "conversation": Conversation.objects.get(participant=participant),
        }

    @pytest.mark.parametrize(
        ("name", "kind"),
        [
            ("qa:queue", None),
            ("qa:conversation", "conversation"),
            ("qa:monitoring", "slug"),
            ("admin:index", None),
            ("admin:annotations_study_change", "study"),
            ("admin:annotations_study_preview", "study"),
            ("admin:annotations_participant_change", "participant"),
            ("admin:annotations_conversation_change", "conversation"),
        ],
    )
    def test_the_token_opens_no_staff_page(self, own_records, client, name, kind):
        participant_client, objects = own_records
        if kind is None:
            url = reverse(name)
        elif kind == "slug":
            url = reverse(name, args=[objects["study"].slug])
        else:
            url = reverse(name, args=[objects[kind].pk])
        client.defaults["HTTP_AUTHORIZATION"] = f"Participant {participant_client.token}"
        before = _written()
        response = client.get(url)
        assert response.status_code == 302, (url, response.status_code)
        assert "/admin/login/" in response["Location"]
        assert _written() == before  # e.g. no preview participant was started
