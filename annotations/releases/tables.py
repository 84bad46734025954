"""The tidy tables of a release: typed, documented schemas and the rows of one conversation.

Pure (no Django): a release is a pure function of its records, which is what makes two builds
of the same data byte-identical. Every column has a description; the codebook and the dataset
card are generated from these schemas, so the documentation cannot drift from the files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from attunebench import records
from attunebench.canonical import canonical_json
from attunebench.instrument import Instrument
from attunebench.language import DEFAULT_LANGUAGE, conversation_language
from attunebench.other_text import TOPIC_OTHER_KEY, WIDE_OTHER_KEYS
from attunebench.vocabulary import FOUR_BRANCHES, PANAS_ITEMS


@dataclass(frozen=True)
class Column:
    name: str
    type: pa.DataType
    description: str
    references: str | None = None  # "table/column" this column's values point at (a foreign key)
    # What a release written before the column existed reads as (``read_table``): a column
    # added to the format later says here what its absence meant.
    default: Any = None


@dataclass(frozen=True)
class Table:
    name: str
    description: str
    columns: tuple[Column, ...]
    key: str | None = None  # the column whose value identifies a row

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def schema(self) -> pa.Schema:
        return pa.schema(
            [
                pa.field(c.name, c.type, metadata={"description": c.description})
                for c in self.columns
            ],
            metadata={"description": self.description},
        )


_STR, _INT, _LIST = pa.string(), pa.int32(), pa.list_(pa.string())
_CID = Column("conversation_id", _STR, "conversationId of the conversation file")
# The post-chat questions' "Something else" texts: column, question, and the key of the text
# in the record's conversation-wide answers.
_WIDE_OTHER = tuple((f"{qid}_other", qid[:2].upper(), key) for qid, key in WIDE_OTHER_KEYS.items())
_TURN = Column("turn_number", _INT, "turnNumber within the conversation")
# Added with studies in several languages (releases before it had none: all English).
_LANGUAGE_TEXT = (
    "BCP 47 primary language tag (en, es, ...) the participant took the study in; 'en' in "
    "releases from before languages, 'und' for an imported record whose language is no tag"
)

TABLES: tuple[Table, ...] = (
    Table(
        "conversations",
        "One row per conversation.",
        (
            _CID,
            Column(
                "participant", _STR, "Salted pseudonym of the participant (stable across releases)"
            ),
            Column("model", _STR, "The anonymized model the participant talked to"),
            Column("provider", _STR, "Provider of that model"),
            Column("model_version", _STR, "Model version, where known"),
            Column(
                "model_config_id",
                _STR,
                "The configuration the conversation ran under "
                "(model_configs.model_config_id); null for imported conversations, which have none",
                references="model_configs/model_config_id",
            ),
            Column("category", _STR, "Topic category chosen by the participant"),
            Column("subtopic", _STR, "Topic subtopic"),
            Column(
                "category_other",
                _STR,
                "The participant's own words for a topic that asks for "
                "them ('Something else'), or null",
            ),
            Column("timestamp", _STR, "When the conversation started (ISO 8601)"),
            Column("turn_count", _INT, "Number of turns"),
            Column("synthetic", pa.bool_(), "True for generated demo data"),
            Column(
                "language",
                _STR,
                f"Language of the conversation: the {_LANGUAGE_TEXT}",
                default=DEFAULT_LANGUAGE,
            ),
        ),
    ),
    Table(
        "turns",
        "One row per turn: the participant's message, the model's reply and its alternates.",
        (
            _CID,
            _TURN,
            Column("user_message", _STR, "What the participant wrote"),
            Column("llm_response", _STR, "The anonymized model's real reply (the 'original')"),
            Column("llm_improved", _STR, "The LLM-improved rewrite of the reply (the 'alternate')"),
            Column(
                "human_edited",
                _STR,
                "The participant's own edited version of the reply (the 'human')",
            ),
            Column(
                "selected_pairwise_questions", _LIST, "Pairwise question ids shown at this turn"
            ),
        ),
    ),
    Table(
        "mood_tags",
        "The participant's own emotion after each reply (PANAS items). No row: no clear shift.",
        (
            _CID,
            _TURN,
            Column("position", _INT, "Order of the tag within the turn"),
            Column("emotion", _STR, "PANAS item"),
            Column("intensity", _INT, "Intensity 1..7, or null"),
        ),
    ),
    Table(
        "behaviour_judgements",
        "Behaviour questions: did the model do it, should it have (the participant's view).",
        (
            _CID,
            _TURN,
            Column("question_id", _STR, "Behaviour question id (see codebook.md)"),
            Column("category", _STR, "Question category"),
            Column("observed", _STR, "Participant: the model did it (yes/no/na/null)"),
            Column("preferred", _STR, "Participant: the model should have (yes/no/na/null)"),
            Column(
                "llm_value", _STR, "Automatic label, a fallback ground truth only (yes/no/na/null)"
            ),
        ),
    ),
    Table(
        "pairwise_comparisons",
        "A/B choices between the original, improved and edited replies.",
        (
            _CID,
            _TURN,
            Column("position", _INT, "Order of the comparison within the turn"),
            Column("question_id", _STR, "general, PW1..PW15 or custom:<text>"),
            Column("response_a", _STR, "Label shown as A: original, alternate or human"),
            Column("response_b", _STR, "Label shown as B"),
            Column("winner", _STR, "A, B or null (no answer)"),
        ),
    ),
    Table(
        "participants",
        "One row per participant (pseudonymous profile).",
        (
            Column("participant", _STR, "Salted pseudonym"),
            Column("age", _INT, "Age in years, or null"),
            Column("traits", _LIST, "Self-reported traits, e.g. a diagnosis group"),
            Column("goals", _LIST, "What the participant hoped for"),
            Column(
                "profile_answers",
                _STR,
                "Profile questionnaire answers as JSON (sorted keys): "
                "question id -> option id or list of option ids, '<id>_other' -> the text of an "
                "'other' option, 'age_band' -> the age band's id (see the instrument's profile)",
            ),
            Column(
                "language",
                _STR,
                f"Language of the participant's answers and conversations: the {_LANGUAGE_TEXT}",
                default=DEFAULT_LANGUAGE,
            ),
        ),
    ),
    Table(
        "model_configs",
        "One row per model configuration the conversations ran under, recorded "
        "when each conversation opened (an endpoint edited mid-study is a new row).",
        (
            Column(
                "model_config_id",
                _STR,
                "sha256 of the canonical JSON of the whole configuration, "
                "system prompt included whether published or not",
            ),
            Column("model", _STR, "The model string the chat called (provider/model)"),
            Column(
                "api_base_host", _STR, "Host of the API base the chat called, or null (never a key)"
            ),
            Column("params", _STR, "Sampling parameters as JSON (sorted keys)"),
            Column(
                "system_prompt_version", _STR, "The researchers' version label of the system prompt"
            ),
            Column("system_prompt_sha256", _STR, "sha256 of the system prompt text (UTF-8)"),
            Column(
                "system_prompt",
                _STR,
                "The system prompt text, only when every study of the release "
                "whose conversations ran under it allows publishing prompts; otherwise null",
            ),
            Column("improver_model", _STR, "Model string of the improved-reply generator, or null"),
            Column("improver_api_base_host", _STR, "Host of the improver's API base, or null"),
            Column("improver_params", _STR, "The improver's sampling parameters as JSON, or null"),
            Column("instrument_name", _STR, "Instrument the participants answered"),
            Column("instrument_version", _STR, "Its version"),
            Column("instrument_sha256", _STR, "sha256 of the instrument's definition"),
            Column("consent_version", _STR, "Version of the consent text participants agreed to"),
            Column("app_build", _STR, "Build id of the participant app (null when unknown)"),
        ),
        key="model_config_id",
    ),
    Table(
        "panas",
        "PANAS before and after the chat: totals and the 20 items (1..7).",
        (
            _CID,
            Column("phase", _STR, "pre or post"),
            Column("total_positive", _INT, "Positive affect total (10..70)"),
            Column("total_negative", _INT, "Negative affect total (10..70)"),
            *(
                Column(item.lower(), _INT, f"PANAS item {item} (1..7), or null")
                for item in PANAS_ITEMS
            ),
        ),
    ),
    Table(
        "conversation_wide",
        "Answers after the chat (Q1-Q3, follow-up, four-branch ratings).",
        (
            _CID,
            Column("q1_looking_for", _LIST, "Q1: what the participant wanted (multi-select)"),
            Column("q2_emotion_clarity", _STR, "Q2: how clearly they expressed their emotions"),
            Column("q3_model_fit", _STR, "Q3: how well the model fitted (ordinal, best to worst)"),
            Column("q3_follow_up", _LIST, "Q3 follow-up: what felt off (free text)"),
            *(
                Column(
                    name,
                    _STR,
                    f"{question}: the participant's own words for an option that asks "
                    "for them ('Something else'), or null",
                )
                for name, question, _ in _WIDE_OTHER
            ),
            *(
                Column(branch, _INT, f"Four-branch rating: {branch} (1..7), or null")
                for branch in FOUR_BRANCHES
            ),
        ),
    ),
)
TABLES_BY_NAME = {table.name: table for table in TABLES}


def table_rows(
    record: records.Conversation,
    participant: str,
    synthetic: bool,
    instrument: Instrument,
    model_config_id: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The rows this conversation contributes to each table except ``participants`` and
    ``model_configs`` (one row per participant and per configuration, written apart)."""
    rows: dict[str, list[dict[str, Any]]] = {table.name: [] for table in TABLES}
    meta = record.metadata
    rows["conversations"].append(
        {
            "conversation_id": record.conversation_id,
            "participant": participant,
            "model": meta.model,
            "provider": meta.provider,
            "model_version": meta.model_version,
            "model_config_id": model_config_id,
            "category": meta.category,
            "subtopic": meta.subtopic,
            "category_other": _text_or_none(meta.other.get(TOPIC_OTHER_KEY)),
            "timestamp": meta.timestamp,
            "turn_count": len(record.turns),
            "synthetic": synthetic,
            "language": conversation_language(record),
        }
    )
    for turn in record.turns:
        rows["turns"].append(_turn_row(record.conversation_id, turn))
        rows["mood_tags"] += _mood_rows(record.conversation_id, turn)
        rows["behaviour_judgements"] += _judgement_rows(record.conversation_id, turn, instrument)
        rows["pairwise_comparisons"] += _pairwise_rows(record.conversation_id, turn)
    for phase, panas in (("pre", record.pre_panas), ("post", record.post_panas)):
        if panas is not None:
            row = {
                "conversation_id": record.conversation_id,
                "phase": phase,
                "total_positive": panas.total_positive,
                "total_negative": panas.total_negative,
            }
            row.update({item.lower(): panas.items.get(item) for item in PANAS_ITEMS})
            rows["panas"].append(row)
    wide = record.conversation_wide
    if wide is not None:
        branches = wide.four_branch.as_dict() if wide.four_branch else dict.fromkeys(FOUR_BRANCHES)
        rows["conversation_wide"].append(
            {
                "conversation_id": record.conversation_id,
                "q1_looking_for": list(wide.looking_for),
                "q2_emotion_clarity": wide.emotion_clarity,
                "q3_model_fit": wide.model_fit,
                "q3_follow_up": list(wide.what_felt_off),
                # In the schema's column order: the JSONL mirror writes keys as they come.
                **{name: _text_or_none(wide.other.get(key)) for name, _, key in _WIDE_OTHER},
                **branches,
            }
        )
    return rows


def _text_or_none(value: Any) -> str | None:
    # Imported records may hold anything under an unknown key: only text fills the column.
    return value if isinstance(value, str) else None


def participant_row(record: records.Conversation, participant: str) -> dict[str, Any]:
    profile = record.participant_profile
    return {
        "participant": participant,
        "age": profile.age if profile else None,
        "traits": list(profile.traits) if profile else [],
        "goals": list(profile.goals) if profile else [],
        "profile_answers": canonical_json(profile.responses)
        if profile and profile.responses
        else None,
        # A participant takes a study in one language: that of their (first) conversation.
        "language": conversation_language(record),
    }


def _turn_row(conversation_id: str, turn: records.Turn) -> dict[str, Any]:
    return {
        "conversation_id": conversation_id,
        "turn_number": turn.turn_number,
        "user_message": turn.user_message,
        "llm_response": turn.llm_response,
        "llm_improved": turn.annotations.llm_improved,
        "human_edited": turn.annotations.human_edited,
        "selected_pairwise_questions": list(turn.annotations.selected_pairwise_questions),
    }


def _mood_rows(conversation_id: str, turn: records.Turn) -> Iterator[dict[str, Any]]:
    for position, tag in enumerate(turn.mood_tags):
        yield {
            "conversation_id": conversation_id,
            "turn_number": turn.turn_number,
            "position": position,
            "emotion": tag.emotion,
            "intensity": tag.intensity,
        }


def _judgement_rows(
    conversation_id: str, turn: records.Turn, instrument: Instrument
) -> Iterator[dict[str, Any]]:
    for judgement in turn.annotations.binary_judgements:
        question = instrument.behaviour_question(judgement.question_id)
        yield {
            "conversation_id": conversation_id,
            "turn_number": turn.turn_number,
            "question_id": judgement.question_id,
            "category": question.category if question else None,
            "observed": judgement.observed,
            "preferred": judgement.preferred,
            "llm_value": judgement.llm_value,
        }


def _pairwise_rows(conversation_id: str, turn: records.Turn) -> Iterator[dict[str, Any]]:
    for position, comparison in enumerate(turn.annotations.pairwise_comparisons):
        yield {
            "conversation_id": conversation_id,
            "turn_number": turn.turn_number,
            "position": position,
            "question_id": comparison.question_id,
            "response_a": comparison.response_a,
            "response_b": comparison.response_b,
            "winner": comparison.winner,
        }


def read_table(folder: Path, name: str) -> pa.Table:
    """``tables/<name>.parquet`` of a release folder in the current schema: a column the
    release predates (it was built before the column existed) is filled with the column's
    ``default`` (``language``: ``"en"``), so code written for today's tables reads every
    release. A column the current schema no longer has is dropped."""
    table = TABLES_BY_NAME[name]
    found = pq.read_table(folder / "tables" / f"{name}.parquet")
    columns = []
    for column in table.columns:
        if column.name in found.column_names:
            columns.append(found.column(column.name).cast(column.type))
        else:
            columns.append(pa.array([column.default] * found.num_rows, type=column.type))
    return pa.Table.from_arrays(columns, schema=table.schema)
