"""The annotation step after each model reply: which questions a turn asks, and the submit.

When a reply is stored, ``open_step`` picks the turn's behaviour questions and pairwise
questions (rotating, see question_rotation.py), randomises which reply is A and which is B,
records all of it, and asks a worker for the "improved" reply after commit. ``submit``
validates every value against the study's instrument before writing anything, so a bad
value changes nothing.

The comparison waits for the improved reply at most ``improved_reply_timeout()`` from the
moment the step opened (``ATTUNE_IMPROVED_REPLY_TIMEOUT_S``, attune_collect/config.py). The
rule, the same for the step, the submit and the improver:

- within the limit a pending reply is reported ``pending``; a reply that is ready within the
  limit stays ``ready``. While it is pending the participant can save every other answer
  (mood, behaviour, their version of the reply): they are stored (``answers_saved_at``) but
  the step is not submitted, and an A/B choice is refused (there is nothing to compare yet).
  The save once the comparison is answered (or skipped) submits the step, its answers
  replacing those saved before;
- past the limit a reply still pending is reported ``unavailable`` and the submit skips the
  comparison (no choices stored, ``selected_pairwise_questions`` emptied, as for a failed
  improver, so the released record has no comparison at that turn);
- a reply that arrives after the limit is stored (status ``ready``, ``improved_meta.late``)
  but the comparison stays ``unavailable``: once skipped, never reopened, so what the
  participant was told and what is stored agree.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations import dispatch
from annotations.audit_actions import AuditAction
from annotations.models import (
    BehaviourJudgement,
    Conversation,
    ConversationState,
    ImprovedStatus,
    MoodTag,
    PairwiseChoice,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
)
from annotations.models.study import ATTENTION_OPTIONS
from annotations.services.audit import record_audit
from annotations.services.drafts import clear_drafts
from annotations.services.errors import FlowError, invalid
from annotations.services.participants import actor_for, current_conversation, require_active
from annotations.services.question_rotation import take_next
from annotations.services.scale_values import on_scale
from annotations.services.study_instrument import instrument_of
from attune_collect.compiled_query import CompiledQuery
from attune_collect.config import attune_config
from attune_collect.dispatch import resend_bound
from attunebench.instrument import Instrument as InstrumentDefinition
from attunebench.vocabulary import ANSWER_VALUES, WINNERS

GENERAL_QUESTION = "general"  # the overall preference: asked at every turn that compares
MAX_EDITED_REPLY_CHARS = 8000
MAX_TIMING_KEYS = 20
_ORIGINAL, _ALTERNATE = "original", "alternate"


def draft_key(turn_number: int) -> str:
    return f"annotation:{turn_number}"


def open_step(turn: Turn, study: Study) -> TurnAnnotation:
    """Create the turn's annotation step. Call inside the transaction that stores the reply."""
    instrument = instrument_of(study)
    behaviour = take_next(
        study, "behaviour", instrument.behaviour_ids, study.behaviour_questions_per_turn
    )
    improver_id = study.improver_endpoint_id
    pairwise = _pairwise_questions(study, instrument) if improver_id else []
    # One orientation per turn: on a phone, A and B swapping between questions would confuse.
    a, b = (_ORIGINAL, _ALTERNATE) if secrets.randbelow(2) else (_ALTERNATE, _ORIGINAL)
    # An attention check where the study places one: the instructed option drawn per step,
    # so a participant cannot learn one answer and give it everywhere.
    attention = (
        secrets.choice(ATTENTION_OPTIONS) if turn.number in study.attention_check_turns else ""
    )
    now = timezone.now()
    annotation = TurnAnnotation.objects.create(
        turn=turn,
        shown_behaviour_questions=behaviour,
        selected_pairwise_questions=pairwise,
        pairwise_plan=[{"question_id": q, "response_a": a, "response_b": b} for q in pairwise],
        started_at=now,
        improver_endpoint_id=improver_id,
        improved_status=ImprovedStatus.PENDING if improver_id else ImprovedStatus.UNAVAILABLE,
        improver_resend_at=now + improver_resend_after() if improver_id else None,
        attention_expected=attention,
    )
    if improver_id:
        dispatch.improve_reply(turn.pk)  # after commit: the worker must see the turn
    return annotation


def _pairwise_questions(study: Study, instrument: InstrumentDefinition) -> list[str]:
    k = study.pairwise_questions_per_turn
    fixed = [GENERAL_QUESTION] if GENERAL_QUESTION in instrument.pairwise_ids and k else []
    others = [q for q in instrument.pairwise_ids if q != GENERAL_QUESTION]
    return fixed + take_next(study, "pairwise", others, k - len(fixed))


def improved_reply_timeout() -> timedelta:
    """How long a participant waits for the improved reply before the comparison is skipped
    (from the step's opening; ``ATTUNE_IMPROVED_REPLY_TIMEOUT_S``, checked by the config)."""
    return timedelta(seconds=attune_config().improved_reply_timeout_s)


def improver_resend_after() -> timedelta:
    """How long the improved reply's task may go untaken before the sweep sends it again: a
    sixth of the comparison's window, so a message lost to a broker error still has a chance
    to reach the participant in time (never longer than the bound for any untaken work)."""
    return min(improved_reply_timeout() / 6, resend_bound())


def improved_reply_overdue(annotation: TurnAnnotation, now: datetime | None = None) -> bool:
    """True once the step has waited its limit for the improved reply."""
    if annotation.started_at is None:  # imported records: no live comparison at all
        return False
    return (now or timezone.now()) - annotation.started_at >= improved_reply_timeout()


def comparison_status(annotation: TurnAnnotation, now: datetime | None = None) -> str:
    """Where the turn's comparison stands for the participant (an ``ImprovedStatus`` value).

    The stored status of the improved reply, except that a reply still pending past the limit,
    or one that arrived after it, is ``unavailable`` (see the module's docstring).
    """
    status = annotation.improved_status
    if status == ImprovedStatus.PENDING and improved_reply_overdue(annotation, now):
        return ImprovedStatus.UNAVAILABLE
    if status == ImprovedStatus.READY and annotation.improved_meta.get("late"):
        return ImprovedStatus.UNAVAILABLE
    return status


def comparison_pending(annotation: TurnAnnotation) -> bool:
    """True while the turn plans a comparison whose second reply is still awaited."""
    return bool(annotation.pairwise_plan) and (
        comparison_status(annotation) == ImprovedStatus.PENDING
    )


def comparison_texts(annotation: TurnAnnotation) -> dict[str, str] | None:
    """The texts shown as A and B, once the improved reply exists (labels stay server-side)."""
    if not annotation.pairwise_plan or comparison_status(annotation) != ImprovedStatus.READY:
        return None
    texts = {_ORIGINAL: annotation.turn.model_reply, _ALTERNATE: annotation.llm_improved_reply}
    first = annotation.pairwise_plan[0]
    return {"A": texts[first["response_a"]] or "", "B": texts[first["response_b"]] or ""}


@dataclass(frozen=True)
class AnnotationInput:
    mood_tags: list[Mapping[str, Any]]
    behaviour: Mapping[str, Mapping[str, Any]]
    edited_reply: str | None = None
    pairwise: Mapping[str, Any] | None = None
    timings: Mapping[str, Any] | None = None
    attention: str | None = None


def _step_of_turn(*, lock: bool) -> CompiledQuery:
    def build(conversation_id: int, turn_number: int) -> QuerySet[TurnAnnotation]:
        query = TurnAnnotation.objects.select_related("turn")
        if lock:
            query = query.select_for_update(of=("self",))  # the step's row only
        # A turn number is unique in its conversation: at most one row, no ordering needed.
        return query.filter(turn__conversation_id=conversation_id, turn__number=turn_number)[:1]

    return CompiledQuery(build)


# Read by every annotation GET and submit: built once per connection (compiled_query.py).
_STEP_OF_TURN = {lock: _step_of_turn(lock=lock) for lock in (False, True)}


def step_of_turn(
    conversation: Conversation | None, turn_number: int, *, lock: bool = False
) -> TurnAnnotation:
    """The annotation step of the conversation's turn ``turn_number``, with its turn, and the
    conversation (with its study) as the turn's: joined again, the study's wide row would be
    built twice. ``lock`` locks the step's row only. No conversation, no step: ``not_found``."""
    annotation = (
        None if conversation is None else _STEP_OF_TURN[lock].first(conversation.pk, turn_number)
    )
    if annotation is None:
        raise FlowError("not_found", f"Turn {turn_number} has no reply to annotate.")
    annotation.turn.conversation = conversation
    return annotation


@transaction.atomic
def submit(participant: Participant, turn_number: int, data: AnnotationInput) -> TurnAnnotation:
    """Store the participant's annotation of one reply; refuses without writing on any bad value."""
    require_active(participant)
    conversation = current_conversation(participant, lock=True)
    if conversation is None or conversation.state != ConversationState.CHATTING:
        raise FlowError("wrong_step", "There is no conversation to annotate now.")
    annotation = step_of_turn(conversation, turn_number, lock=True)
    if annotation.submitted_at is not None:
        raise FlowError("already_submitted", "This reply's annotation is already saved.")
    instrument = instrument_of(conversation.study)
    tags = _mood_tags(instrument, data.mood_tags)
    answers = _behaviour(annotation.shown_behaviour_questions, data.behaviour)
    waiting = comparison_pending(annotation)
    if waiting and data.pairwise:
        raise invalid("pairwise", "the comparison is not ready yet")
    winners = None if waiting else _pairwise(annotation, data.pairwise or {})
    edited = _edited_reply(data.edited_reply)
    timings = _timings(data.timings or {})
    attention = _attention(annotation, data.attention)

    if annotation.answers_saved_at is not None:
        # Saved once while the comparison was pending: this save's answers replace those.
        MoodTag.objects.filter(annotation=annotation).delete()
        BehaviourJudgement.objects.filter(annotation=annotation).delete()

    # Each list in one INSERT.
    MoodTag.objects.bulk_create(
        [
            MoodTag(annotation=annotation, position=i, emotion=emotion, intensity=intensity)
            for i, (emotion, intensity) in enumerate(tags)
        ]
    )
    BehaviourJudgement.objects.bulk_create(
        [
            BehaviourJudgement(
                annotation=annotation,
                position=i,
                question_id=qid,
                observed=observed,
                preferred=preferred,
            )
            for i, (qid, observed, preferred) in enumerate(answers)
        ]
    )
    if waiting:
        # Everything but the comparison is stored; the step stays open for the A/B choice
        # (the next message waits for it), and the draft keeps what is not saved yet.
        annotation.human_edited_reply = edited
        annotation.timings = timings
        annotation.attention_answer = attention
        annotation.answers_saved_at = timezone.now()
        annotation.save(
            update_fields=["human_edited_reply", "timings", "attention_answer", "answers_saved_at"]
        )
        record_audit(
            AuditAction.ANNOTATION_SAVE_ANSWERS,
            target=annotation,
            actor_label=actor_for(participant),
            data={"turn": turn_number, "mood_tags": len(tags)},
        )
        return annotation
    if winners is None:  # the comparison never reached the participant
        annotation.selected_pairwise_questions = []
        skipped = {"pairwise_skipped": True}
        stored = annotation.improved_status
        if annotation.pairwise_plan and stored in (ImprovedStatus.PENDING, ImprovedStatus.READY):
            skipped["improved_timed_out"] = True  # planned, but the reply was not in time
        annotation.improved_meta = {**annotation.improved_meta, **skipped}
    else:
        PairwiseChoice.objects.bulk_create(
            [
                PairwiseChoice(
                    annotation=annotation,
                    position=i,
                    question_id=row["question_id"],
                    response_a=row["response_a"],
                    response_b=row["response_b"],
                    winner=winners[row["question_id"]],
                )
                for i, row in enumerate(annotation.pairwise_plan)
            ]
        )
    annotation.human_edited_reply = edited
    annotation.timings = timings
    annotation.attention_answer = attention
    annotation.submitted_at = timezone.now()
    annotation.save(
        update_fields=[
            "human_edited_reply",
            "timings",
            "attention_answer",
            "submitted_at",
            "selected_pairwise_questions",
            "improved_meta",
        ]
    )
    record_audit(
        AuditAction.ANNOTATION_SUBMIT,
        target=annotation,
        actor_label=actor_for(participant),
        data={"turn": turn_number, "mood_tags": len(tags), "pairwise": winners is not None},
    )
    clear_drafts(participant, draft_key(turn_number))
    return annotation


def _mood_tags(
    instrument: InstrumentDefinition, raw: list[Mapping[str, Any]]
) -> list[tuple[str, int]]:
    """PANAS items with an intensity on the instrument's scale; an empty list means no shift."""
    scale = instrument.intensity_scale
    seen: set[str] = set()
    tags = []
    for i, tag in enumerate(raw):
        item = instrument.panas_item(tag.get("emotion", ""))
        if item is None:
            raise invalid(
                f"mood_tags[{i}].emotion",
                f"{tag.get('emotion')!r} is not one of the instrument's emotions",
            )
        if item.id in seen:
            raise invalid(f"mood_tags[{i}].emotion", f"{item.id} is tagged twice")
        intensity = on_scale(f"mood_tags[{i}].intensity", tag.get("intensity"), scale)
        seen.add(item.id)
        tags.append((item.id, intensity))
    return tags


def _behaviour(
    shown: list[str], raw: Mapping[str, Mapping[str, Any]]
) -> list[tuple[str, str, str]]:
    """An observed and a preferred answer (yes/no/na) for exactly the questions shown."""
    for qid in raw:
        if qid not in shown:
            raise invalid(f"behaviour.{qid}", "this question was not asked at this turn")
    answers = []
    for qid in shown:
        answer = raw.get(qid)
        if answer is None:
            raise invalid(f"behaviour.{qid}", "please answer this question")
        for part in ("observed", "preferred"):
            if answer.get(part) not in ANSWER_VALUES:
                raise invalid(
                    f"behaviour.{qid}.{part}", f"must be one of {', '.join(ANSWER_VALUES)}"
                )
        answers.append((qid, answer["observed"], answer["preferred"]))
    return answers


def _pairwise(annotation: TurnAnnotation, raw: Mapping[str, Any]) -> dict[str, str | None] | None:
    """The winner per planned question, or None when the comparison was never shown (the
    caller handles a comparison still pending)."""
    planned = [row["question_id"] for row in annotation.pairwise_plan]
    # Past the limit a pending (or late) reply is "unavailable": the comparison is skipped
    # rather than holding the participant.
    status = comparison_status(annotation)
    if not planned or status in (ImprovedStatus.FAILED, ImprovedStatus.UNAVAILABLE):
        if raw:
            raise invalid("pairwise", "there is no comparison at this turn")
        return None
    for qid in raw:
        if qid not in planned:
            raise invalid(f"pairwise.{qid}", "this question was not asked at this turn")
    winners = {}
    for qid in planned:
        if qid not in raw:
            raise invalid(f"pairwise.{qid}", "please choose A or B (or null for no preference)")
        if raw[qid] is not None and raw[qid] not in WINNERS:
            raise invalid(f"pairwise.{qid}", "must be 'A', 'B' or null")
        winners[qid] = raw[qid]
    return winners


def _attention(annotation: TurnAnnotation, answer: str | None) -> str:
    """The answer to the step's attention check: required where there is one, refused
    elsewhere. Any option is accepted here (a wrong one is QA's flag, not a refusal: telling
    the participant would teach them the check)."""
    if not annotation.attention_expected:
        if answer is not None:
            raise invalid("attention", "there is no attention check at this turn")
        return ""
    if answer is None:
        raise invalid("attention", "please answer this question")
    if answer not in ATTENTION_OPTIONS:
        raise invalid("attention", f"must be one of {', '.join(ATTENTION_OPTIONS)}")
    return answer


def _edited_reply(text: str | None) -> str | None:
    if text is not None and len(text) > MAX_EDITED_REPLY_CHARS:
        raise invalid("edited_reply", f"at most {MAX_EDITED_REPLY_CHARS} characters")
    return text


def _timings(raw: Mapping[str, Any]) -> dict[str, float]:
    if len(raw) > MAX_TIMING_KEYS:
        raise invalid("timings", f"at most {MAX_TIMING_KEYS} entries")
    for key, value in raw.items():
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value < 0
        ):
            raise invalid(f"timings.{key}", "must be a number of seconds, 0 or more")
    return {str(key): float(value) for key, value in raw.items()}
