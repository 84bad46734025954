"""AttuneBench records -> database rows, in bulk.

One code path serves the importer and the synthetic-data generator: records are validated
against the study's instrument first (a bad record changes nothing), then written with one
``bulk_create`` per table per batch, which is what makes 1,000 conversations take seconds.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations.models import (
    BehaviourJudgement,
    Conversation,
    ConversationState,
    ConversationWideAnswers,
    ModelEndpoint,
    MoodTag,
    PairwiseChoice,
    PanasResponse,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
    TurnStatus,
)
from attunebench import records
from attunebench.instrument import Instrument as InstrumentDefinition


class RecordRejected(ValueError):
    """A record that does not fit the study's instrument. The message names the field."""


@dataclass(frozen=True)
class RecordOptions:
    is_synthetic: bool = False


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


def _column_values(record: records.Conversation):
    """(where, text, model, column) for every string of the record stored in a sized column."""
    meta, profile = record.metadata, record.participant_profile
    yield "conversationId", record.conversation_id, Conversation, "external_id"
    yield "metadata.model", meta.model, ModelEndpoint, "model_name"
    yield "metadata.provider", meta.provider, ModelEndpoint, "provider"
    yield "metadata.provider/model", f"{meta.provider}/{meta.model}", ModelEndpoint, "litellm_model"
    yield "metadata.model_version", meta.model_version, Conversation, "model_version"
    yield "metadata.category", meta.category, Conversation, "topic_category"
    yield "metadata.subtopic", meta.subtopic, Conversation, "topic_subtopic"
    yield "metadata.timestamp", meta.timestamp, Conversation, "source_timestamp"
    if profile is not None:
        yield (
            "participant_profile.participant_id",
            profile.participant_id,
            Participant,
            "external_id",
        )
        yield (
            "participant_profile.schema_version",
            profile.schema_version,
            Participant,
            "profile_schema_version",
        )
    wide = record.conversation_wide
    if wide is not None:
        yield (
            "conversationWideQuestions.q2",
            wide.emotion_clarity,
            ConversationWideAnswers,
            "emotion_clarity",
        )
        yield "conversationWideQuestions.q3", wide.model_fit, ConversationWideAnswers, "model_fit"
    for turn in record.turns:
        where = f"turns[turnNumber={turn.turn_number}]"
        for tag in turn.mood_tags:
            yield f"{where}.moodShiftTags.emotion", tag.emotion, MoodTag, "emotion"
        for judgement in turn.annotations.binary_judgements:
            yield (
                f"{where}.binaryJudgements.questionId",
                judgement.question_id,
                BehaviourJudgement,
                "question_id",
            )
        for comparison in turn.annotations.pairwise_comparisons:
            yield (
                f"{where}.pairwiseComparisons.questionId",
                comparison.question_id,
                PairwiseChoice,
                "question_id",
            )


# Bidirectional formatting characters: invisible, they make an id show as another (a
# right-to-left override reverses what follows it) on every page, report and terminal.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _ids(record: records.Conversation) -> Iterator[tuple[str, str | None]]:
    """(where, text) of the record's strings that identify something: a conversation, a
    participant, a model (question ids must be the instrument's, checked below)."""
    yield "conversationId", record.conversation_id
    yield "metadata.model", record.metadata.model
    yield "metadata.provider", record.metadata.provider
    if record.participant_profile is not None:
        yield "participant_profile.participant_id", record.participant_profile.participant_id


def _hidden_character(text: str) -> str | None:
    """The first control (C0, DEL, C1) or bidirectional formatting character of ``text``."""
    return next((c for c in text if c in _BIDI_CONTROLS or unicodedata.category(c) == "Cc"), None)


def validate_record(record: records.Conversation, instrument: InstrumentDefinition) -> None:
    """Checks the reader cannot do alone: every string fits its column (SQLite would store a
    longer one, PostgreSQL refuses it), ids hold no control or bidirectional formatting
    character, the conversation has a message, and question ids exist in the study's
    instrument."""
    for where, text, model, column in _column_values(record):
        limit = _max_length(model, column)
        if text is not None and len(text) > limit:
            raise RecordRejected(f"{where}: {len(text)} characters; at most {limit}")
    for where, text in _ids(record):
        hidden = _hidden_character(text or "")
        if hidden is not None:
            # The code point, not the character: printed raw it would spoof the report too.
            raise RecordRejected(
                f"{where}: contains U+{ord(hidden):04X} ({unicodedata.name(hidden, 'a control')}); "
                "an id may hold no control or bidirectional formatting character"
            )
    if not record.turns:
        raise RecordRejected("turns: no turn; a conversation without messages is not imported")
    if not any(turn.user_message.strip() for turn in record.turns):
        raise RecordRejected(
            "turns: no turn has a userMessage; a conversation without messages is not imported"
        )
    behaviour_ids = set(instrument.behaviour_ids)
    for turn in record.turns:
        where = f"turns[turnNumber={turn.turn_number}].annotations"
        for judgement in turn.annotations.binary_judgements:
            if judgement.question_id not in behaviour_ids:
                raise RecordRejected(
                    f"{where}.binaryJudgements: unknown behaviour question {judgement.question_id!r}"
                )
        for comparison in turn.annotations.pairwise_comparisons:
            if not instrument.is_valid_pairwise_id(comparison.question_id):
                raise RecordRejected(
                    f"{where}.pairwiseComparisons: unknown pairwise question {comparison.question_id!r}"
                )
        for qid in turn.annotations.selected_pairwise_questions:
            if not instrument.is_valid_pairwise_id(qid):
                raise RecordRejected(
                    f"{where}.selectedPairwiseQuestions: unknown pairwise question {qid!r}"
                )


def participant_pseudonym(study: Study, key: str) -> str:
    """A stable internal pseudonym for an imported participant (not the release pseudonym)."""
    digest = hashlib.sha256(f"{study.slug}\x00{key}".encode()).hexdigest()
    return f"p-{digest[:20]}"


def parse_timestamp(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _endpoint_for(
    metadata: records.Metadata, cache: dict[tuple[str, str], ModelEndpoint]
) -> ModelEndpoint | None:
    if not metadata.model and not metadata.provider:
        return None
    key = (metadata.provider or "", metadata.model or "")
    if key not in cache:
        provider, model = key
        litellm_model = f"{provider}/{model}" if provider and model else (model or provider)
        alias = "m-" + hashlib.sha256(f"{provider}\x00{model}".encode()).hexdigest()[:12]
        cache[key] = ModelEndpoint.objects.filter(provider=provider, model_name=model).first() or (
            ModelEndpoint.objects.create(
                alias=alias, provider=provider, model_name=model, litellm_model=litellm_model
            )
        )
    return cache[key]


@transaction.atomic
def save_records(
    study: Study, batch: Sequence[records.Conversation], options: RecordOptions = RecordOptions()
) -> list[Conversation]:
    """Write already-validated records in one transaction with one bulk insert per table."""
    now = timezone.now()
    endpoints: dict[tuple[str, str], ModelEndpoint] = {}
    participants = _save_participants(study, batch, options, now)
    conversations = Conversation.objects.bulk_create(
        [
            Conversation(
                study=study,
                participant=participants[_participant_key(record)],
                external_id=record.conversation_id,
                model_endpoint=_endpoint_for(record.metadata, endpoints),
                model_version=record.metadata.model_version or "",
                topic_category=record.metadata.category or "",
                topic_subtopic=record.metadata.subtopic or "",
                state=ConversationState.COMPLETED,
                started_at=parse_timestamp(record.metadata.timestamp),
                completed_at=parse_timestamp(record.metadata.timestamp),
                source_timestamp=record.metadata.timestamp or "",
                metadata_other=record.metadata.other,
                record_other=record.other,
                is_synthetic=options.is_synthetic,
            )
            for record in batch
        ]
    )
    _save_surveys(batch, conversations, now)
    _save_turns(batch, conversations)
    return conversations


def _participant_key(record: records.Conversation) -> str:
    profile = record.participant_profile
    if profile is not None and profile.participant_id:
        return f"id:{profile.participant_id}"
    return f"conversation:{record.conversation_id}"


class ProfileConflict(ValueError):
    """Two conversations give one participant (one participant_id) different profiles."""


def _save_participants(
    study: Study, batch: Sequence[records.Conversation], options: RecordOptions, now: datetime
) -> dict[str, Participant]:
    by_key: dict[str, Participant] = {}
    for record in batch:
        key = _participant_key(record)
        profile = record.participant_profile
        pseudonym = participant_pseudonym(study, key)
        participant = by_key.get(key) or Participant.objects.filter(pseudonym=pseudonym).first()
        if participant is not None:
            # One participant, one profile: a second, different one would be dropped and the
            # first exported for both, silently moving the second into the first's subgroups.
            _check_same_profile(participant, profile)
            by_key[key] = participant
            continue
        by_key[key] = Participant(
            study=study,
            pseudonym=pseudonym,
            external_id=(profile.participant_id or "") if profile else "",
            profile_submitted_at=now if profile else None,
            is_synthetic=options.is_synthetic,
            **_profile_values(profile),
        )
    new = [p for p in by_key.values() if p.pk is None]
    Participant.objects.bulk_create(new)
    return by_key


def _profile_values(profile: records.ParticipantProfile | None) -> dict[str, Any]:
    """The Participant fields a conversation's profile sets."""
    return {
        "profile_schema_version": (profile.schema_version or "") if profile else "",
        "age": profile.age if profile else None,
        "traits": list(profile.traits) if profile else [],
        "goals": list(profile.goals) if profile else [],
        "responses": profile.responses if profile else {},
        "profile_extra": profile.extra if profile else None,
        "profile_other": profile.other if profile else {},
    }


def _check_same_profile(
    participant: Participant, profile: records.ParticipantProfile | None
) -> None:
    values = _profile_values(profile)
    differing = sorted(
        name for name, value in values.items() if getattr(participant, name) != value
    )
    if differing:
        raise ProfileConflict(
            f"participant {participant.external_id!r} already has another profile "
            f"(differs in {', '.join(differing)}); one participant_id must carry one profile"
        )


def _save_surveys(
    batch: Sequence[records.Conversation], conversations: list[Conversation], now: datetime
) -> None:
    panas_rows: list[PanasResponse] = []
    wide_rows: list[ConversationWideAnswers] = []
    for record, conversation in zip(batch, conversations, strict=True):
        for phase, panas in (("pre", record.pre_panas), ("post", record.post_panas)):
            if panas is not None:
                panas_rows.append(
                    PanasResponse(
                        conversation=conversation,
                        phase=phase,
                        items=panas.items,
                        total_positive=panas.total_positive,
                        total_negative=panas.total_negative,
                        other=panas.other,
                        submitted_at=now,
                    )
                )
        wide = record.conversation_wide
        if wide is not None:
            branch = wide.four_branch or records.FourBranchScores()
            wide_rows.append(
                ConversationWideAnswers(
                    conversation=conversation,
                    looking_for=list(wide.looking_for),
                    emotion_clarity=wide.emotion_clarity,
                    model_fit=wide.model_fit,
                    what_felt_off=list(wide.what_felt_off),
                    has_four_branch=wide.four_branch is not None,
                    perceiving=branch.perceiving,
                    facilitating=branch.facilitating,
                    understanding=branch.understanding,
                    managing=branch.managing,
                    other=wide.other,
                    submitted_at=now,
                )
            )
    PanasResponse.objects.bulk_create(panas_rows)
    ConversationWideAnswers.objects.bulk_create(wide_rows)


def _save_turns(batch: Sequence[records.Conversation], conversations: list[Conversation]) -> None:
    turn_rows: list[Turn] = []
    turn_records: list[records.Turn] = []
    for record, conversation in zip(batch, conversations, strict=True):
        for turn in record.turns:
            turn_rows.append(
                Turn(
                    conversation=conversation,
                    number=turn.turn_number,
                    user_message=turn.user_message,
                    model_reply=turn.llm_response,
                    status=TurnStatus.DONE,
                    other=turn.other,
                )
            )
            turn_records.append(turn)
    Turn.objects.bulk_create(turn_rows)
    annotations = TurnAnnotation.objects.bulk_create(
        [
            TurnAnnotation(
                turn=row,
                llm_improved_reply=turn.annotations.llm_improved,
                human_edited_reply=turn.annotations.human_edited,
                shown_behaviour_questions=[
                    j.question_id for j in turn.annotations.binary_judgements
                ],
                selected_pairwise_questions=list(turn.annotations.selected_pairwise_questions),
                other=turn.annotations.other,
            )
            for row, turn in zip(turn_rows, turn_records, strict=True)
        ]
    )
    tags, judgements, choices = [], [], []
    for annotation, turn in zip(annotations, turn_records, strict=True):
        tags += [
            MoodTag(annotation=annotation, position=i, emotion=t.emotion, intensity=t.intensity)
            for i, t in enumerate(turn.mood_tags)
        ]
        judgements += [
            BehaviourJudgement(
                annotation=annotation,
                position=i,
                question_id=j.question_id,
                observed=j.observed,
                preferred=j.preferred,
                llm_value=j.llm_value,
            )
            for i, j in enumerate(turn.annotations.binary_judgements)
        ]
        choices += [
            PairwiseChoice(
                annotation=annotation,
                position=i,
                question_id=c.question_id,
                response_a=c.response_a,
                response_b=c.response_b,
                winner=c.winner,
            )
            for i, c in enumerate(turn.annotations.pairwise_comparisons)
        ]
    MoodTag.objects.bulk_create(tags, batch_size=2000)
    BehaviourJudgement.objects.bulk_create(judgements, batch_size=2000)
    PairwiseChoice.objects.bulk_create(choices, batch_size=2000)
