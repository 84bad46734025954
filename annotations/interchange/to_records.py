"""Database rows -> AttuneBench records (the pure format of ``evaluation/benchmark/records.py``).

Queries are batched: a chunk of conversations is loaded with all its related rows in a fixed
number of queries, so an export of any size runs in flat memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import Prefetch, QuerySet

from annotations.models import (
    BehaviourJudgement,
    Conversation,
    MoodTag,
    PairwiseChoice,
    Turn,
)
from evaluation.benchmark import records


def conversations_for_export(queryset: QuerySet[Conversation]) -> QuerySet[Conversation]:
    """The queryset with everything ``conversation_to_record`` reads, prefetched."""
    turns = Turn.objects.select_related("annotation").prefetch_related(
        Prefetch("annotation__mood_tags", queryset=MoodTag.objects.order_by("position")),
        Prefetch(
            "annotation__behaviour_judgements",
            queryset=BehaviourJudgement.objects.order_by("position"),
        ),
        Prefetch(
            "annotation__pairwise_choices", queryset=PairwiseChoice.objects.order_by("position")
        ),
    )
    return queryset.select_related(
        "participant", "model_endpoint", "wide_answers"
    ).prefetch_related(Prefetch("turns", queryset=turns.order_by("number")), "panas_responses")


def iter_records(
    queryset: QuerySet[Conversation], chunk_size: int = 200
) -> Iterator[records.Conversation]:
    """Records in a stable order (by id), loaded chunk by chunk."""
    ids = list(queryset.order_by("id").values_list("id", flat=True))
    for start in range(0, len(ids), chunk_size):
        chunk = conversations_for_export(
            Conversation.objects.filter(id__in=ids[start : start + chunk_size])
        )
        for conversation in chunk.order_by("id"):
            yield conversation_to_record(conversation)


def conversation_to_record(conversation: Conversation) -> records.Conversation:
    endpoint = conversation.model_endpoint
    timestamp = conversation.source_timestamp or (
        conversation.started_at.isoformat() if conversation.started_at else None
    )
    metadata = records.Metadata(
        model=(endpoint.model_name or None) if endpoint else None,
        provider=(endpoint.provider or None) if endpoint else None,
        model_version=conversation.model_version or None,
        timestamp=timestamp,
        category=conversation.topic_category or None,
        subtopic=conversation.topic_subtopic or None,
        other=dict(conversation.metadata_other),
    )
    panas = {response.phase: response for response in conversation.panas_responses.all()}
    return records.Conversation(
        conversation_id=conversation.external_id,
        metadata=metadata,
        participant_profile=_profile(conversation),
        pre_panas=_panas(panas.get("pre")),
        post_panas=_panas(panas.get("post")),
        conversation_wide=_wide(conversation),
        turns=tuple(_turn(turn) for turn in conversation.turns.all()),
        other=dict(conversation.record_other),
    )


def _profile(conversation: Conversation) -> records.ParticipantProfile | None:
    participant = conversation.participant
    if participant.profile_submitted_at is None:
        return None
    return records.ParticipantProfile(
        participant_id=participant.external_id or None,
        schema_version=participant.profile_schema_version or None,
        age=participant.age,
        traits=tuple(participant.traits),
        goals=tuple(participant.goals),
        responses=dict(participant.responses),
        extra=participant.profile_extra,
        other=dict(participant.profile_other),
    )


def _panas(response) -> records.Panas | None:
    if response is None:
        return None
    return records.Panas(
        items=dict(response.items),
        total_positive=response.total_positive,
        total_negative=response.total_negative,
        other=dict(response.other),
    )


def _wide(conversation: Conversation) -> records.ConversationWide | None:
    try:
        answers = conversation.wide_answers
    except Conversation.wide_answers.RelatedObjectDoesNotExist:
        return None
    four_branch = None
    if answers.has_four_branch:
        four_branch = records.FourBranchScores(
            perceiving=answers.perceiving,
            facilitating=answers.facilitating,
            understanding=answers.understanding,
            managing=answers.managing,
        )
    return records.ConversationWide(
        looking_for=tuple(answers.looking_for),
        emotion_clarity=answers.emotion_clarity,
        model_fit=answers.model_fit,
        what_felt_off=tuple(answers.what_felt_off),
        four_branch=four_branch,
        other=dict(answers.other),
    )


def _turn(turn: Turn) -> records.Turn:
    annotation = turn.annotation if _has_annotation(turn) else None
    if annotation is None:
        return records.Turn(turn_number=turn.number, user_message=turn.user_message,
                            llm_response=turn.model_reply, other=dict(turn.other))  # fmt: skip
    return records.Turn(
        turn_number=turn.number,
        user_message=turn.user_message,
        llm_response=turn.model_reply,
        mood_tags=tuple(
            records.MoodTag(t.emotion, t.intensity) for t in annotation.mood_tags.all()
        ),
        annotations=records.TurnAnnotations(
            binary_judgements=tuple(_judgements(annotation.behaviour_judgements.all())),
            llm_improved=annotation.llm_improved_reply,
            human_edited=annotation.human_edited_reply,
            pairwise_comparisons=tuple(
                records.PairwiseComparison(c.question_id, c.response_a, c.response_b, c.winner)
                for c in annotation.pairwise_choices.all()
            ),
            selected_pairwise_questions=tuple(annotation.selected_pairwise_questions),
            other=dict(annotation.other),
        ),
        other=dict(turn.other),
    )


def _has_annotation(turn: Turn) -> bool:
    try:
        turn.annotation  # noqa: B018 - touching the relation tells whether the row exists
    except Turn.annotation.RelatedObjectDoesNotExist:
        return False
    return True


def _judgements(rows: Iterable[BehaviourJudgement]) -> Iterator[records.BinaryJudgement]:
    for row in rows:
        yield records.BinaryJudgement(
            question_id=row.question_id,
            llm_value=row.llm_value,
            observed=row.observed,
            preferred=row.preferred,
        )
