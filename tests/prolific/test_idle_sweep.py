"""A conversation of a Prolific study idle past the study's bound is abandoned by the sweep and
its place freed (audited); one within the bound is left alone; a second sweep changes nothing;
the participant who comes back sees a clear ending (no code, no crash)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.models import AuditEntry, Conversation, ConversationState, ProlificLink, Turn
from annotations.prolific.places import sweep_idle_conversations
from annotations.services.progress import Step, progress_of
from attune_collect.sweep import steps
from tests.prolific.conftest import arrive

pytestmark = pytest.mark.django_db


def test_idle_conversations_are_abandoned_once(linked_study, prolific_server):
    ProlificLink.objects.filter(study=linked_study).update(idle_abandon_minutes=60)
    idle, active = arrive(linked_study, prolific_server), arrive(linked_study, prolific_server)
    chatting = arrive(linked_study, prolific_server)
    long_ago = timezone.now() - timedelta(minutes=61)
    Conversation.objects.filter(participant__in=[idle.participant, chatting.participant]).update(
        updated_at=long_ago
    )
    # A message a minute ago: the conversation row is old, the chat is not (turns do not
    # touch it).
    Turn.objects.create(
        conversation=Conversation.objects.get(participant=chatting.participant),
        number=1,
        user_message="still here",
        started_at=timezone.now() - timedelta(minutes=1),
    )
    assert sweep_idle_conversations() == 1
    assert sweep_idle_conversations() == 0
    states = dict(Conversation.objects.values_list("participant_id", "state"))
    assert states[idle.participant.pk] == ConversationState.ABANDONED
    assert states[active.participant.pk] == ConversationState.CONSENTED
    assert states[chatting.participant.pk] == ConversationState.CONSENTED
    freed = AuditEntry.objects.get(action="prolific.place.freed")
    assert freed.data["reason"] == "idle"
    idle.participant.refresh_from_db()
    progress = progress_of(idle.participant)
    assert progress.step == Step.SCREENED_OUT and progress.screenout is None


def test_the_workers_sweep_runs_it():
    assert sweep_idle_conversations in [s.step for s in steps()]
