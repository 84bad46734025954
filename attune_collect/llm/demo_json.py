"""Valid JSON answers for the demo provider, shaped like the template in the prompt.

The evaluation prompts show the JSON they expect (a fenced ```json block or an inline {...}).
This module finds that template, parses it leniently (placeholders such as "yes|no", <1-7>,
"..." and trailing commas are common in prompts), and answers with the same keys, choosing
values by simple rules: emotion lists from the PANAS lexicon, behaviour questions (B1..B505)
from the persona and lexicon cues, A/B letters, numbers within the example's range, and short
strings. It is a heuristic so the platform can run end to end offline, not a model.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .demo_lexicon import NEGATIVE_ITEMS, PANAS_ITEMS, POSITIVE_ITEMS, EmotionTag, tag_emotions
from .demo_personas import content_text, last_message_text

QUESTION_ID = re.compile(r"^B\d{1,3}$")
_QUESTION_ID_IN_TEXT = re.compile(r"\bB\d{1,3}\b")
_FENCED = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)```", re.DOTALL)
_RANGE = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:-|–|to|\.\.)\s*(-?\d+(?:\.\d+)?)")
_ITEM_NAMES = "|".join(PANAS_ITEMS)
# "Proud, Alert, Inspired, ..." in instructions is a vocabulary list, not the participant's mood.
_ITEM_ENUMERATION = re.compile(
    rf"\b(?:{_ITEM_NAMES})\b(?:\s*[,/|;]\s*(?:or\s+|and\s+)?\b(?:{_ITEM_NAMES})\b){{2,}}",
    re.IGNORECASE,
)
_RISK = re.compile(
    r"\b(suicid\w*|kill myself|end it all|hurt myself|self[- ]harm|don't want to (live|be here)|die)\b",
    re.IGNORECASE,
)
_PARTICIPANT_LINE = re.compile(
    r"^\s*(?:participant|user|hp|human|person|client)(?:'s)?(?: message)?\s*:\s*(.+)$",
    re.IGNORECASE | re.MULTILINE,
)
_ADVICE = re.compile(
    r"\b(should|try|recommend|suggest|could|might want to|consider)\b", re.IGNORECASE
)

# Behaviour questions a caring reply would show (the "preferred" answer is yes) ...
_DESIRABLE = {
    "B1", "B2", "B3", "B4", "B5", "B7", "B8", "B9", "B10", "B13", "B15", "B16", "B17", "B18",
    "B19", "B108", "B109", "B316", "B406", "B501", "B502", "B503", "B504", "B505",
}  # fmt: skip
# ... and which a reply shows, by what the prompt's text reveals.
_SHOWN_WHEN_EMOTIONAL = {"B1", "B2", "B3", "B8", "B9", "B10", "B15", "B19", "B108"}
_SHOWN_WHEN_MIXED = {"B4", "B109", "B504"}
_SHOWN_WHEN_QUESTIONING = {"B13", "B501", "B505"}
_SHOWN_WHEN_ADVISING = {"B11", "B12", "B310", "B313", "B316"}
_SHOWN_WHEN_RISKY = {"B17", "B18"}

_EMOTION_LIST_KEYS = ("emotion_tags", "emotions", "moodshifttags", "mood_shift_tags", "tags")
_TEXT_KEYS = ("response", "reply", "draft", "rewrite", "improved", "message", "text")
_REASON_KEYS = ("reason", "rationale", "explanation", "justification", "thought")
_PREFERENCE_HINTS = ("human", "prefer", "should", "prediction", "participant", "would")


@dataclass
class JsonContext:
    """Everything the value rules look at, for one request."""

    persona: str
    subject: str  # the prompt's text minus the template and vocabulary lists
    emotions: list[EmotionTag]
    seed: str
    participant_text: str  # what the participant said, when the prompt labels it
    reply_text: Callable[[str], str]  # the persona's prose reply, for "response"-like keys

    def rng(self, *path: str) -> random.Random:
        # One generator per key path: a value does not change when other keys are added.
        return random.Random(f"{self.seed}:{'/'.join(path)}")


def wants_json(messages: Sequence[Mapping[str, Any]]) -> bool:
    """True when the last user message, or a system message, asks for JSON."""
    texts = [last_message_text(messages, "user")]
    texts += [content_text(m.get("content")) for m in messages if m.get("role") == "system"]
    return any("JSON" in text for text in texts)


def json_answer(
    messages: Sequence[Mapping[str, Any]],
    *,
    persona: str,
    seed: str,
    reply_text: Callable[[str], str],
) -> str:
    prompt = last_message_text(messages, "user")
    template, subject = extract_template(prompt)
    if template is None:  # the template may sit in the system message instead
        system = "\n".join(
            content_text(m.get("content")) for m in messages if m.get("role") == "system"
        )
        template, _ = extract_template(system)
    subject = _ITEM_ENUMERATION.sub(" ", subject)
    participant = _participant_text(subject)
    context = JsonContext(
        persona=persona,
        subject=subject,
        emotions=tag_emotions(participant),
        seed=seed,
        participant_text=participant,
        reply_text=reply_text,
    )
    if template is None:
        template = {"response": "", "emotion_tags": []}
    return json.dumps(_fill(template, (), context), ensure_ascii=False)


def _participant_text(subject: str) -> str:
    """The participant's own words when the prompt labels them, else the whole subject."""
    labelled = _PARTICIPANT_LINE.findall(subject)
    return labelled[-1].strip() if labelled else subject


# -- finding and parsing the template --------------------------------------------------------


def extract_template(text: str) -> tuple[Any | None, str]:
    """The first JSON object shown in the text (fenced block first), and the text without it."""
    candidates = [(m.group(1), m.group(0)) for m in _FENCED.finditer(text)]
    candidates += [(block, block) for block in _balanced_objects(text)]
    for candidate, whole in candidates:
        parsed = lenient_json(candidate.strip())
        if isinstance(parsed, dict) and parsed:
            return parsed, text.replace(whole, " ")
    return None, text


def _balanced_objects(text: str) -> list[str]:
    """Top-level {...} substrings, skipping braces inside double-quoted strings."""
    found: list[str] = []
    depth, start, in_string, escaped = 0, -1, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"' and depth > 0:
            in_string = True
        elif char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append(text[start : index + 1])
    return found


def lenient_json(text: str) -> Any | None:
    """Parse JSON as prompts write it: placeholders, ellipses, comments, trailing commas."""
    for candidate in (text, _repair(text)):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    keys = re.findall(r'"([^"]+)"\s*:', text)  # last resort: the keys alone
    return {key: "" for key in dict.fromkeys(keys)} or None


_LITERALS = {"true": "true", "false": "false", "null": "null", "True": "true", "False": "false"}
_LITERALS["None"] = "null"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")


def _repair(text: str) -> str:
    """Re-tokenize outside of strings: quote bare placeholders (<1-7>, yes|no, 1-7), turn
    single-quoted strings into JSON strings, drop `...` entries, // comments and stray commas."""
    tokens: list[str] = []
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char in "\"'":
            end = index + 1
            while end < length and text[end] != char:
                end += 2 if text[end] == "\\" else 1
            body = text[index + 1 : end]
            tokens.append(f'"{body}"' if char == '"' else json.dumps(body))
            index = end + 1
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = length if newline < 0 else newline
        elif char in "{}[]:,":
            tokens.append(char)
            index += 1
        elif char.isspace():
            index += 1
        else:
            end = index
            while end < length and text[end] not in ",}]\n":
                end += 1
            bare = text[index:end].strip()
            if bare not in ("...", "…"):
                if bare in _LITERALS:
                    tokens.append(_LITERALS[bare])
                elif _NUMBER.fullmatch(bare):
                    tokens.append(bare)
                else:
                    tokens.append(json.dumps(bare))
            index = end
    cleaned: list[str] = []
    for position, token in enumerate(tokens):
        following = tokens[position + 1] if position + 1 < len(tokens) else "}"
        if token == "," and (following in ",}]" or (cleaned and cleaned[-1] in "{[,")):
            continue
        cleaned.append(token)
    return " ".join(cleaned)


# -- filling values --------------------------------------------------------------------------


def _fill(example: Any, path: tuple[str, ...], context: JsonContext) -> Any:
    key = path[-1] if path else ""
    lowered = key.lower()
    if lowered in _EMOTION_LIST_KEYS or lowered.endswith("emotion_tags"):
        return _emotion_list(example, context)
    if QUESTION_ID.match(key) and not isinstance(example, Mapping):
        return _yes_no(key, path, context, example)
    if isinstance(example, Mapping):
        return _fill_object(example, path, context)
    if isinstance(example, list):
        return _fill_list(example, path, context)
    if isinstance(example, bool):
        return context.rng(*path).random() < 0.5
    if isinstance(example, int | float):
        return _number(path, example, context)
    if isinstance(example, str) or example is None:
        return _string(path, example or "", context)
    return example


def _fill_object(
    example: Mapping[str, Any], path: tuple[str, ...], context: JsonContext
) -> dict[str, Any]:
    keys = [k for k in example if k not in ("...", "…")]
    if keys and all(QUESTION_ID.match(k) or k.startswith("<") for k in keys):
        # An illustration of the shape: answer the questions the prompt actually lists.
        listed = list(dict.fromkeys(_QUESTION_ID_IN_TEXT.findall(context.subject)))
        sample = example[keys[0]]
        if listed:
            return {qid: _fill(sample, (*path, qid), context) for qid in listed}
    answer = {k: _fill(example[k], (*path, k), context) for k in keys}
    _derive_panas_totals(answer)
    return answer


def _fill_list(example: list[Any], path: tuple[str, ...], context: JsonContext) -> list[Any]:
    if not example:
        return []
    if all(isinstance(item, str) for item in example) and len(example) > 1:
        # A list of options (multi-select): pick a non-empty, deterministic subset.
        rng = context.rng(*path)
        count = rng.randint(1, min(2, len(example)))
        return rng.sample(example, k=count)
    return [_fill(item, (*path, str(index)), context) for index, item in enumerate(example)]


def _emotion_list(example: Any, context: JsonContext) -> list[Any]:
    element = example[0] if isinstance(example, list) and example else None
    if isinstance(element, str):
        return [tag.emotion for tag in context.emotions]
    name_key, intensity_key = "emotion", "intensity"
    if isinstance(element, Mapping):
        keys = list(element)
        name_key = next(
            (k for k in keys if re.search("emotion|label|name|item", k, re.I)), name_key
        )
        intensity_key = next(
            (k for k in keys if re.search("intens|score|strength|level", k, re.I)), intensity_key
        )
    return [{name_key: tag.emotion, intensity_key: tag.intensity} for tag in context.emotions]


def _yes_no(qid: str, path: tuple[str, ...], context: JsonContext, example: Any) -> Any:
    """Observed behaviour, or the participant's preference when the path says so."""
    preferred = any(
        hint in part.lower() for part in path if part != qid for hint in _PREFERENCE_HINTS
    )
    answer = _predict_preferred(qid, context) if preferred else _predict_observed(qid, context)
    if isinstance(example, bool):
        return answer
    return "yes" if answer else "no"


def _predict_observed(qid: str, context: JsonContext) -> bool:
    """Did the reply under review show the behaviour? Read from the prompt's cues."""
    persona, subject = context.persona, context.subject
    if qid in _SHOWN_WHEN_RISKY:
        return bool(_RISK.search(subject))
    if qid in _SHOWN_WHEN_EMOTIONAL:
        return bool(context.emotions) or persona in ("listener", "improver")
    if qid in _SHOWN_WHEN_MIXED:
        return len(context.emotions) >= 2
    if qid in _SHOWN_WHEN_QUESTIONING:
        return persona == "questioner" or "?" in subject
    if qid in _SHOWN_WHEN_ADVISING:
        return persona == "advisor" or bool(_ADVICE.search(subject))
    if qid in _DESIRABLE:
        return context.rng(qid, "observed").random() < 0.5
    return False  # undesirable behaviours (B6, B14, B20, B206...) are rare in the demo's eyes


def _predict_preferred(qid: str, context: JsonContext) -> bool:
    """Would the participant want it? Caring behaviours yes; risk framing only at risk."""
    if qid in _SHOWN_WHEN_RISKY:
        return bool(_RISK.search(context.subject))
    if qid in _SHOWN_WHEN_ADVISING:
        return context.persona == "advisor"
    return qid in _DESIRABLE


def _number(path: tuple[str, ...], example: int | float, context: JsonContext) -> int | float:
    key = path[-1] if path else ""
    delta = any("delta" in part.lower() for part in path) or example < 0
    item = next((name for name in PANAS_ITEMS if name.lower() == key.lower()), None)
    if item is not None:
        value: float = _panas_item_value(item, delta, context)
    elif "total" in key.lower() and re.search("positive|negative", key, re.I):
        value = _panas_total_guess("positive" in key.lower(), delta, context)
    else:
        low, high = _range_like(example)
        value = context.rng(*path).randint(int(low), int(high)) if high - low >= 1 else low
    return int(round(value)) if isinstance(example, int) else round(float(value), 2)


def _range_like(example: float) -> tuple[float, float]:
    if example < 0:
        return (-6, 6)
    if 10 <= example <= 70:
        return (10, 70)
    if isinstance(example, float) and 0 <= example <= 1:
        return (0.0, 1.0)
    if example > 70:
        return (0, 100)
    return (1, 7)


def _panas_item_value(item: str, delta: bool, context: JsonContext) -> int:
    """Post-chat PANAS guess: what the participant expressed, eased a little by the chat."""
    expressed = {tag.emotion: tag.intensity for tag in context.emotions}
    negative = item in NEGATIVE_ITEMS
    if delta:
        if item in expressed:
            return -1 if negative else 1
        return 0
    if item in expressed:
        return max(1, expressed[item] - 1) if negative else min(7, expressed[item] + 1)
    if negative:
        return 2 if any(tag.emotion in NEGATIVE_ITEMS for tag in context.emotions) else 1
    return 3


def _panas_total_guess(positive: bool, delta: bool, context: JsonContext) -> int:
    names = POSITIVE_ITEMS if positive else NEGATIVE_ITEMS
    return sum(_panas_item_value(name, delta, context) for name in names)


def _derive_panas_totals(answer: dict[str, Any]) -> None:
    """Totals consistent with the items beside them or in a sibling object (e.g. "items")."""
    for holder in [answer, *(v for v in answer.values() if isinstance(v, dict))]:
        items = {k: v for k, v in holder.items() if k in PANAS_ITEMS and isinstance(v, int | float)}
        if len(items) == len(PANAS_ITEMS):
            break
    else:
        return
    for key, value in answer.items():
        lowered = key.lower()
        is_total = "total" in lowered and ("positive" in lowered or "negative" in lowered)
        if is_total and isinstance(value, int | float):
            names = POSITIVE_ITEMS if "positive" in lowered else NEGATIVE_ITEMS
            answer[key] = sum(items[name] for name in names)


def _string(path: tuple[str, ...], example: str, context: JsonContext) -> Any:
    key = (path[-1] if path else "").lower()
    options = _options(example)
    lowered = {option.lower() for option in options}
    if (lowered and lowered <= {"a", "b"}) or (not options and key in ("winner", "choice")):
        return context.rng(*path).choice(["A", "B"])
    if {"yes", "no"} <= lowered:
        qid = next((part for part in reversed(path) if QUESTION_ID.match(part)), None)
        if qid is not None:
            return _yes_no(qid, path, context, example)
        return "yes" if context.rng(*path).random() < 0.5 else "no"
    range_match = _RANGE.search(example)
    if range_match and len(example) <= 30:
        low, high = sorted((float(range_match.group(1)), float(range_match.group(2))))
        return context.rng(*path).randint(int(low), int(high))
    if example in PANAS_ITEMS or key == "emotion":
        return context.emotions[0].emotion if context.emotions else "Interested"
    if any(hint in key for hint in _REASON_KEYS):
        return _reasoning(context)
    if any(hint in key for hint in _TEXT_KEYS):
        # The improver rewrites the reply quoted in the prompt; the others answer the participant.
        source = context.subject if context.persona == "improver" else context.participant_text
        return context.reply_text(source)
    if len(options) > 1:
        return context.rng(*path).choice(options)
    return _reasoning(context)


def _options(example: str) -> list[str]:
    """The choices a placeholder offers: "a|b|c" always, "yes/no" or "A or B" when short."""
    if "|" in example:
        parts = example.split("|")
    elif len(example) <= 20:
        parts = re.split(r"\s*/\s*|\s+or\s+", example)
    else:
        return []
    return [part.strip().strip("<>\"'") for part in parts if part.strip().strip("<>\"'")]


def _reasoning(context: JsonContext) -> str:
    if context.emotions:
        named = ", ".join(f"{tag.emotion} ({tag.intensity})" for tag in context.emotions[:3])
        return f"Demo heuristic: emotion words suggest {named}."
    return "Demo heuristic: no clear emotion words found."
