"""Build ``ConversationSnapshot``s from the database in a fixed number of queries per chunk.

The texts and answers come through the interchange's ``load_records`` (the read path releases
use, built on ``values_list`` rather than model instances); what the format does not carry
(annotation times, live signals, PROLIFIC_PIDs, answers to attention checks in surveys and
in annotation steps, the comprehension check's wrong attempts) is added here with one query
each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from annotations.audit_actions import AuditAction
from annotations.interchange.to_records import load_records
from annotations.models import AuditEntry, Conversation, Participant, TurnAnnotation, TurnSignal
from annotations.qa.flags.base import (
    AttentionAnswer,
    ComprehensionAttempts,
    ConversationSnapshot,
    LiveSignal,
    OtherSession,
    Thresholds,
    TurnSnapshot,
)
from annotations.qa.models import AttentionCheck, StudyQASettings, SurveyPart
from annotations.services.languages import language_in
from attunebench import records


@dataclass(frozen=True)
class LoadedConversation:
    conversation: Conversation  # id, study, external id and participant only
    snapshot: ConversationSnapshot
    thresholds: Thresholds


def thresholds_for(settings: StudyQASettings | None) -> Thresholds:
    if settings is None:
        return Thresholds()
    return Thresholds(
        fast_annotation_seconds=settings.fast_annotation_seconds,
        short_message_chars=settings.short_message_chars,
        min_straightlining_answers=settings.min_straightlining_answers,
    )


def seconds_spent(
    started: datetime | None, submitted: datetime | None, timings: dict | None
) -> float | None:
    """Seconds from opening to submitting an annotation, else the sum of its step timings."""
    if started and submitted:
        return (submitted - started).total_seconds()
    steps = [v for v in (timings or {}).values() if isinstance(v, int | float)]
    return float(sum(steps)) if steps else None


def annotation_seconds(annotation: TurnAnnotation) -> float | None:
    return seconds_spent(annotation.started_at, annotation.submitted_at, annotation.timings)


def load_snapshots(conversation_ids: Sequence[int]) -> list[LoadedConversation]:
    conversations = list(
        Conversation.objects.filter(id__in=conversation_ids)
        .select_related("participant", "study")
        .only(
            "id",
            "study_id",
            "external_id",
            "participant_id",
            "participant__prolific_pid",
            "participant__language",
            "participant__comprehension_attempts",
            "participant__comprehension_passed_at",
            "study__conversations_per_participant",
            "study__languages",
            "study__default_language",
        )
        .order_by("id")
    )
    ids = [c.pk for c in conversations]
    by_id = dict(zip(ids, load_records(ids), strict=True))
    annotated = _annotation_times(ids)
    signals = _signals(ids)
    study_ids = {c.study_id for c in conversations}
    settings = {s.study_id: s for s in StudyQASettings.objects.filter(study_id__in=study_ids)}
    checks: dict[int, list[AttentionCheck]] = defaultdict(list)
    for check in AttentionCheck.objects.filter(study_id__in=study_ids, active=True):
        checks[check.study_id].append(check)
    responses = _profile_responses(ids) if checks else {}
    in_steps = _annotation_step_checks(ids)
    same_pid = _same_pid_sessions(conversations)
    missed = _comprehension_misses(conversations)
    loaded = []
    for c in conversations:
        record = by_id[c.pk]
        turns = tuple(_turn(turn, annotated, signals, c.pk) for turn in record.turns)
        snapshot = ConversationSnapshot(
            conversation_id=c.pk,
            turns=turns,
            attention=tuple(
                _attention(record, responses.get(c.pk, {}), check) for check in checks[c.study_id]
            )
            + tuple(in_steps.get(c.pk, ())),
            same_pid_sessions=same_pid.get(c.pk, ()),
            conversations_allowed=c.study.conversations_per_participant,
            language=language_in(c),  # as the live check reads it (imported ones too)
            comprehension=_comprehension(c.participant, missed),
        )
        loaded.append(LoadedConversation(c, snapshot, thresholds_for(settings.get(c.study_id))))
    return loaded


TurnKey = tuple[int, int]  # (conversation id, turn number)


def _turn(
    turn: records.Turn,
    annotated: dict[TurnKey, float | None],
    signals: dict[TurnKey, list[LiveSignal]],
    conversation_id: int,
) -> TurnSnapshot:
    key = (conversation_id, turn.turn_number)
    judgements = turn.annotations.binary_judgements
    return TurnSnapshot(
        number=turn.turn_number,
        user_message=turn.user_message,
        model_reply=turn.llm_response,
        annotated=key in annotated,  # a TurnAnnotation row exists
        human_edited=turn.annotations.human_edited,
        annotation_seconds=annotated.get(key),
        observed=tuple(j.observed for j in judgements),
        preferred=tuple(j.preferred for j in judgements),
        signals=tuple(signals.get(key, ())),
    )


def _annotation_times(ids: list[int]) -> dict[TurnKey, float | None]:
    """Seconds per annotated turn (None where it has no times); turns without one are absent."""
    rows = TurnAnnotation.objects.filter(turn__conversation_id__in=ids).values_list(
        "turn__conversation_id", "turn__number", "started_at", "submitted_at", "timings"
    )
    return {(c, n): seconds_spent(s, t, timings) for c, n, s, t, timings in rows}


def _signals(ids: list[int]) -> dict[TurnKey, list[LiveSignal]]:
    found: dict[TurnKey, list[LiveSignal]] = defaultdict(list)
    rows = TurnSignal.objects.filter(turn__conversation_id__in=ids).values_list(
        "turn__conversation_id", "turn__number", "kind", "source", "evidence"
    )
    for conversation_id, number, kind, source, evidence in rows:
        evidence = evidence or {}  # emptied when a withdrawn participant's data is erased
        found[conversation_id, number].append(
            LiveSignal(
                kind,
                source,
                tuple(evidence.get("phrases", ())),
                flagged=evidence.get("flagged") is True,
                categories=tuple(evidence.get("categories") or ()),
            )
        )
    return found


# The ``survey`` of an attention check placed in a turn's annotation step (the study's
# ``attention_check_turns``; services/annotation_flow.py), its item ``turn-<number>``.
ANNOTATION_STEP = "annotation"


def _annotation_step_checks(ids: list[int]) -> dict[int, list[AttentionAnswer]]:
    """The attention checks shown in annotation steps, with the answers given (None while the
    step is unanswered: not a failure), in one query."""
    rows = (
        TurnAnnotation.objects.filter(turn__conversation_id__in=ids)
        .exclude(attention_expected="")
        .order_by("turn__conversation_id", "turn__number")
        .values_list(
            "turn__conversation_id", "turn__number", "attention_expected", "attention_answer"
        )
    )
    found: dict[int, list[AttentionAnswer]] = defaultdict(list)
    for conversation_id, number, expected, given in rows:
        found[conversation_id].append(
            AttentionAnswer(
                survey=ANNOTATION_STEP,
                item_key=f"turn-{number}",
                expected=(expected,),
                given=given or None,
            )
        )
    return found


def _comprehension(
    participant: Participant, missed: dict[int, list[tuple[str, ...]]]
) -> ComprehensionAttempts:
    return ComprehensionAttempts(
        failed=participant.comprehension_attempts,
        passed=participant.comprehension_passed_at is not None,
        missed=tuple(missed.get(participant.pk, ())),
    )


def _comprehension_misses(conversations: list[Conversation]) -> dict[int, list[tuple[str, ...]]]:
    """Per participant who failed the comprehension check at least once, the questions each
    wrong attempt missed, from the audit (one query, only when there is such a participant)."""
    failed = {str(c.participant_id) for c in conversations if c.participant.comprehension_attempts}
    if not failed:
        return {}
    rows = (
        AuditEntry.objects.filter(
            action=AuditAction.PARTICIPANT_COMPREHENSION.value,
            target_type=Participant._meta.label_lower,
            target_id__in=failed,
            data__passed=False,
        )
        .order_by("pk")
        .values_list("target_id", "data")
    )
    found: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for target_id, data in rows:
        found[int(target_id)].append(tuple(str(q) for q in (data or {}).get("wrong", ())))
    return found


def _profile_responses(ids: list[int]) -> dict[int, dict]:
    """Profile answers, also of participants whose record carries no profile (not submitted)."""
    return dict(Conversation.objects.filter(id__in=ids).values_list("id", "participant__responses"))


def _attention(
    record: records.Conversation, responses: dict, check: AttentionCheck
) -> AttentionAnswer:
    return AttentionAnswer(
        survey=check.survey,
        item_key=check.item_key,
        expected=tuple(str(e) for e in check.expected_answers),
        given=_answer_store(record, responses, check.survey).get(check.item_key),
    )


def _answer_store(record: records.Conversation, responses: dict, survey: str) -> dict:
    """Where each survey keeps answers that are not part of the AttuneBench format."""
    if survey == SurveyPart.PROFILE:
        return responses or {}
    if survey in (SurveyPart.PRE_PANAS, SurveyPart.POST_PANAS):
        panas = record.pre_panas if survey == SurveyPart.PRE_PANAS else record.post_panas
        return panas.other if panas else {}
    return record.conversation_wide.other if record.conversation_wide else {}


def _same_pid_sessions(conversations: list[Conversation]) -> dict[int, tuple[OtherSession, ...]]:
    """Other conversations whose participant has the same PROLIFIC_PID, in one query."""
    pids = {c.participant.prolific_pid for c in conversations if c.participant.prolific_pid}
    if not pids:
        return {}
    rows = Conversation.objects.filter(participant__prolific_pid__in=pids).values_list(
        "id", "external_id", "study_id", "study__slug", "participant__prolific_pid"
    )
    by_pid: dict[str, list[tuple]] = defaultdict(list)
    for row in rows:
        by_pid[row[4]].append(row)
    result = {}
    for c in conversations:
        others = tuple(
            OtherSession(external_id=ext, study_slug=slug, same_study=study_id == c.study_id)
            for pk, ext, study_id, slug, _ in by_pid.get(c.participant.prolific_pid, ())
            if pk != c.pk
        )
        if others:
            result[c.pk] = others
    return result
