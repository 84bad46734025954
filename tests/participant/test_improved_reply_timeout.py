"""The comparison waits for the improved reply for a bounded time, and says so honestly.

Within ``ATTUNE_IMPROVED_REPLY_TIMEOUT_S`` (default 90 s) of the reply a missing improved
reply is ``pending`` and the submit saves every other answer without submitting the step; past it (no worker, a lost task) it is
``unavailable`` and the submit goes through without the comparison. A reply that arrives
after the limit is stored, but the comparison stays skipped. Time is moved by setting the
step's ``started_at``, never by sleeping.
"""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from annotations.interchange.from_records import validate_record
from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation, ImprovedStatus, PairwiseChoice, TurnAnnotation
from annotations.services import annotation_flow
from annotations.services.improver import run_improver
from annotations.services.study_instrument import instrument_of
from attunebench.reader import parse_conversation
from attunebench.writer import conversation_to_dict

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_turn(participant_client, answered_turn, improver_queue):
    """A participant whose turn 1 has a reply and a planned comparison, and whose improved
    reply was asked for but never written (the task is queued, no worker ran it)."""
    client = participant_client()
    client.onboard()
    answered_turn(client, reply="You should just calm down.", improve=False)
    turn_id = improver_queue[-1]
    annotation = TurnAnnotation.objects.get(turn_id=turn_id)
    assert annotation.improved_status == ImprovedStatus.PENDING and annotation.pairwise_plan
    return client, turn_id


def opened_ago(turn_id: int, seconds: float) -> None:
    """Pretend the annotation step opened ``seconds`` ago."""
    started = timezone.now() - timedelta(seconds=seconds)
    TurnAnnotation.objects.filter(turn_id=turn_id).update(started_at=started)


def past_the_limit(turn_id: int) -> None:
    opened_ago(turn_id, annotation_flow.improved_reply_timeout().total_seconds() + 1)


def annotation_of(turn_id: int) -> TurnAnnotation:
    return TurnAnnotation.objects.get(turn_id=turn_id)


class TestWithinTheLimit:
    def test_the_comparison_is_pending_and_the_step_is_not_submitted(self, waiting_turn):
        client, turn_id = waiting_turn
        opened_ago(turn_id, annotation_flow.improved_reply_timeout().total_seconds() - 5)
        comparison = client.get("turns/1/annotation").body["comparison"]
        assert comparison["status"] == "pending" and comparison["responses"] is None
        assert comparison["questions"]  # still planned
        # The other answers are saved (test_answers_saved_while_comparing.py), the step stays
        # open for the comparison.
        reply = client.annotate(1)
        assert reply.status == 200 and reply.body["submitted"] is False
        annotation = annotation_of(turn_id)
        assert annotation.submitted_at is None and annotation.selected_pairwise_questions


class TestPastTheLimit:
    def test_the_comparison_is_unavailable(self, waiting_turn):
        client, turn_id = waiting_turn
        past_the_limit(turn_id)
        comparison = client.get("turns/1/annotation").body["comparison"]
        assert comparison["status"] == "unavailable" and comparison["responses"] is None
        # Nothing was written by looking: the improver may still store its reply later.
        assert annotation_of(turn_id).improved_status == ImprovedStatus.PENDING

    def test_the_submit_without_the_comparison_is_accepted(self, waiting_turn):
        client, turn_id = waiting_turn
        past_the_limit(turn_id)
        reply = client.annotate(1)
        assert reply.status == 200, reply.body
        assert reply.body["submitted"] is True
        assert reply.body["comparison"] == {
            "status": "unavailable",
            "questions": [],
            "responses": None,
        }
        annotation = annotation_of(turn_id)
        assert annotation.selected_pairwise_questions == []
        assert annotation.improved_meta["pairwise_skipped"] is True
        assert annotation.improved_meta["improved_timed_out"] is True
        assert not PairwiseChoice.objects.filter(annotation=annotation).exists()

    def test_choices_for_the_skipped_comparison_are_refused(self, waiting_turn):
        client, turn_id = waiting_turn
        planned = annotation_of(turn_id).selected_pairwise_questions
        past_the_limit(turn_id)
        reply = client.annotate(1, pairwise={qid: "A" for qid in planned})
        assert reply.status == 400 and reply.error["field"] == "pairwise"
        assert annotation_of(turn_id).submitted_at is None


class TestALateReply:
    def test_is_stored_but_the_comparison_stays_unavailable(self, waiting_turn):
        client, turn_id = waiting_turn
        past_the_limit(turn_id)
        assert client.get("turns/1/annotation").body["comparison"]["status"] == "unavailable"
        assert run_improver(turn_id) == "ready"  # the worker came back
        annotation = annotation_of(turn_id)
        assert annotation.improved_status == ImprovedStatus.READY
        assert annotation.llm_improved_reply and annotation.improved_meta["late"] is True
        comparison = client.get("turns/1/annotation").body["comparison"]
        assert comparison["status"] == "unavailable" and comparison["responses"] is None
        assert client.annotate(1).status == 200  # no choices asked for, none needed

    def test_after_the_submit_is_stored_and_the_skip_stands(self, waiting_turn):
        client, turn_id = waiting_turn
        past_the_limit(turn_id)
        assert client.annotate(1).status == 200
        assert run_improver(turn_id) == "ready"
        annotation = annotation_of(turn_id)
        assert annotation.llm_improved_reply and annotation.improved_meta["late"] is True
        assert annotation.selected_pairwise_questions == []
        assert client.get("turns/1/annotation").body["comparison"]["status"] == "unavailable"

    def test_a_reply_ready_in_time_stays_ready_however_long_the_answer_takes(self, waiting_turn):
        client, turn_id = waiting_turn
        assert run_improver(turn_id) == "ready"  # within the limit
        past_the_limit(turn_id)  # the participant took their time
        assert "late" not in annotation_of(turn_id).improved_meta
        comparison = client.get("turns/1/annotation").body["comparison"]
        assert comparison["status"] == "ready" and comparison["responses"] is not None
        assert client.annotate(1, pairwise={}).status == 400  # the choices are still asked for
        assert client.annotate(1).status == 200
        assert PairwiseChoice.objects.filter(annotation__turn_id=turn_id).exists()


class TestTheLimitSetting:
    def test_the_setting_overrides_the_default(self, waiting_turn, settings):
        client, turn_id = waiting_turn
        opened_ago(turn_id, 10)
        assert client.get("turns/1/annotation").body["comparison"]["status"] == "pending"
        settings.ATTUNE = replace(settings.ATTUNE, improved_reply_timeout_s=5)
        assert annotation_flow.improved_reply_timeout() == timedelta(seconds=5)
        assert client.get("turns/1/annotation").body["comparison"]["status"] == "unavailable"
        assert client.annotate(1).status == 200

    @pytest.mark.parametrize("value", [0, -1, "120", True])
    def test_a_bad_setting_is_refused(self, settings, value):
        # The configuration refuses it when it is made, before any service could read it.
        with pytest.raises(ImproperlyConfigured, match="ATTUNE_IMPROVED_REPLY_TIMEOUT_S"):
            replace(settings.ATTUNE, improved_reply_timeout_s=value)


class TestTheExportedRecord:
    def test_a_timed_out_comparison_exports_a_valid_record(self, waiting_turn):
        client, turn_id = waiting_turn
        past_the_limit(turn_id)
        assert client.annotate(1).status == 200
        run_improver(turn_id)  # arrives late: kept as the turn's llmImproved
        conversation = Conversation.objects.get(participant__prolific_pid=client.pid)
        record = conversation_to_record(conversation)
        (turn,) = record.turns
        assert turn.annotations.pairwise_comparisons == ()
        assert turn.annotations.selected_pairwise_questions == ()
        assert turn.annotations.llm_improved == annotation_of(turn_id).llm_improved_reply
        validate_record(record, instrument_of(conversation.study))
        assert parse_conversation(conversation_to_dict(record)) == record
