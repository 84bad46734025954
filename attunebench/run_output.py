"""Typed records of one evaluation run output (format spec, section 6).

One ``RunOutput`` holds what one model under test (EM) answered for one conversation in one
mode. The shape and key names are the reference runner's, so any tool can re-score a run:

- ``run_output_from_dict`` is lenient. It must read files written by other tools (the
  reference runner included), so a missing key becomes ``None`` or empty and a wrongly typed
  value is dropped rather than refused: the scorer then treats it as a missing answer, which
  is exactly how the reference scores an unparseable EM answer.
- ``run_output_to_dict`` is canonical and byte-stable: known keys in a fixed order (the order
  of section 6), our additions (``prompt_version``, ``parse_failures``) after the reference
  keys, unknown keys kept in ``other`` and written sorted after the known ones. Maps keyed by
  question id or comparison index keep the order they were read or built in.

Absent per-turn maps stay ``None`` (not ``{}``) so the scorer can tell "this call type was not
part of the run" (for example no HP-worded review) from "the EM answered nothing".
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attunebench.records import MoodTag
from attunebench.vocabulary import LEGACY_INTENSITY

JsonDict = dict[str, Any]
AnswerMap = dict[str, str | None]  # questionId -> "yes" / "no" / "na" (as the EM wrote it)

# Call types our engine counts in ``parse_failures``; the scorer accepts any other name too.
CALL_TYPES: tuple[str, ...] = (
    "draft",
    "draft_judge",
    "om_review",
    "hp_review",
    "pairwise",
    "post_conversation",
    "reply_judge",
)
# Not a call type: in ``parse_failures``, the turns whose draft went to the judges ("calls") and
# those whose judged score was dropped because a configured judge did not answer ("failures").
# Counts of turns, so sums of calls over ``parse_failures`` leave it out (``call_counts``).
JUDGED_TURNS = "draft_judge_turns"
# Which reply a judge answered the behaviour questions about (``judge_reply_assessment_by_model``):
# the original model's reply, or the participant's own edited version of it.
JUDGED_REPLIES: tuple[str, ...] = ("original", "human_edited")

_JUDGE_KEYS = ("overall_score", "emotional_appropriateness", "helpfulness", "tone_match")
_PANAS_KEYS = ("totalPositiveAffect", "totalNegativeAffect", "items", "responses")
_CW_KEYS = (
    "q1_lookingFor",
    "Q1",
    "q2_emotionClarity",
    "Q2",
    "q3_modelFit",
    "Q3",
    "q3_followUp_whatFeltOff",
    "fourBranchScores",
)
_POST_KEYS = (
    "panas_strategy",
    "pre_panas_shown",
    "predicted_post_panas",
    "predicted_panas_delta",
    "predicted_conversation_wide",
)
_TURN_KEYS = (
    "turnNumber",
    "em_emotion_tags",
    "em_drafted_response",
    "response_reasoning",
    "emotion_reasoning",
    "pairwise_assignment",
    "em_binary_om_assessment",
    "em_binary_human_prediction",
    "em_binary_om_assessment_hp",
    "em_binary_human_prediction_hp",
    "em_pairwise_selections",
    "em_draft_judge_scores",
    "em_draft_judge_scores_by_model",
    "em_draft_binary_assessment",
    "em_draft_binary_assessment_by_model",
    "judge_reply_assessment_by_model",
)
_RUN_KEYS = (
    "conversationId",
    "source_file",
    "em_model",
    "run_timestamp",
    "mode",
    "api_cost",
    "duration_seconds",
    "prompt_version",
    "parse_failures",
    "turns",
    "post_conversation",
)


@dataclass(frozen=True)
class DraftJudgeScores:
    """Judge scores of the EM's draft, each 1..7 (spec section 3, call 2)."""

    overall_score: float | None = None
    emotional_appropriateness: float | None = None
    helpfulness: float | None = None
    tone_match: float | None = None
    other: JsonDict = field(default_factory=dict)

    def dimensions(self) -> tuple[float | None, ...]:
        return (
            self.overall_score,
            self.emotional_appropriateness,
            self.helpfulness,
            self.tone_match,
        )


@dataclass(frozen=True)
class TurnOutput:
    """What the EM answered at one turn. Field names mirror the on-disk keys of section 6."""

    turn_number: int | None
    em_emotion_tags: tuple[MoodTag, ...] | None = None
    em_drafted_response: str | None = None
    response_reasoning: str | None = None
    emotion_reasoning: str | None = None
    # comparison index -> {"A": label, "B": label}, as shown to the EM (informational).
    pairwise_assignment: dict[str, JsonDict] | None = None
    em_binary_om_assessment: AnswerMap | None = None
    em_binary_human_prediction: AnswerMap | None = None
    em_binary_om_assessment_hp: AnswerMap | None = None
    em_binary_human_prediction_hp: AnswerMap | None = None
    # comparison index as a string ("0", "1", ...) -> "A" / "B"
    em_pairwise_selections: dict[str, str | None] | None = None
    em_draft_judge_scores: DraftJudgeScores | None = None
    em_draft_judge_scores_by_model: dict[str, DraftJudgeScores] | None = None
    em_draft_binary_assessment: AnswerMap | None = None
    em_draft_binary_assessment_by_model: dict[str, AnswerMap] | None = None
    # Our addition (judge-vs-participant agreement): judge -> judged reply (``JUDGED_REPLIES``)
    # -> the judge's answers to the turn's behaviour questions about that reply. None when the
    # run had no judges; written only when present, so a judge-less output keeps the
    # reference's shape.
    judge_reply_assessment_by_model: dict[str, dict[str, AnswerMap]] | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class PredictedPanas:
    """Predicted PANAS: totals and/or items. Under a ``delta`` strategy these are changes."""

    total_positive: float | None = None
    total_negative: float | None = None
    items: dict[str, float] | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class PredictedConversationWide:
    """The EM's guess at the participant's post-chat answers (spec section 1 field names)."""

    q1_looking_for: tuple[str, ...] | None = None
    q2_emotion_clarity: str | None = None
    q3_model_fit: str | None = None
    q3_follow_up_what_felt_off: tuple[str, ...] | None = None
    four_branch_scores: dict[str, float | None] | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class PostConversationOutput:
    panas_strategy: str | None = None  # "absolute", "delta" or "blind_delta"
    pre_panas_shown: Any = None  # whatever the runner recorded (flag or the totals shown)
    predicted_post_panas: PredictedPanas | None = None
    predicted_panas_delta: PredictedPanas | None = None
    predicted_conversation_wide: PredictedConversationWide | None = None
    other: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class RunOutput:
    conversation_id: str | None
    source_file: str | None = None
    em_model: str | None = None
    run_timestamp: str | None = None
    mode: str | None = None
    api_cost: float | None = None
    duration_seconds: float | None = None
    turns: tuple[TurnOutput, ...] = ()
    post_conversation: PostConversationOutput | None = None
    # Our additions: the prompt set used and, per call type, {"calls": n, "failures": n}.
    prompt_version: str | None = None
    parse_failures: dict[str, dict[str, int]] = field(default_factory=dict)
    other: JsonDict = field(default_factory=dict)


# --- reading (lenient) ------------------------------------------------------------------------


def call_counts(parse_failures: Mapping[str, Mapping[str, Any]]) -> tuple[int, int]:
    """(calls, failures) summed over the call types of a ``parse_failures`` map; the
    ``JUDGED_TURNS`` entry counts turns, not calls, and its failures are judge failures
    already counted under ``draft_judge``, so it is left out."""
    entries = [c for name, c in parse_failures.items() if name != JUDGED_TURNS]
    calls = sum(int(c.get("calls") or 0) for c in entries)
    return calls, sum(int(c.get("failures") or 0) for c in entries)


def run_output_from_dict(data: Any) -> RunOutput:
    """Read a run-output object. Lenient: missing or mistyped values become None / empty."""
    obj = data if isinstance(data, dict) else {}
    turns = tuple(
        _turn_from_dict(raw) for raw in _as_list(obj.get("turns")) if isinstance(raw, dict)
    )
    post = obj.get("post_conversation")
    return RunOutput(
        conversation_id=_text(obj.get("conversationId")),
        source_file=_text(obj.get("source_file")),
        em_model=_text(obj.get("em_model")),
        run_timestamp=_text(obj.get("run_timestamp")),
        mode=_text(obj.get("mode")),
        api_cost=_number(obj.get("api_cost")),
        duration_seconds=_number(obj.get("duration_seconds")),
        turns=turns,
        post_conversation=_post_from_dict(post) if isinstance(post, dict) else None,
        prompt_version=_text(obj.get("prompt_version")),
        parse_failures=_parse_failures_from_dict(obj.get("parse_failures")),
        other=_unknown(obj, _RUN_KEYS),
    )


def loads_run_output(text: str) -> RunOutput:
    return run_output_from_dict(json.loads(text))


def read_run_output_file(path: str | Path) -> RunOutput:
    return loads_run_output(Path(path).read_text(encoding="utf-8"))


def _turn_from_dict(obj: JsonDict) -> TurnOutput:
    return TurnOutput(
        turn_number=_integer(obj.get("turnNumber")),
        em_emotion_tags=_tags(obj.get("em_emotion_tags")),
        em_drafted_response=_text(obj.get("em_drafted_response")),
        response_reasoning=_text(obj.get("response_reasoning")),
        emotion_reasoning=_text(obj.get("emotion_reasoning")),
        pairwise_assignment=_assignment(obj.get("pairwise_assignment")),
        em_binary_om_assessment=_answers(obj.get("em_binary_om_assessment")),
        em_binary_human_prediction=_answers(obj.get("em_binary_human_prediction")),
        em_binary_om_assessment_hp=_answers(obj.get("em_binary_om_assessment_hp")),
        em_binary_human_prediction_hp=_answers(obj.get("em_binary_human_prediction_hp")),
        em_pairwise_selections=_selections(obj.get("em_pairwise_selections")),
        em_draft_judge_scores=_judge(obj.get("em_draft_judge_scores")),
        em_draft_judge_scores_by_model=_by_model(obj.get("em_draft_judge_scores_by_model"), _judge),
        em_draft_binary_assessment=_answers(obj.get("em_draft_binary_assessment")),
        em_draft_binary_assessment_by_model=_by_model(
            obj.get("em_draft_binary_assessment_by_model"), _answers
        ),
        judge_reply_assessment_by_model=_by_model(
            obj.get("judge_reply_assessment_by_model"), _judged_replies
        ),
        other=_unknown(obj, _TURN_KEYS),
    )


def _post_from_dict(obj: JsonDict) -> PostConversationOutput:
    return PostConversationOutput(
        panas_strategy=_text(obj.get("panas_strategy")),
        pre_panas_shown=obj.get("pre_panas_shown"),
        predicted_post_panas=_predicted_panas(obj.get("predicted_post_panas")),
        predicted_panas_delta=_predicted_panas(obj.get("predicted_panas_delta")),
        predicted_conversation_wide=_predicted_cw(obj.get("predicted_conversation_wide")),
        other=_unknown(obj, _POST_KEYS),
    )


def _predicted_panas(value: Any) -> PredictedPanas | None:
    if not isinstance(value, dict):
        return None
    # Items may sit under "responses", as in conversation files (spec section 1).
    raw_items = value.get("items") if value.get("items") is not None else value.get("responses")
    items = None
    if isinstance(raw_items, dict):
        items = {
            str(name): number
            for name, raw in raw_items.items()
            if (number := _number(raw)) is not None
        }
    return PredictedPanas(
        total_positive=_number(value.get("totalPositiveAffect")),
        total_negative=_number(value.get("totalNegativeAffect")),
        items=items,
        other=_unknown(value, _PANAS_KEYS),
    )


def _predicted_cw(value: Any) -> PredictedConversationWide | None:
    if not isinstance(value, dict):
        return None
    branches = value.get("fourBranchScores")
    return PredictedConversationWide(
        q1_looking_for=_text_list(_first_present(value, ("q1_lookingFor", "Q1"))),
        q2_emotion_clarity=_text(_first_present(value, ("q2_emotionClarity", "Q2"))),
        q3_model_fit=_text(_first_present(value, ("q3_modelFit", "Q3"))),
        q3_follow_up_what_felt_off=_text_list(value.get("q3_followUp_whatFeltOff")),
        four_branch_scores=(
            {str(name): _number(score) for name, score in branches.items()}
            if isinstance(branches, dict)
            else None
        ),
        other=_unknown(value, _CW_KEYS),
    )


def _parse_failures_from_dict(value: Any) -> dict[str, dict[str, int]]:
    if not isinstance(value, dict):
        return {}
    counts: dict[str, dict[str, int]] = {}
    for call_type, raw in value.items():
        if isinstance(raw, dict):
            counts[str(call_type)] = {
                "calls": _integer(raw.get("calls")) or 0,
                "failures": _integer(raw.get("failures")) or 0,
            }
    return counts


# --- lenient primitives -----------------------------------------------------------------------


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)  # numeric ids and timestamps
    return None


def _text_list(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)  # a single answer where a list was expected
    if not isinstance(value, list):
        return None
    return tuple(text for item in value if (text := _text(item)) is not None)


def _number(value: Any) -> float | None:
    """Numbers are kept as written (an int stays an int) so a round trip keeps the bytes.

    Non-finite values (NaN, inf) are dropped: they are not JSON and no score can use them.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _integer(value: Any) -> int | None:
    number = _number(value)
    if isinstance(number, int):
        return number
    return int(number) if number is not None and number.is_integer() else None


def _answer(value: Any) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _text(value)


def _answers(value: Any) -> AnswerMap | None:
    if not isinstance(value, dict):
        return None
    return {str(question_id): _answer(answer) for question_id, answer in value.items()}


def _selections(value: Any) -> dict[str, str | None] | None:
    if isinstance(value, list):  # some tools write a list in comparison order
        return {str(index): _text(letter) for index, letter in enumerate(value)}
    if not isinstance(value, dict):
        return None
    return {str(index): _text(letter) for index, letter in value.items()}


def _assignment(value: Any) -> dict[str, JsonDict] | None:
    if not isinstance(value, dict):
        return None
    return {str(index): dict(shown) for index, shown in value.items() if isinstance(shown, dict)}


def _judge(value: Any) -> DraftJudgeScores | None:
    if not isinstance(value, dict):
        return None
    return DraftJudgeScores(
        overall_score=_number(value.get("overall_score")),
        emotional_appropriateness=_number(value.get("emotional_appropriateness")),
        helpfulness=_number(value.get("helpfulness")),
        tone_match=_number(value.get("tone_match")),
        other=_unknown(value, _JUDGE_KEYS),
    )


def _by_model(value: Any, parse: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    parsed = {str(model): parse(raw) for model, raw in value.items()}
    return {model: item for model, item in parsed.items() if item is not None}


def _judged_replies(value: Any) -> dict[str, AnswerMap] | None:
    if not isinstance(value, dict):
        return None
    found = {reply: _answers(value.get(reply)) for reply in JUDGED_REPLIES}
    return {reply: answers for reply, answers in found.items() if answers is not None}


def _tags(value: Any) -> tuple[MoodTag, ...] | None:
    if value is None:
        return None
    tags = []
    for raw in _as_list(value):
        if isinstance(raw, str):
            tags.append(MoodTag(emotion=raw, intensity=None))  # a bare emotion name
        elif isinstance(raw, dict) and isinstance(raw.get("emotion"), str):
            tags.append(MoodTag(emotion=raw["emotion"], intensity=_intensity(raw.get("intensity"))))
    return tuple(tags)


def _intensity(value: Any) -> int | None:
    if isinstance(value, str) and value.strip().lower() in LEGACY_INTENSITY:
        return LEGACY_INTENSITY[value.strip().lower()]
    number = _number(value)
    return None if number is None else round(number)


def _first_present(obj: JsonDict, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in obj:
            return obj[key]
    return None


def _unknown(obj: JsonDict, known: tuple[str, ...]) -> JsonDict:
    return {key: value for key, value in obj.items() if key not in known}


# --- writing (canonical) ----------------------------------------------------------------------


def run_output_to_dict(run: RunOutput) -> JsonDict:
    """The canonical on-disk object: fixed key order, every known key written (null if absent)."""
    data: JsonDict = {
        "conversationId": run.conversation_id,
        "source_file": run.source_file,
        "em_model": run.em_model,
        "run_timestamp": run.run_timestamp,
        "mode": run.mode,
        "api_cost": run.api_cost,
        "duration_seconds": run.duration_seconds,
        "prompt_version": run.prompt_version,
        "parse_failures": {
            call_type: {"calls": counts.get("calls", 0), "failures": counts.get("failures", 0)}
            for call_type, counts in run.parse_failures.items()
        },
        "turns": [_turn_to_dict(turn) for turn in run.turns],
        "post_conversation": _post_to_dict(run.post_conversation),
    }
    return _with_unknown(data, run.other)


def dumps_run_output(run: RunOutput) -> str:
    return json.dumps(run_output_to_dict(run), ensure_ascii=False, indent=2) + "\n"


def _turn_to_dict(turn: TurnOutput) -> JsonDict:
    tags = turn.em_emotion_tags
    data: JsonDict = {
        "turnNumber": turn.turn_number,
        "em_emotion_tags": None
        if tags is None
        else [{"emotion": tag.emotion, "intensity": tag.intensity} for tag in tags],
        "em_drafted_response": turn.em_drafted_response,
        "response_reasoning": turn.response_reasoning,
        "emotion_reasoning": turn.emotion_reasoning,
        "pairwise_assignment": _copy_map(turn.pairwise_assignment),
        "em_binary_om_assessment": _copy_map(turn.em_binary_om_assessment),
        "em_binary_human_prediction": _copy_map(turn.em_binary_human_prediction),
        "em_binary_om_assessment_hp": _copy_map(turn.em_binary_om_assessment_hp),
        "em_binary_human_prediction_hp": _copy_map(turn.em_binary_human_prediction_hp),
        "em_pairwise_selections": _copy_map(turn.em_pairwise_selections),
        "em_draft_judge_scores": _judge_to_dict(turn.em_draft_judge_scores),
        "em_draft_judge_scores_by_model": None
        if turn.em_draft_judge_scores_by_model is None
        else {m: _judge_to_dict(s) for m, s in turn.em_draft_judge_scores_by_model.items()},
        "em_draft_binary_assessment": _copy_map(turn.em_draft_binary_assessment),
        "em_draft_binary_assessment_by_model": None
        if turn.em_draft_binary_assessment_by_model is None
        else {m: dict(a) for m, a in turn.em_draft_binary_assessment_by_model.items()},
    }
    if turn.judge_reply_assessment_by_model is not None:
        data["judge_reply_assessment_by_model"] = {
            judge: {reply: dict(answers) for reply, answers in replies.items()}
            for judge, replies in turn.judge_reply_assessment_by_model.items()
        }
    return _with_unknown(data, turn.other)


def _judge_to_dict(scores: DraftJudgeScores | None) -> JsonDict | None:
    if scores is None:
        return None
    data: JsonDict = {
        "overall_score": scores.overall_score,
        "emotional_appropriateness": scores.emotional_appropriateness,
        "helpfulness": scores.helpfulness,
        "tone_match": scores.tone_match,
    }
    return _with_unknown(data, scores.other)


def _post_to_dict(post: PostConversationOutput | None) -> JsonDict | None:
    if post is None:
        return None
    data: JsonDict = {
        "panas_strategy": post.panas_strategy,
        "pre_panas_shown": post.pre_panas_shown,
        "predicted_post_panas": _predicted_panas_to_dict(post.predicted_post_panas),
        "predicted_panas_delta": _predicted_panas_to_dict(post.predicted_panas_delta),
        "predicted_conversation_wide": _predicted_cw_to_dict(post.predicted_conversation_wide),
    }
    return _with_unknown(data, post.other)


def _predicted_panas_to_dict(panas: PredictedPanas | None) -> JsonDict | None:
    """Totals and items are optional in this object (section 6), so absent ones are omitted."""
    if panas is None:
        return None
    data: JsonDict = {}
    if panas.total_positive is not None:
        data["totalPositiveAffect"] = panas.total_positive
    if panas.total_negative is not None:
        data["totalNegativeAffect"] = panas.total_negative
    if panas.items is not None:
        data["items"] = dict(panas.items)
    return _with_unknown(data, panas.other)


def _predicted_cw_to_dict(answers: PredictedConversationWide | None) -> JsonDict | None:
    if answers is None:
        return None
    data: JsonDict = {
        "q1_lookingFor": None if answers.q1_looking_for is None else list(answers.q1_looking_for),
        "q2_emotionClarity": answers.q2_emotion_clarity,
        "q3_modelFit": answers.q3_model_fit,
        "q3_followUp_whatFeltOff": None
        if answers.q3_follow_up_what_felt_off is None
        else list(answers.q3_follow_up_what_felt_off),
        "fourBranchScores": _copy_map(answers.four_branch_scores),
    }
    return _with_unknown(data, answers.other)


def _copy_map(value: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


def _with_unknown(data: JsonDict, unknown: JsonDict) -> JsonDict:
    for key in sorted(unknown):
        if key not in data:
            data[key] = unknown[key]
    return data


# --- file names -------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def run_output_filename(conversation_id: str, model: str, mode: str) -> str:
    """A file name safe on every filesystem, e.g. ``run_12__openai--gpt-4o__default.json``.

    "/" (provider/model) becomes "--" so the provider stays readable; any other run of unsafe
    characters becomes "_"; leading dots are dropped so the name is never hidden or "..".
    Parts are joined with "__".
    """
    return f"run_{_safe_part(conversation_id)}__{_safe_part(model)}__{_safe_part(mode)}.json"


def _safe_part(text: str) -> str:
    cleaned = _UNSAFE.sub("_", str(text).replace("/", "--")).lstrip(".")
    return cleaned or "_"
