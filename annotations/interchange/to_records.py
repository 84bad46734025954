"""Database rows -> AttuneBench records (the pure format of ``attunebench/records.py``).

Conversations are loaded in chunks with one ``values_list`` query per table per chunk (no model
instances), so an export of any size runs in flat memory and at the speed of the database,
not of the ORM. Release builds, ``export_attunebench`` and the tests all read through here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from django.db.models import QuerySet

from annotations.models import (
    BehaviourJudgement,
    Conversation,
    ConversationWideAnswers,
    MoodTag,
    PairwiseChoice,
    PanasResponse,
    Turn,
    TurnAnnotation,
)
from attunebench import records
from attunebench.language import LANGUAGE_KEY

DEFAULT_CHUNK_SIZE = 500

_CONVERSATION_FIELDS = (
    "id",
    "external_id",
    "model_version",
    "topic_category",
    "topic_subtopic",
    "source_timestamp",
    "started_at",
    "metadata_other",
    "record_other",
    "model_endpoint__model_name",
    "model_endpoint__provider",
    "participant__profile_submitted_at",
    "participant__external_id",
    "participant__profile_schema_version",
    "participant__age",
    "participant__traits",
    "participant__goals",
    "participant__responses",
    "participant__profile_extra",
    "participant__profile_other",
    "participant__language",
)


def iter_records(
    queryset: QuerySet[Conversation], chunk_size: int = DEFAULT_CHUNK_SIZE
) -> Iterator[records.Conversation]:
    """Records in a stable order (by primary key), loaded chunk by chunk."""
    for chunk in iter_id_chunks(queryset, chunk_size):
        yield from load_records(chunk)


def iter_id_chunks(
    queryset: QuerySet[Conversation], chunk_size: int = DEFAULT_CHUNK_SIZE
) -> Iterator[list[int]]:
    """Primary keys in ascending order, a chunk at a time (keyset pagination: no OFFSET scans)."""
    last = 0
    while True:
        chunk = list(
            queryset.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:chunk_size]
        )
        if not chunk:
            return
        yield chunk
        last = chunk[-1]


def load_records(conversation_ids: Sequence[int]) -> list[records.Conversation]:
    """The records of these conversations, in the order given, in a fixed number of queries."""
    ids = list(conversation_ids)
    rows = {
        row[0]: row
        for row in Conversation.objects.filter(pk__in=ids).values_list(*_CONVERSATION_FIELDS)
    }
    panas = _panas_by_conversation(ids)
    wide = _wide_by_conversation(ids)
    turns = _turns_by_conversation(ids)
    return [
        _record(rows[pk], panas.get(pk, {}), wide.get(pk), turns.get(pk, []))
        for pk in ids
        if pk in rows
    ]


def conversation_to_record(conversation: Conversation) -> records.Conversation:
    (record,) = load_records([conversation.pk])
    return record


def _record(
    row: tuple,
    panas: dict[str, records.Panas],
    wide: records.ConversationWide | None,
    turns: list[records.Turn],
) -> records.Conversation:
    values = dict(zip(_CONVERSATION_FIELDS, row, strict=True))
    started_at = values["started_at"]
    metadata_other = dict(values["metadata_other"])
    if values["participant__language"]:
        # The language the participant took the study in: the conversation's (a record
        # imported with a language of its own keeps it, its participant has none recorded).
        metadata_other[LANGUAGE_KEY] = values["participant__language"]
    metadata = records.Metadata(
        model=values["model_endpoint__model_name"] or None,
        provider=values["model_endpoint__provider"] or None,
        model_version=values["model_version"] or None,
        timestamp=values["source_timestamp"] or (started_at.isoformat() if started_at else None),
        category=values["topic_category"] or None,
        subtopic=values["topic_subtopic"] or None,
        other=metadata_other,
    )
    profile = None
    if values["participant__profile_submitted_at"] is not None:
        profile = records.ParticipantProfile(
            participant_id=values["participant__external_id"] or None,
            schema_version=values["participant__profile_schema_version"] or None,
            age=values["participant__age"],
            traits=tuple(values["participant__traits"]),
            goals=tuple(values["participant__goals"]),
            responses=dict(values["participant__responses"]),
            extra=values["participant__profile_extra"],
            other=dict(values["participant__profile_other"]),
        )
    return records.Conversation(
        conversation_id=values["external_id"],
        metadata=metadata,
        participant_profile=profile,
        pre_panas=panas.get("pre"),
        post_panas=panas.get("post"),
        conversation_wide=wide,
        turns=tuple(turns),
        other=dict(values["record_other"]),
    )


def _panas_by_conversation(ids: list[int]) -> dict[int, dict[str, records.Panas]]:
    found: dict[int, dict[str, records.Panas]] = defaultdict(dict)
    query = PanasResponse.objects.filter(conversation_id__in=ids).values_list(
        "conversation_id", "phase", "items", "total_positive", "total_negative", "other"
    )
    for conversation_id, phase, items, positive, negative, other in query:
        found[conversation_id][phase] = records.Panas(
            items=dict(items), total_positive=positive, total_negative=negative, other=dict(other)
        )
    return found


def _wide_by_conversation(ids: list[int]) -> dict[int, records.ConversationWide]:
    fields = (
        "conversation_id",
        "looking_for",
        "emotion_clarity",
        "model_fit",
        "what_felt_off",
        "has_four_branch",
        "perceiving",
        "facilitating",
        "understanding",
        "managing",
        "other",
    )
    found = {}
    for row in ConversationWideAnswers.objects.filter(conversation_id__in=ids).values_list(*fields):
        v = dict(zip(fields, row, strict=True))
        four_branch = None
        if v["has_four_branch"]:
            four_branch = records.FourBranchScores(
                v["perceiving"], v["facilitating"], v["understanding"], v["managing"]
            )
        found[v["conversation_id"]] = records.ConversationWide(
            looking_for=tuple(v["looking_for"]),
            emotion_clarity=v["emotion_clarity"],
            model_fit=v["model_fit"],
            what_felt_off=tuple(v["what_felt_off"]),
            four_branch=four_branch,
            other=dict(v["other"]),
        )
    return found


def _turns_by_conversation(ids: list[int]) -> dict[int, list[records.Turn]]:
    turn_rows = list(
        Turn.objects.filter(conversation_id__in=ids)
        .order_by("conversation_id", "number")
        .values_list("id", "conversation_id", "number", "user_message", "model_reply", "other")
    )
    turn_ids = [row[0] for row in turn_rows]
    annotations = _annotations_by_turn(turn_ids)
    found: dict[int, list[records.Turn]] = defaultdict(list)
    for turn_id, conversation_id, number, user_message, model_reply, other in turn_rows:
        tags, turn_annotations = annotations.get(turn_id, ((), records.TurnAnnotations()))
        found[conversation_id].append(
            records.Turn(
                turn_number=number,
                user_message=user_message,
                llm_response=model_reply,
                mood_tags=tags,
                annotations=turn_annotations,
                other=dict(other),
            )
        )
    return found


def _annotations_by_turn(
    turn_ids: list[int],
) -> dict[int, tuple[tuple[records.MoodTag, ...], records.TurnAnnotations]]:
    rows = list(
        TurnAnnotation.objects.filter(turn_id__in=turn_ids).values_list(
            "id",
            "turn_id",
            "llm_improved_reply",
            "human_edited_reply",
            "selected_pairwise_questions",
            "other",
        )
    )
    annotation_ids = [row[0] for row in rows]
    tags = _grouped(
        MoodTag, annotation_ids, ("emotion", "intensity"), lambda e, i: records.MoodTag(e, i)
    )
    judgements = _grouped(
        BehaviourJudgement,
        annotation_ids,
        ("question_id", "llm_value", "observed", "preferred"),
        lambda q, llm, observed, preferred: records.BinaryJudgement(q, llm, observed, preferred),
    )
    choices = _grouped(
        PairwiseChoice,
        annotation_ids,
        ("question_id", "response_a", "response_b", "winner"),
        lambda q, a, b, winner: records.PairwiseComparison(q, a, b, winner),
    )
    found = {}
    for annotation_id, turn_id, improved, edited, selected, other in rows:
        found[turn_id] = (
            tuple(tags.get(annotation_id, ())),
            records.TurnAnnotations(
                binary_judgements=tuple(judgements.get(annotation_id, ())),
                llm_improved=improved,
                human_edited=edited,
                pairwise_comparisons=tuple(choices.get(annotation_id, ())),
                selected_pairwise_questions=tuple(selected),
                other=dict(other),
            ),
        )
    return found


def _grouped(
    model, annotation_ids: list[int], fields: tuple[str, ...], build
) -> dict[int, list[Any]]:
    """Rows of a per-annotation child table, grouped by annotation in position order."""
    found: dict[int, list[Any]] = defaultdict(list)
    query = (
        model.objects.filter(annotation_id__in=annotation_ids)
        .order_by("annotation_id", "position")
        .values_list("annotation_id", *fields)
    )
    for annotation_id, *values in query:
        found[annotation_id].append(build(*values))
    return found
