"""The optional second risk signal: the study's moderation model judges each participant
message in the background, beside the word match, and QA sees both.

The moderation model here is the local OpenAI-compatible test server (real HTTP through the
gateway) answering verdict JSON; the offline demo provider has its own class. The worker's
part is run by the test itself (``run_moderation``, what ``safety.moderate_message`` does).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.demo import ensure_demo_endpoints, ensure_demo_study
from annotations.models import AuditEntry, ModelEndpoint, SignalKind, Study, Turn, TurnSignal
from annotations.qa.models import Flag, StudyQASettings
from annotations.qa.services.risk_alerts import run_risk_alert
from annotations.services.moderation import LOST, run_moderation, sweep_unmoderated
from annotations.services.participant_sessions import participant_for_token
from annotations.services.setup import save_setup
from annotations.tasks import MODERATION_MAX_RETRIES, moderate_message
from attune_collect.llm import (
    Completion,
    EndpointConfig,
    GatewayError,
    VerdictUnreadable,
    default_gateway,
)
from attune_collect.llm.moderation import MODERATION_MARKER, read_verdict
from tests.participant.client import ParticipantClient

pytestmark = pytest.mark.django_db

TASK = "safety.moderate_message"
RISKY = "Honestly I want to end it all, I can't go on."
# No phrase of the word lists: only a moderation model can read the risk in it.
VEILED = "I gave away my things this week and wrote letters to everyone, it's all sorted now."
FLAGGED = json.dumps({"flagged": True, "categories": ["suicide"]})
CLEAR = json.dumps({"flagged": False, "categories": []})


@pytest.fixture
def moderator(upstream_endpoint, openai_server) -> ModelEndpoint:
    """The moderation endpoint: the local test server (no gateway retries, a short timeout),
    answering "flagged" unless a test says otherwise."""
    openai_server.behaviour.reply = lambda body: FLAGGED
    return upstream_endpoint


@pytest.fixture
def moderated_study(make_chat_study, moderator) -> Study:
    study = make_chat_study(moderation_endpoint=moderator, safety_contacts="lead@example.org")
    study.improver_endpoint = None  # no comparison to wait for between the turns
    study.save()
    return study


class Sender:
    """One participant of a study: each call answers the questions about the last reply,
    stores a message and its reply (no stream) and returns the turn."""

    def __init__(self, client: ParticipantClient, answered_turn: Callable[..., int]) -> None:
        self.client = client
        self.answered_turn = answered_turn
        self.numbers: list[int] = []

    def __call__(self, text: str) -> Turn:
        if self.numbers:
            assert self.client.annotate(self.numbers[-1]).status == 200
        self.numbers.append(self.answered_turn(self.client, text, improve=False))
        participant = participant_for_token(self.client.token or "")
        return Turn.objects.get(conversation__participant=participant, number=self.numbers[-1])


@pytest.fixture
def send(participant_client, answered_turn, moderated_study) -> Sender:
    client = participant_client(moderated_study)
    client.onboard()
    return Sender(client, answered_turn)


@pytest.fixture
def moderate(django_capture_on_commit_callbacks):
    """What the worker does (``run_moderation``), sending what it queues after commit although
    the test's transaction never commits."""

    def run(turn_id: int, **options) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            return run_moderation(turn_id, **options)

    return run


def moderation_signal(turn: Turn) -> TurnSignal:
    return TurnSignal.objects.get(turn=turn, kind=SignalKind.MODERATION)


class TestTheVerdictIsStoredBesideTheWordMatch:
    def test_a_risky_message_has_both_signals(self, send, moderate, sent_tasks, openai_server):
        turn = send(RISKY)
        assert sent_tasks[TASK] == [turn.pk]  # queued with the message, run by a worker
        assert moderate(turn.pk) == "flagged"
        word = TurnSignal.objects.get(turn=turn, kind=SignalKind.RISK)
        assert word.evidence["phrases"] == ["end it all", "can't go on"]
        verdict = moderation_signal(turn).evidence
        assert verdict["flagged"] is True and verdict["categories"] == ["suicide"]
        assert verdict["model"] == "openai/test-model" and verdict["latency_ms"] >= 0
        (request,) = openai_server.behaviour.requests
        assert MODERATION_MARKER in request["messages"][0]["content"]
        assert RISKY in request["messages"][-1]["content"]

    def test_a_clear_verdict_is_stored_too_and_a_second_run_calls_nothing(
        self, send, openai_server
    ):
        openai_server.behaviour.reply = lambda body: CLEAR
        turn = send("Work has been stressful lately.")
        assert run_moderation(turn.pk) == "clear"
        assert run_moderation(turn.pk) == "skipped"  # a redelivered task
        assert len(openai_server.behaviour.requests) == 1
        assert moderation_signal(turn).evidence["flagged"] is False
        assert not TurnSignal.objects.filter(turn=turn).risk().exists()


@pytest.mark.django_db(transaction=True)
class TestTheReplyIsNotDelayed:
    def test_the_stream_ends_while_the_verdict_is_still_owed(
        self,
        make_chat_study,
        moderator,
        live_participant,
        sent_tasks,
        openai_server,
    ):
        openai_server.behaviour.stall(30)  # a moderation call now would hold the stream 30 s
        study = make_chat_study(moderation_endpoint=moderator)
        client = live_participant(study)
        client.onboard()
        result = client.send(RISKY)
        assert result.names[-1] == "done"  # the reply came in full
        assert result.data("turn")["support"]["turn"] == 1  # the word match, at once
        turn = Turn.objects.get(conversation__participant__study=study)
        assert sent_tasks[TASK] == [turn.pk]  # the verdict is a worker's job ...
        assert openai_server.behaviour.requests == []  # ... not the stream's
        assert not TurnSignal.objects.filter(kind=SignalKind.MODERATION).exists()


class TestAModerationOnlyHit:
    def test_raises_the_flag_sends_one_email_and_shows_the_notice(
        self, send, moderate, sent_tasks, mailoutbox
    ):
        turn = send(VEILED)
        assert not TurnSignal.objects.filter(turn=turn, kind=SignalKind.RISK).exists()
        assert send.client.session()["support"] is None  # the word match saw nothing
        assert moderate(turn.pk) == "flagged"
        assert sent_tasks["qa.risk_alert"] == [turn.pk]
        assert run_risk_alert(turn.pk) == 1
        flag = Flag.objects.get(conversation=turn.conversation, flag_type="risk_signal")
        assert flag.turn_numbers == [1] and flag.evidence["moderation"] == {"1": ["suicide"]}
        assert flag.evidence["turns"] == {} and "moderation model" in flag.summary
        (email,) = mailoutbox
        assert "the moderation model" in email.body and "letters" not in email.body
        # The app's next read of the session places the notice under that message.
        assert send.client.session()["support"]["turn"] == 1

    def test_a_later_hit_in_the_same_conversation_sends_no_second_email(self, send, mailoutbox):
        first = send(VEILED)
        run_moderation(first.pk)
        run_risk_alert(first.pk)
        second = send("It's all sorted now, nobody will have to worry about me.")
        assert run_moderation(second.pk) == "flagged"
        assert run_risk_alert(second.pk) == 0
        assert len(mailoutbox) == 1
        flag = Flag.objects.get(conversation=first.conversation, flag_type="risk_signal")
        assert flag.turn_numbers == [1, 2]  # the flag does grow
        assert send.client.session()["support"]["turn"] == 2

    def test_a_message_both_signals_flag_sends_one_email(self, send, mailoutbox):
        turn = send(RISKY)
        run_risk_alert(turn.pk)  # the word match's alert
        run_moderation(turn.pk)
        assert run_risk_alert(turn.pk) == 0  # the moderation's, on the same message
        assert len(mailoutbox) == 1


class TestAFailingModerationEndpoint:
    def test_leaves_an_error_signal_and_the_chat_goes_on(
        self, send, moderate, sent_tasks, openai_server
    ):
        openai_server.behaviour.status(401, message="bad key")
        turn = send(VEILED)
        assert moderate(turn.pk) == "error"
        evidence = moderation_signal(turn).evidence
        assert evidence["flagged"] is None and "401" in evidence["error"]
        assert "qa.risk_alert" not in sent_tasks
        assert not Flag.objects.filter(conversation=turn.conversation).exists()
        assert send("And another thing.").number == 2  # answered, and the next message is in

    def test_an_outage_is_retried_then_recorded(self, send, openai_server):
        openai_server.behaviour.server_error(times=2)
        turn = send(VEILED)
        with pytest.raises(GatewayError):
            run_moderation(turn.pk, last_attempt=False)  # the task retries later
        assert not TurnSignal.objects.filter(turn=turn, kind=SignalKind.MODERATION).exists()
        assert run_moderation(turn.pk, last_attempt=True) == "error"
        assert run_moderation(turn.pk) == "flagged"  # a later success replaces the error
        assert moderation_signal(turn).evidence["flagged"] is True

    def test_the_task_retries_an_outage_then_records_it(self, send, openai_server):
        openai_server.behaviour.server_error(times=20)
        turn = send(VEILED)
        # Eager: the task's retries run in this process, without their countdown.
        assert moderate_message.apply(args=[turn.pk]).get() == "error"
        assert len(openai_server.behaviour.requests) == MODERATION_MAX_RETRIES + 1
        assert "500" in moderation_signal(turn).evidence["error"]

    def test_the_task_rides_out_a_brief_outage(self, send, openai_server):
        openai_server.behaviour.server_error(times=1)
        turn = send(VEILED)
        assert moderate_message.apply(args=[turn.pk]).get() == "flagged"

    def test_an_answer_that_is_no_verdict_is_an_error(self, send, openai_server):
        openai_server.behaviour.reply = lambda body: "I would say this is concerning."
        turn = send(VEILED)
        assert run_moderation(turn.pk) == "error"
        assert "JSON" in moderation_signal(turn).evidence["error"]


class TestOffMeansNoCall:
    def test_a_study_without_a_moderation_endpoint_never_asks(
        self,
        participant_client,
        answered_turn,
        chat_study,
        sent_tasks,
        openai_server,
    ):
        assert chat_study.moderation_endpoint is None
        client = participant_client(chat_study)
        client.onboard()
        answered_turn(client, RISKY, improve=False)
        assert TASK not in sent_tasks
        turn = Turn.objects.get(conversation__participant__study=chat_study)
        assert run_moderation(turn.pk) == "off"  # a task queued before it was turned off
        assert openai_server.behaviour.requests == []
        assert not TurnSignal.objects.filter(kind=SignalKind.MODERATION).exists()


class TestTheQAPageShowsBothSignals:
    def test_each_turn_says_which_check_fired(self, send, client, reviewer, openai_server):
        first = send(RISKY)
        run_moderation(first.pk)
        openai_server.behaviour.reply = lambda body: CLEAR
        second = send("Work has been stressful lately.")
        run_moderation(second.pk)
        conversation = first.conversation
        StudyQASettings.objects.create(study=conversation.study, double_review_share=0)
        run_risk_alert(first.pk)
        client.force_login(reviewer)
        page = client.get(reverse("qa:conversation", args=[conversation.pk])).text
        assert "Risk words fired" in page and "“end it all”" in page
        assert "Moderation fired</span> flagged by openai/test-model: suicide" in page
        assert "not flagged by openai/test-model" in page
        assert "risk phrases in 1 message(s); flagged by the moderation model" in page


class TestTheDemoProviderAnswersOffline:
    def test_verdicts_are_deterministic_and_read_curly_apostrophes(self):
        listener = EndpointConfig(name="demo", model="attune-demo/listener")
        gateway = default_gateway()
        hit = asyncio.run(gateway.moderate(listener, "I don’t want to be alive anymore"))
        assert (hit.flagged, hit.categories, hit.model) == (True, ("suicide",), listener.model)
        clear = asyncio.run(gateway.moderate(listener, "My phone died and I nearly died laughing"))
        assert (clear.flagged, clear.categories) == (False, ())
        again = asyncio.run(gateway.moderate(listener, "I don’t want to be alive anymore"))
        assert again.categories == hit.categories

    def test_off_in_the_demo_study_and_a_researcher_turns_it_on(self, researcher, sent_tasks):
        study = ensure_demo_study()
        assert study.moderation_endpoint is None
        listener = next(e for e in ensure_demo_endpoints() if e.model_name == "listener")
        study.moderation_endpoint = listener
        save_setup(study, actor=researcher)
        entry = AuditEntry.objects.filter(action="annotations.study.update").latest("pk")
        assert entry.data["changes"]["moderation_endpoint"] == {
            "before": None,
            "after": listener.pk,
        }


class TestTheAdminForm:
    def test_the_study_page_offers_the_moderation_endpoint(self, researcher_client, chat_study):
        page = researcher_client.get(f"/admin/annotations/study/{chat_study.pk}/change/").text
        assert 'name="moderation_endpoint"' in page


class TestTheSweep:
    def test_a_lost_request_is_sent_again_once(
        self, send, sent_tasks, django_capture_on_commit_callbacks
    ):
        turn = send(VEILED)
        sent_tasks[TASK].clear()  # the task was lost
        later = timezone.now() + timedelta(minutes=6)
        with django_capture_on_commit_callbacks(execute=True):
            assert sweep_unmoderated() == 0  # not yet: the task may only be late
            assert sweep_unmoderated(now=later) == 1
            assert sweep_unmoderated(now=later) == 0  # claimed: sent once
        assert sent_tasks[TASK] == [turn.pk]
        assert moderation_signal(turn).evidence["error"] == LOST  # what QA reads meanwhile
        assert run_moderation(turn.pk) == "flagged"


class TestReadingAVerdict:
    def completion(self, text: str) -> Completion:
        return Completion(text, "stop", 10, 5, 0.0, 12.0, "m", 1)

    def test_fenced_json_and_unknown_categories(self):
        verdict = read_verdict(
            self.completion('```json\n{"flagged": true, "categories": ["Self_Harm", "x"]}\n```')
        )
        assert (verdict.flagged, verdict.categories) == (True, ("self_harm",))

    @pytest.mark.parametrize(
        "text", ["yes", '{"flagged": "yes"}', '{"categories": []}', "{flagged: true"]
    )
    def test_no_boolean_flagged_is_unreadable(self, text):
        with pytest.raises(VerdictUnreadable):
            read_verdict(self.completion(text))
