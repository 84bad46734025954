"""Build ``ConversationSnapshot``s from the database in a fixed number of queries per chunk."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch

from annotations.models import BehaviourJudgement, Conversation, Turn
from annotations.qa.flags.base import (
    AttentionAnswer,
    ConversationSnapshot,
    OtherSession,
    Thresholds,
    TurnSnapshot,
)
from annotations.qa.models import AttentionCheck, StudyQASettings, SurveyPart


@dataclass(frozen=True)
class LoadedConversation:
    conversation: Conversation
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


def load_snapshots(conversation_ids: Sequence[int]) -> list[LoadedConversation]:
    turns = Turn.objects.select_related("annotation").prefetch_related(
        Prefetch(
            "annotation__behaviour_judgements",
            queryset=BehaviourJudgement.objects.order_by("position"),
        )
    )
    conversations = list(
        Conversation.objects.filter(id__in=conversation_ids)
        .select_related("participant", "study", "wide_answers")
        .prefetch_related(Prefetch("turns", queryset=turns.order_by("number")), "panas_responses")
        .order_by("id")
    )
    study_ids = {c.study_id for c in conversations}
    settings = {s.study_id: s for s in StudyQASettings.objects.filter(study_id__in=study_ids)}
    checks: dict[int, list[AttentionCheck]] = defaultdict(list)
    for check in AttentionCheck.objects.filter(study_id__in=study_ids, active=True):
        checks[check.study_id].append(check)
    same_pid = _same_pid_sessions(conversations)
    return [
        LoadedConversation(
            conversation=c,
            snapshot=ConversationSnapshot(
                conversation_id=c.pk,
                turns=tuple(_turn(turn) for turn in c.turns.all()),
                attention=tuple(_attention(c, check) for check in checks[c.study_id]),
                same_pid_sessions=same_pid.get(c.pk, ()),
                conversations_allowed=c.study.conversations_per_participant,
            ),
            thresholds=thresholds_for(settings.get(c.study_id)),
        )
        for c in conversations
    ]


def _turn(turn: Turn) -> TurnSnapshot:
    try:
        annotation = turn.annotation
    except Turn.annotation.RelatedObjectDoesNotExist:
        return TurnSnapshot(turn.number, turn.user_message, turn.model_reply, annotated=False)
    judgements = list(annotation.behaviour_judgements.all())
    return TurnSnapshot(
        number=turn.number,
        user_message=turn.user_message,
        model_reply=turn.model_reply,
        human_edited=annotation.human_edited_reply,
        annotation_seconds=annotation_seconds(annotation),
        observed=tuple(j.observed for j in judgements),
        preferred=tuple(j.preferred for j in judgements),
    )


def annotation_seconds(annotation) -> float | None:
    """Seconds from opening to submitting the annotation, else the sum of the step timings."""
    if annotation.started_at and annotation.submitted_at:
        return (annotation.submitted_at - annotation.started_at).total_seconds()
    steps = [v for v in (annotation.timings or {}).values() if isinstance(v, int | float)]
    return float(sum(steps)) if steps else None


def _attention(conversation: Conversation, check: AttentionCheck) -> AttentionAnswer:
    return AttentionAnswer(
        survey=check.survey,
        item_key=check.item_key,
        expected=tuple(str(e) for e in check.expected_answers),
        given=_answer_store(conversation, check.survey).get(check.item_key),
    )


def _answer_store(conversation: Conversation, survey: str) -> dict:
    """Where each survey keeps answers that are not part of the AttuneBench format."""
    if survey == SurveyPart.PROFILE:
        return conversation.participant.responses or {}
    if survey in (SurveyPart.PRE_PANAS, SurveyPart.POST_PANAS):
        phase = "pre" if survey == SurveyPart.PRE_PANAS else "post"
        panas = next((p for p in conversation.panas_responses.all() if p.phase == phase), None)
        return (panas.other or {}) if panas else {}
    try:
        return conversation.wide_answers.other or {}
    except Conversation.wide_answers.RelatedObjectDoesNotExist:
        return {}


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
