"""Flags are computed on completion and by a command; recomputing is idempotent."""

from io import StringIO

import pytest
from django.core.management import call_command

from annotations.dispatch import COMPUTE_FLAGS
from annotations.models import AuditEntry, Conversation, ConversationState, Turn
from annotations.qa.models import ConversationReview, Flag, FlagStatus, StudyQASettings
from annotations.qa.services.flagging import RETIRED_NOTE, compute_flags, resolve_flag
from tests.factories import build_record, build_turn, make_conversation
from tests.qa.conftest import flags_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def risky(study):
    # No blind double review: whether the default share picks a conversation depends on its ids
    # (stable hashing), and a blind review refuses a verdict given outside it.
    StudyQASettings.objects.create(study=study, double_review_share=0)
    record = build_record(
        turns=(build_turn(1, user_message="I want to end it all."), build_turn(2))
    )
    return make_conversation(study, record=record)


def test_recomputing_changes_nothing(risky):
    flags_of(risky)
    entries = AuditEntry.objects.count()
    report = compute_flags([risky.pk], actor_label="test")
    assert (report.raised, report.updated, report.retired) == (0, 0, 0)
    assert Flag.objects.filter(conversation=risky).count() == 1
    assert AuditEntry.objects.count() == entries


def test_a_check_that_stops_firing_retires_its_open_flag(risky):
    flag = flags_of(risky)["risk_signal"]
    Turn.objects.filter(conversation=risky, number=1).update(user_message="All fine now.")
    assert compute_flags([risky.pk], actor_label="test").retired == 1
    flag.refresh_from_db()
    assert flag.status == FlagStatus.DISMISSED and flag.resolution_note == RETIRED_NOTE
    Turn.objects.filter(conversation=risky, number=1).update(user_message="I want to end it all.")
    compute_flags([risky.pk], actor_label="test")
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN  # it fires again: reopened, not duplicated
    assert Flag.objects.filter(conversation=risky).count() == 1


def test_a_reviewers_verdict_stands(risky, reviewer):
    flag = flags_of(risky)["risk_signal"]
    resolve_flag(flag, status=FlagStatus.CONFIRMED, actor=reviewer, note="real")
    Turn.objects.filter(conversation=risky, number=1).update(
        user_message="I want to end it all. Really."
    )
    compute_flags([risky.pk], actor_label="test")
    flag.refresh_from_db()
    assert flag.status == FlagStatus.CONFIRMED and flag.resolved_by == reviewer


def test_computing_opens_the_qa_record(risky):
    flags_of(risky)
    qa = ConversationReview.objects.get(conversation=risky)
    assert qa.status == "pending" and qa.flags_computed_at is not None


def test_the_command_checks_completed_conversations(study, risky):
    make_conversation(study)
    out = StringIO()
    call_command("compute_flags", "--study", study.slug, stdout=out)
    assert "checked 2 conversations: 1 flags raised" in out.getvalue()
    out = StringIO()
    call_command("compute_flags", "--only-new", stdout=out)
    assert "checked 0 conversations" in out.getvalue()


def test_a_completed_conversation_saved_outside_the_write_path_queues_nothing(
    study, sent_tasks, django_capture_on_commit_callbacks
):
    """Flags come from the service that completes a conversation (test_completion.py), not
    from a signal on every save: an import or a script saving rows asks for nothing."""
    conversation = make_conversation(study)
    Conversation.objects.filter(pk=conversation.pk).update(state=ConversationState.POST_SURVEY)
    conversation.refresh_from_db()
    conversation.state = ConversationState.COMPLETED
    with django_capture_on_commit_callbacks(execute=True):
        conversation.save(update_fields=["state"])
    assert sent_tasks[COMPUTE_FLAGS] == []


def test_the_task_computes_and_tolerates_a_missing_conversation(risky):
    from annotations.qa.tasks import compute_flags_task

    assert compute_flags_task(risky.pk) == 1
    assert compute_flags_task(risky.pk) == 0  # idempotent on retry
    assert compute_flags_task(999_999) == 0


def test_chat_backend_can_raise_its_own_flag(risky):
    from annotations.qa.services.flagging import raise_flag

    flag = raise_flag(
        risky,
        actor=None,
        summary="risk phrase during chat",
        severity="critical",
        flag_type="risk_signal",
        source="chat",
        turn_numbers=[1],
    )
    assert flag.source == "chat" and flag.created_by is None
