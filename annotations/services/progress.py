"""Where a participant stands: the step their app should show, read from the database.

The participant app is a thin renderer of this: after any call it can ask for the session
and show the step, which is how a reload, a second device or a dropped connection resume.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from annotations.models import (
    Conversation,
    ConversationState,
    PanasPhase,
    Participant,
    Turn,
    TurnStatus,
)
from annotations.services import comprehension, safety
from annotations.services.languages import country_of
from annotations.services.participants import current_conversation
from annotations.services.study_links import prolific_return_url


class Step(StrEnum):
    CONSENT = "consent"
    COMPREHENSION = "comprehension"
    PROFILE = "profile"
    PRE_PANAS = "pre_panas"
    TOPIC = "topic"
    CHAT = "chat"
    POST_PANAS = "post_panas"
    POST_SURVEY = "post_survey"
    COMPLETE = "complete"
    SCREENED_OUT = "screened_out"
    WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class ExitCode:
    """A Prolific code and where to send the participant with it (None for previews)."""

    code: str
    redirect_url: str | None


@dataclass(frozen=True)
class ChatState:
    turns: list[Turn]
    answered: int
    can_send: bool
    can_finish: bool


@dataclass(frozen=True)
class Progress:
    participant: Participant
    step: Step
    conversation: Conversation | None
    conversation_number: int
    chat: ChatState | None
    support: safety.SupportNotice | None  # shown for the rest of the session after a risk signal
    completion: ExitCode | None
    screenout: ExitCode | None
    comprehension: comprehension.ComprehensionCheck | None = None


def progress_of(participant: Participant) -> Progress:
    conversation = current_conversation(participant)
    step = _step(participant, conversation)
    number = (
        Conversation.objects.filter(participant=participant, pk__lte=conversation.pk).count()
        if conversation is not None
        else 0
    )
    study = participant.study
    return Progress(
        participant=participant,
        step=step,
        conversation=conversation,
        conversation_number=number,
        chat=chat_state(conversation) if step == Step.CHAT and conversation is not None else None,
        support=_support(conversation),
        completion=_exit(participant, study.completion_code) if step == Step.COMPLETE else None,
        # A place freed by Prolific (returned, timed out) or by inactivity ends the study
        # without a code: the submission is already closed on Prolific's side.
        screenout=_exit(participant, study.screenout_code)
        if step == Step.SCREENED_OUT and participant.place_freed_at is None
        else None,
        comprehension=comprehension.check_for(participant) if step == Step.COMPREHENSION else None,
    )


def _support(conversation: Conversation | None) -> safety.SupportNotice | None:
    if conversation is None:
        return None
    participant = conversation.participant
    return safety.latest_notice(
        conversation.pk, conversation.study, participant.language, country_of(participant)
    )


def _exit(participant: Participant, code: str) -> ExitCode:
    # A researcher's preview must never be sent to Prolific with a real code.
    return ExitCode(
        code=code, redirect_url=None if participant.is_preview else prolific_return_url(code)
    )


_STEP_OF_STATE: dict[str, Step] = {
    ConversationState.CONSENTED: Step.PROFILE,
    ConversationState.CHATTING: Step.CHAT,
    ConversationState.COMPLETED: Step.COMPLETE,
    ConversationState.EXCLUDED: Step.COMPLETE,  # a QA decision after the fact changes nothing for them
    ConversationState.ABANDONED: Step.WITHDRAWN,
}


def _step(participant: Participant, conversation: Conversation | None) -> Step:
    if participant.withdrawn:
        return Step.WITHDRAWN
    if participant.screened_out_at is not None or participant.place_freed_at is not None:
        return Step.SCREENED_OUT
    if participant.consented_at is None or conversation is None:
        return Step.CONSENT
    if conversation.state == ConversationState.CONSENTED and comprehension.applies(participant):
        return Step.COMPREHENSION  # right after consent, before anything else is asked
    if conversation.state == ConversationState.PROFILED:
        has_pre = conversation.panas_responses.filter(phase=PanasPhase.PRE).exists()
        return Step.TOPIC if has_pre else Step.PRE_PANAS
    if conversation.state == ConversationState.POST_SURVEY:
        has_post = conversation.panas_responses.filter(phase=PanasPhase.POST).exists()
        return Step.POST_SURVEY if has_post else Step.POST_PANAS
    return _STEP_OF_STATE[conversation.state]


def chat_state(conversation: Conversation) -> ChatState:
    turns = list(conversation.turns.select_related("annotation").order_by("number"))
    answered = sum(1 for t in turns if _answered(t))
    last = turns[-1] if turns else None
    settled = last is None or _answered(last)
    done = sum(1 for t in turns if t.status == TurnStatus.DONE)
    study = conversation.study
    chatting = conversation.state == ConversationState.CHATTING
    return ChatState(
        turns=turns,
        answered=answered,
        can_send=chatting and settled and done < study.max_turns,
        can_finish=chatting and settled and answered >= study.min_turns,
    )


def _answered(turn: Turn) -> bool:
    annotation = getattr(turn, "annotation", None)
    return (
        turn.status == TurnStatus.DONE
        and annotation is not None
        and annotation.submitted_at is not None
    )
