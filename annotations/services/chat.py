"""The chat: a participant's message is stored before any model call, the reply is stored when
the stream ends, and a failure leaves a turn that can be retried.

The streaming view calls these in short synchronous steps around the model stream (see
participant_api/streaming.py): ``accept_message`` / ``retry_turn`` before, then
``record_reply`` or ``record_failure`` after. Nothing here holds a database connection while
the model talks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import (
    Conversation,
    ConversationState,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
    TurnStatus,
)
from annotations.services import safety
from annotations.services.annotation_flow import open_step
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.drafts import clear_drafts
from annotations.services.errors import FlowError, invalid
from annotations.services.languages import language_in
from annotations.services.model_configs import gateway_config_of, system_prompt_of
from annotations.services.participants import actor_for, current_conversation, require_active
from annotations.services.withdrawal import WITHDREW_MID_REPLY
from attune_collect.compiled_query import CompiledQuery
from attune_collect.config import attune_config
from attune_collect.llm import Completion, EndpointConfig

MAX_MESSAGE_CHARS = 4000
MESSAGE_DRAFT_KEY = "message"


# One stream owns a streaming turn. Each stream started for a turn takes a new claim
# (``Turn.stream_claim``) and a lease the stream renews while it lives, through upstream
# Retry-After waits and slow tokens alike (participant_api/turn_lease.py). A retry is refused
# while the lease holds; once it lapses (the owner's process died) a retry takes over. A
# failure is recorded only by the current owner, and a complete reply is stored whichever
# stream brings it first: a reply that reached the participant is never thrown away.
# The lease's length is ``ATTUNE_CHAT_TURN_LEASE_S`` (attune_collect/config.py).
def turn_lease() -> timedelta:
    return timedelta(seconds=attune_config().chat_turn_lease_s)


@dataclass(frozen=True)
class ChatPlan:
    """What the streaming view needs to call the model without touching the database."""

    turn_id: int
    turn_number: int
    claim: int  # the stream's claim on the turn (renews the lease, records a failure)
    user_message: str
    endpoint: EndpointConfig
    messages: list[dict[str, str]]
    support: safety.SupportNotice | None
    replay: str | None = None  # the stored reply, when a repeated submit finds the turn done


# What storing a reply sets on its turn (record_reply).
REPLY_FIELDS = (
    "model_reply",
    "status",
    "finished_at",
    "latency_ms",
    "time_to_first_token_ms",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "finish_reason",
    "attempts",
    "error",
    "lease_expires_at",
)


@dataclass(frozen=True)
class ReplyResult:
    turn: Turn
    annotation: TurnAnnotation


def _chatting_conversation(participant: Participant) -> Conversation:
    require_active(participant)
    conversation = current_conversation(participant, lock=True, with_model=True)
    if conversation is None or conversation.state != ConversationState.CHATTING:
        raise FlowError("wrong_step", "The chat is not open now.")
    return conversation


# A message's earlier turns (with when each was answered) and a reply's turn are read on every
# message: their SQL is built once per connection (attune_collect/compiled_query.py).
_TURNS_ANSWERED: CompiledQuery[Turn] = CompiledQuery(
    lambda conversation_id: (
        Turn.objects.filter(conversation_id=conversation_id)
        .annotate(answered_at=F("annotation__submitted_at"))
        .order_by("number")
    )
)
_TURN_TO_SETTLE = CompiledQuery(
    lambda turn_id: (
        Turn.objects.select_for_update(of=("self",))  # not the study: replies queue
        .select_related("conversation__study")
        .filter(pk=turn_id)[:1]
    )
)


@transaction.atomic
def accept_message(participant: Participant, text: str, idempotency_key: str) -> ChatPlan:
    """Store the participant's message as a new turn (or find the turn this key made)."""
    conversation = _chatting_conversation(participant)
    # One query for everything below: a chat has at most max_turns turns. Of the annotation
    # steps the order check reads only when each was answered: one column, not every step's
    # row with its six JSON fields (about 1 ms less CPU per message at 12 turns, measured).
    turns = _TURNS_ANSWERED.all(conversation.pk)
    for turn in turns:
        turn.conversation = conversation  # as the related manager would set it
    existing = next((t for t in turns if t.idempotency_key == idempotency_key), None)
    if existing is not None:
        if existing.user_message != text:
            raise FlowError(
                "idempotency_key_reused",
                "This idempotency key was already used for a different message.",
            )
        # Read again, locked: _resume decides on the turn's status (see retry_turn).
        return _resume(
            conversation, Turn.objects.select_for_update().get(pk=existing.pk), participant
        )
    if not text.strip():
        raise invalid("text", "write a message first")
    if len(text) > MAX_MESSAGE_CHARS:
        raise invalid("text", f"at most {MAX_MESSAGE_CHARS} characters ({len(text)} given)")
    last = turns[-1] if turns else None
    _check_turn_order(conversation, last)
    now = timezone.now()
    # The participant's language (else the study's default): the risk check and QA read it.
    language = language_in(conversation)
    turn = Turn.objects.create(
        conversation=conversation,
        number=last.number + 1 if last else 1,
        user_message=text,
        status=TurnStatus.STREAMING,
        idempotency_key=idempotency_key,
        started_at=now,
        stream_claim=1,
        lease_expires_at=now + turn_lease(),
        risk_read_due_at=safety.model_read_due(language, now),
    )
    actor = actor_for(participant)
    record_audit(
        AuditAction.TURN_MESSAGE,
        target=turn,
        actor_label=actor,
        data={"number": turn.number, "chars": len(text)},
    )
    support = safety.check_message(turn, conversation.study, actor_label=actor, language=language)
    clear_drafts(participant, MESSAGE_DRAFT_KEY)
    return _plan(conversation, turn, support, earlier=turns)


def _check_turn_order(conversation: Conversation, last: Turn | None) -> None:
    if last is None:
        return
    if last.status == TurnStatus.FAILED:
        raise FlowError(
            "out_of_turn",
            "Your last message got no reply yet. Please retry it first.",
            data={"turn": last.number},
        )
    if last.status != TurnStatus.DONE:
        raise FlowError(
            "out_of_turn",
            "Please wait for the reply to your last message.",
            data={"turn": last.number},
        )
    if last.answered_at is None:  # type: ignore[attr-defined]  # annotated by accept_message
        raise FlowError(
            "out_of_turn",
            "Please answer the questions about the last reply first.",
            data={"turn": last.number},
        )
    # Every turn before an answered one is answered too (this check admits no other order),
    # so the last number is the count of replies: no COUNT query on the way to the model.
    if last.number >= conversation.study.max_turns:
        raise FlowError(
            "max_turns_reached",
            f"This chat has reached its limit of {conversation.study.max_turns} messages.",
        )


@transaction.atomic
def retry_turn(participant: Participant, turn_number: int) -> ChatPlan:
    """Ask the model again for a turn whose reply failed (or was lost mid-stream)."""
    conversation = _chatting_conversation(participant)
    turn = conversation.turns.select_for_update().filter(number=turn_number).first()
    if turn is None:
        raise FlowError("not_found", f"There is no message {turn_number}.")
    return _resume(conversation, turn, participant)


def _resume(conversation: Conversation, turn: Turn, participant: Participant) -> ChatPlan:
    """A turn met again (repeated submit or retry): replay it, restart it, or refuse.

    The caller has locked the turn: a stream whose lease lapsed may still store its reply
    (``record_reply`` locks the turn), and a restart decided on a status read before that
    commit would set the answered turn streaming again, for a second model call whose reply
    could never be stored."""
    support = safety.notice_for_turn(turn, conversation.study)
    if turn.status == TurnStatus.DONE:
        return _plan(conversation, turn, support, replay=turn.model_reply)
    now = timezone.now()
    if turn.status == TurnStatus.STREAMING and _owner_lives(turn, now):
        raise FlowError(
            "turn_in_progress",
            "The reply to this message is still on its way.",
            data={"turn": turn.number},
        )
    turn.status = TurnStatus.STREAMING
    turn.error = ""
    turn.started_at = now
    turn.stream_claim += 1
    turn.lease_expires_at = now + turn_lease()
    turn.save(update_fields=["status", "error", "started_at", "stream_claim", "lease_expires_at"])
    record_audit(
        AuditAction.TURN_RETRY,
        target=turn,
        actor_label=actor_for(participant),
        data={"number": turn.number},
    )
    return _plan(conversation, turn, support)


@dataclass(frozen=True)
class FollowPlan:
    """A turn as a re-attaching stream finds it (``participant_api/reply_runs.py``)."""

    turn_id: int
    turn_number: int
    claim: int
    status: str
    user_message: str
    reply: str
    withdrawn: bool  # failed because its participant withdrew while it streamed
    owner_lives: bool
    support: safety.SupportNotice | None


def turn_to_follow(participant: Participant, turn_number: int) -> FollowPlan:
    """Read one of the participant's own turns to follow its reply (nothing is written: a
    re-attach never starts a model call). Another participant's turn is not found."""
    conversation = current_conversation(participant)
    turn = None
    if conversation is not None:
        turn = conversation.turns.filter(number=turn_number).first()
    if conversation is None or turn is None:
        raise FlowError("not_found", f"There is no message {turn_number}.")
    return FollowPlan(
        turn_id=turn.pk,
        turn_number=turn.number,
        claim=turn.stream_claim,
        status=turn.status,
        user_message=turn.user_message,
        reply=turn.model_reply,
        withdrawn=turn.error == WITHDREW_MID_REPLY,
        owner_lives=_owner_lives(turn, timezone.now()),
        support=safety.notice_for_turn(turn, conversation.study),
    )


def owner_lives(turn: Turn) -> bool:
    """Whether the stream that owns the turn is alive (its lease holds)."""
    return _owner_lives(turn, timezone.now())


def _owner_lives(turn: Turn, now) -> bool:
    return turn.lease_expires_at is not None and turn.lease_expires_at > now


@transaction.atomic
def renew_leases(claims: Mapping[int, int]) -> set[int]:
    """Extend the leases of the streams holding these claims (turn id -> claim) in two
    statements, however many there are; returns the turns they still own (the others were
    settled, or taken over after their lease lapsed)."""
    if not claims:
        return set()
    streaming = Turn.objects.select_for_update().filter(
        pk__in=list(claims), status=TurnStatus.STREAMING
    )
    owned = {pk for pk, claim in streaming.values_list("pk", "stream_claim") if claims[pk] == claim}
    if owned:
        Turn.objects.filter(pk__in=owned).update(lease_expires_at=timezone.now() + turn_lease())
    return owned


def _plan(
    conversation: Conversation,
    turn: Turn,
    support: safety.SupportNotice | None,
    replay: str | None = None,
    earlier: Sequence[Turn] | None = None,
) -> ChatPlan:
    return ChatPlan(
        turn_id=turn.pk,
        turn_number=turn.number,
        claim=turn.stream_claim,
        user_message=turn.user_message,
        endpoint=gateway_config_of(conversation),
        messages=[] if replay is not None else model_messages(conversation, turn, earlier),
        support=support,
        replay=replay,
    )


def model_messages(
    conversation: Conversation, turn: Turn, turns: Sequence[Turn] | None = None
) -> list[dict[str, str]]:
    """The model's view: its system prompt (the snapshot's), the finished turns before this one, this message.

    ``turns`` may be the conversation's turns when the caller has them already.
    """
    if turns is None:
        turns = list(conversation.turns.order_by("number"))
    messages = []
    system_prompt = system_prompt_of(conversation)
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    for earlier in turns:
        if earlier.number < turn.number and earlier.status == TurnStatus.DONE:
            messages += [
                {"role": "user", "content": earlier.user_message},
                {"role": "assistant", "content": earlier.model_reply},
            ]
    messages.append({"role": "user", "content": turn.user_message})
    return messages


@transaction.atomic
def record_reply(turn_id: int, completion: Completion) -> ReplyResult | None:
    """Store a finished reply with its metadata and open the annotation step.

    The participant has seen this reply, so it is stored whichever stream brings it, unless
    the turn already has one, or its participant withdrew while it streamed (then None:
    nothing is stored, ``withdrawal.py``). A turn another stream marked failed meanwhile is
    answered by it too.
    """
    turn = _TURN_TO_SETTLE.first(turn_id)
    if turn is None:
        raise Turn.DoesNotExist(f"no turn {turn_id}")
    if turn.status == TurnStatus.DONE or turn.error == WITHDREW_MID_REPLY:
        return None
    conversation = turn.conversation
    turn.model_reply = completion.text
    turn.status = TurnStatus.DONE
    turn.finished_at = timezone.now()
    turn.latency_ms = round(completion.latency_ms)
    turn.time_to_first_token_ms = _rounded(completion.time_to_first_token_ms)
    turn.prompt_tokens = completion.prompt_tokens
    turn.completion_tokens = completion.completion_tokens
    turn.cost_usd = round(completion.cost_usd, 6)
    turn.finish_reason = completion.finish_reason or ""
    turn.attempts += completion.attempts
    turn.error = ""
    turn.lease_expires_at = None
    turn.save(update_fields=REPLY_FIELDS)
    if not conversation.model_version:
        conversation.model_version = completion.model[:120]
        conversation.save(update_fields=["model_version", "updated_at"])
    record_audit(
        AuditAction.TURN_REPLY,
        target=turn,
        actor_label="system",
        data={
            "number": turn.number,
            "latency_ms": turn.latency_ms,
            "completion_tokens": turn.completion_tokens,
        },
    )
    safety.check_reply(turn, completion.text, "model_reply")
    return ReplyResult(turn=turn, annotation=open_step(turn, conversation.study))


@transaction.atomic
def record_failure(
    turn_id: int, message: str, *, claim: int, attempts: int = 0, kind: str = ""
) -> Turn:
    """Mark a turn failed (retryable): the message stays, the participant can ask again.

    Only the stream that owns the turn (``claim``) may: a stream whose turn was taken over
    must not fail the turn another stream is answering.
    """
    turn = Turn.objects.select_for_update().get(pk=turn_id)
    if turn.status != TurnStatus.STREAMING or turn.stream_claim != claim:
        return turn
    turn.status = TurnStatus.FAILED
    turn.error = message[:2000]
    turn.finished_at = timezone.now()
    turn.attempts += attempts
    turn.lease_expires_at = None
    turn.save(update_fields=["status", "error", "finished_at", "attempts", "lease_expires_at"])
    record_audit(
        AuditAction.TURN_FAIL,
        target=turn,
        actor_label="system",
        data={"number": turn.number, "kind": kind, "attempts": attempts},
    )
    return turn


@transaction.atomic
def finish_chat(participant: Participant) -> Conversation:
    """End the chat (at least the study's minimum of answered turns) and open the post-survey."""
    conversation = _chatting_conversation(participant)
    last = conversation.turns.select_related("annotation").order_by("-number").first()
    answered = conversation.turns.filter(
        status=TurnStatus.DONE, annotation__submitted_at__isnull=False
    ).count()
    study: Study = conversation.study
    if answered < study.min_turns:
        raise FlowError(
            "min_turns_not_reached",
            f"Please send at least {study.min_turns} messages and answer the questions about each reply.",
            data={"answered": answered, "min_turns": study.min_turns},
        )
    annotation = getattr(last, "annotation", None)
    if last is not None and (annotation is None or annotation.submitted_at is None):
        # A failed last message that is never retried, or an annotation left open: finish it first.
        raise FlowError(
            "out_of_turn", "Please finish the last message first.", data={"turn": last.number}
        )
    move(conversation, ConversationState.POST_SURVEY, actor_label=actor_for(participant))
    return conversation


def _rounded(value: float | None) -> int | None:
    return None if value is None else round(value)
