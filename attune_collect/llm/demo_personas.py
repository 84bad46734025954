"""Persona-styled chat replies for the offline demo provider (templates, not a model).

Each reply is assembled from a persona's templates, chosen by a seeded random generator, and
filled with words lifted from the participant's last message, so the same conversation always
gets the same reply and different conversations get visibly different ones.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .demo_lexicon import EmotionTag, is_negative, tag_emotions

PERSONAS = ("listener", "advisor", "questioner", "improver")
DEMO_LABEL = "[demo]"  # every plain-text reply starts with it: demo data is never mistaken

_IDENTITY_QUESTION = re.compile(
    r"\b(are you (a |an )?(real|human|person|bot|ai|robot|chatgpt|gpt|model)|who are you|"
    r"what (model|ai) are you|which model)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Cues:
    """What the templates may lift from the participant's message."""

    text: str
    snippet: str  # a short quote of their own words
    emotions: list[EmotionTag]

    @property
    def feelings(self) -> str:
        names = [tag.emotion.lower() for tag in self.emotions[:3]]
        if not names:
            return ""
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def last_message_text(messages: Sequence[Mapping[str, Any]], role: str = "user") -> str:
    for message in reversed(messages):
        if message.get("role") == role:
            return content_text(message.get("content"))
    return ""


def content_text(content: Any) -> str:
    """Message content as text (OpenAI content may be a list of typed parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return "" if content is None else str(content)


def cues_from(text: str) -> Cues:
    first_sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0] if text.strip() else ""
    snippet_words = first_sentence.split()[:10]
    snippet = " ".join(snippet_words).rstrip(".,;:!?") + (
        "..." if len(first_sentence.split()) > 10 else ""
    )
    return Cues(text=text, snippet=snippet or "this", emotions=tag_emotions(text))


def persona_reply(persona: str, text: str, rng: random.Random) -> str:
    """The persona's plain-text reply to the participant's message, labelled as a demo."""
    if _IDENTITY_QUESTION.search(text):
        body = (
            f"I'm the Attune demo responder (the {persona} persona), not a real language "
            "model: my replies are put together from templates so the platform can run offline."
        )
    elif persona == "improver":
        body = _improve(text, rng)
    else:
        body = _COMPOSERS[persona](cues_from(text), rng)
    return f"{DEMO_LABEL} {body}"


def _listener(cues: Cues, rng: random.Random) -> str:
    if cues.emotions:
        opener = rng.choice(
            [
                f"It sounds like you're feeling {cues.feelings}, and that makes a lot of sense.",
                f"I can hear how {cues.feelings} you're feeling right now.",
                f"Feeling {cues.feelings} like this sounds really hard.",
            ]
        )
    else:
        opener = rng.choice(
            [
                "It sounds like a lot is on your mind.",
                "Thank you for telling me about this.",
                "I'm really glad you shared this with me.",
            ]
        )
    reflection = rng.choice(
        [
            f'When you say "{cues.snippet}", I hear how much this matters to you.',
            f'You mentioned "{cues.snippet}", and I want you to know that is worth taking seriously.',
            f'"{cues.snippet}" sounds like a lot to carry.',
        ]
    )
    closer = rng.choice(
        [
            "Your feelings are valid, and I'm here to listen.",
            "Take all the time you need; I'm listening.",
            "Anyone in your position could feel the same way.",
        ]
    )
    return " ".join([opener, reflection, closer])


def _advisor(cues: Cues, rng: random.Random) -> str:
    steps = rng.sample(
        [
            "Write down the one part of this that weighs on you most, then one small step "
            "you could take about it today.",
            "Take a few slow breaths or a short walk before you decide anything.",
            "Talk to someone you trust about it; saying it out loud often helps.",
            "Set a specific time tomorrow to deal with it, so it does not take over tonight.",
            "Break the problem into smaller pieces and start with the easiest one.",
        ],
        k=2,
    )
    opener = rng.choice(
        [f'About "{cues.snippet}", here is what I would suggest.', "A practical way forward:"]
    )
    acknowledgement = (
        f"It's understandable to feel {cues.feelings} about this."
        if cues.emotions
        else "You know your situation best, so keep what fits."
    )
    return f"{opener} First, {_lower_first(steps[0])} Second, {_lower_first(steps[1])} {acknowledgement}"


def _questioner(cues: Cues, rng: random.Random) -> str:
    questions = [
        f'What part of "{cues.snippet}" feels hardest right now?',
        "What would a good outcome look like for you?",
        "Who else knows about what you're going through?",
        "How have you been taking care of yourself lately?",
        "When did this start weighing on you?",
    ]
    if cues.emotions:
        questions.append(
            f"When you notice feeling {cues.emotions[0].emotion.lower()}, what tends to help?"
        )
    opener = rng.choice(
        ["Thanks for sharing that.", "I'd like to understand better.", "I'm curious."]
    )
    return " ".join([opener, *rng.sample(questions, k=2)])


_SOFTENINGS = (
    (re.compile(r"\byou should\b", re.IGNORECASE), "it might help to"),
    (re.compile(r"\byou need to\b", re.IGNORECASE), "it could help to"),
    (re.compile(r"\byou must\b", re.IGNORECASE), "it may help to"),
    (re.compile(r"\bjust\s+", re.IGNORECASE), ""),
    (re.compile(r"\bdon't worry\b", re.IGNORECASE), "it's understandable to worry"),
    (re.compile(r"\bcalm down\b", re.IGNORECASE), "take a moment for yourself"),
)
_QUOTED_REPLY = re.compile(
    r"(?:original reply|original response|reply|response|rewrite)\s*:\s*(.+)",
    re.IGNORECASE | re.DOTALL,
)


def _improve(text: str, rng: random.Random) -> str:
    """Rewrite the reply found in the prompt (after a 'Reply:' label, else the whole message)."""
    match = _QUOTED_REPLY.search(text)
    original = (match.group(1) if match else text).strip().strip('"').strip()
    softened = original
    for pattern, replacement in _SOFTENINGS:
        softened = pattern.sub(replacement, softened)
    softened = _upper_first(softened.strip())
    emotions = tag_emotions(text)
    opener = rng.choice(
        [
            "Thank you for trusting me with this.",
            "I'm really glad you told me.",
            "That sounds like a lot to carry.",
        ]
    )
    feelings = (
        f" It makes sense to feel {emotions[0].emotion.lower()} here."
        if emotions and is_negative(emotions[0].emotion)
        else ""
    )
    closer = rng.choice(
        ["Whatever you decide, I'm here for you.", "You don't have to face this alone."]
    )
    return f"{opener}{feelings} {softened} {closer}".strip()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


_COMPOSERS = {"listener": _listener, "advisor": _advisor, "questioner": _questioner}
