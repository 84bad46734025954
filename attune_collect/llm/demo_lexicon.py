"""A small lexicon-based tagger over the 20 PANAS items, used by the demo provider.

It finds emotion words (with simple negation and intensifier handling) and maps them to PANAS
items with a 1..7 intensity. It is a heuristic for offline demos, not an emotion model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

POSITIVE_ITEMS = (
    "Proud",
    "Alert",
    "Inspired",
    "Determined",
    "Attentive",
    "Active",
    "Excited",
    "Strong",
    "Enthusiastic",
    "Interested",
)
NEGATIVE_ITEMS = (
    "Irritable",
    "Ashamed",
    "Nervous",
    "Jittery",
    "Distressed",
    "Afraid",
    "Upset",
    "Guilty",
    "Scared",
    "Hostile",
)
PANAS_ITEMS = POSITIVE_ITEMS + NEGATIVE_ITEMS

BASE_INTENSITY = 4

# word -> (item, base intensity). A trailing "*" matches any word starting with the stem.
# Multi-word entries are matched as whole-word sequences.
_LEXICON: dict[str, tuple[str, int]] = {
    # negative
    "scared": ("Scared", 4),
    "scary": ("Scared", 4),
    "terrified": ("Scared", 6),
    "terrifying": ("Scared", 6),
    "frighten*": ("Scared", 5),
    "spooked": ("Scared", 3),
    "afraid": ("Afraid", 4),
    "fear": ("Afraid", 4),
    "fears": ("Afraid", 4),
    "fearful": ("Afraid", 4),
    "dread*": ("Afraid", 5),
    "petrified": ("Afraid", 6),
    "nervous": ("Nervous", 4),
    "anxious": ("Nervous", 4),
    "anxiety": ("Nervous", 4),
    "worried": ("Nervous", 4),
    "worry": ("Nervous", 4),
    "worrying": ("Nervous", 4),
    "uneasy": ("Nervous", 3),
    "apprehensive": ("Nervous", 3),
    "tense": ("Nervous", 3),
    "jittery": ("Jittery", 4),
    "jitters": ("Jittery", 4),
    "jumpy": ("Jittery", 4),
    "shaky": ("Jittery", 4),
    "shaking": ("Jittery", 4),
    "restless": ("Jittery", 3),
    "twitchy": ("Jittery", 3),
    "distress*": ("Distressed", 5),
    "overwhelm*": ("Distressed", 5),
    "stressed": ("Distressed", 4),
    "stress": ("Distressed", 4),
    "panic*": ("Distressed", 6),
    "desperate": ("Distressed", 6),
    "hopeless": ("Distressed", 6),
    "can't cope": ("Distressed", 6),
    "upset": ("Upset", 4),
    "sad": ("Upset", 4),
    "hurt": ("Upset", 4),
    "crying": ("Upset", 5),
    "cried": ("Upset", 5),
    "miserable": ("Upset", 5),
    "heartbroken": ("Upset", 6),
    "devastated": ("Upset", 6),
    "lonely": ("Upset", 4),
    "depressed": ("Upset", 5),
    "guilty": ("Guilty", 4),
    "guilt": ("Guilty", 4),
    "my fault": ("Guilty", 5),
    "regret*": ("Guilty", 4),
    "ashamed": ("Ashamed", 5),
    "shame": ("Ashamed", 5),
    "embarrass*": ("Ashamed", 4),
    "humiliat*": ("Ashamed", 6),
    "hostile": ("Hostile", 5),
    "hate": ("Hostile", 5),
    "hatred": ("Hostile", 6),
    "furious": ("Hostile", 6),
    "rage": ("Hostile", 6),
    "resent*": ("Hostile", 4),
    "irritab*": ("Irritable", 4),
    "irritat*": ("Irritable", 4),
    "annoy*": ("Irritable", 3),
    "frustrat*": ("Irritable", 4),
    "angry": ("Irritable", 5),
    "mad": ("Irritable", 4),
    "cranky": ("Irritable", 3),
    "grumpy": ("Irritable", 3),
    "fed up": ("Irritable", 4),
    # positive
    "proud": ("Proud", 4),
    "pride": ("Proud", 4),
    "accomplish*": ("Proud", 4),
    "achieved": ("Proud", 4),
    "alert": ("Alert", 4),
    "awake": ("Alert", 3),
    "focused": ("Alert", 4),
    "vigilant": ("Alert", 4),
    "inspir*": ("Inspired", 4),
    "motivated": ("Inspired", 4),
    "hopeful": ("Inspired", 4),
    "creative": ("Inspired", 3),
    "determin*": ("Determined", 4),
    "committed": ("Determined", 4),
    "won't give up": ("Determined", 5),
    "attentive": ("Attentive", 4),
    "mindful": ("Attentive", 4),
    "paying attention": ("Attentive", 4),
    "active": ("Active", 4),
    "energetic": ("Active", 4),
    "energized": ("Active", 4),
    "busy": ("Active", 3),
    "exercis*": ("Active", 3),
    "excit*": ("Excited", 4),
    "thrilled": ("Excited", 6),
    "can't wait": ("Excited", 5),
    "eager": ("Excited", 4),
    "strong": ("Strong", 4),
    "confident": ("Strong", 4),
    "capable": ("Strong", 4),
    "resilient": ("Strong", 4),
    "enthusias*": ("Enthusiastic", 4),
    "keen": ("Enthusiastic", 4),
    "passionate": ("Enthusiastic", 5),
    "delighted": ("Enthusiastic", 5),
    "interest*": ("Interested", 4),
    "curious": ("Interested", 4),
    "intrigued": ("Interested", 4),
    "fascinat*": ("Interested", 5),
}
for _item in PANAS_ITEMS:  # the item names themselves are emotion words too
    _LEXICON.setdefault(_item.lower(), (_item, BASE_INTENSITY))

_INTENSIFIERS = {
    "so",
    "very",
    "really",
    "extremely",
    "super",
    "incredibly",
    "terribly",
    "completely",
    "totally",
    "utterly",
    "deeply",
    "absolutely",
}
_SOFTENERS = {"bit", "slightly", "little", "kinda", "somewhat", "mildly", "fairly"}
_NEGATORS = {"not", "never", "no", "isn't", "aren't", "wasn't", "don't", "didn't", "without"}
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

_PHRASES = {tuple(word.split()): value for word, value in _LEXICON.items() if " " in word}
_EXACT = {word: value for word, value in _LEXICON.items() if " " not in word and "*" not in word}
_STEMS = {word[:-1]: value for word, value in _LEXICON.items() if word.endswith("*")}


@dataclass(frozen=True)
class EmotionTag:
    emotion: str  # one of PANAS_ITEMS
    intensity: int  # 1..7

    def as_dict(self) -> dict[str, object]:
        return {"emotion": self.emotion, "intensity": self.intensity}


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def tag_emotions(text: str) -> list[EmotionTag]:
    """PANAS items the text expresses, in order of first mention, strongest mention kept."""
    tokens = words(text)
    exclaimed = "!" in text
    found: dict[str, int] = {}
    for index, token in enumerate(tokens):
        for value in _matches_at(tokens, index, token):
            window = tokens[max(0, index - 2) : index]
            if any(word in _NEGATORS for word in window):
                continue
            item, base = value
            intensity = base
            if any(word in _INTENSIFIERS for word in window):
                intensity += 2
            if any(word in _SOFTENERS for word in window):
                intensity -= 2
            if exclaimed:
                intensity += 1
            intensity = max(1, min(7, intensity))
            found[item] = max(found.get(item, 0), intensity)
    return [EmotionTag(item, intensity) for item, intensity in found.items()]


def _matches_at(tokens: list[str], index: int, token: str) -> list[tuple[str, int]]:
    """Lexicon entries starting at tokens[index]: a word or stem, and any phrases."""
    matches: list[tuple[str, int]] = []
    if token in _EXACT:
        matches.append(_EXACT[token])
    else:
        stem_value = next((v for stem, v in _STEMS.items() if token.startswith(stem)), None)
        if stem_value is not None:
            matches.append(stem_value)
    for phrase, value in _PHRASES.items():
        if tuple(tokens[index : index + len(phrase)]) == phrase:
            matches.append(value)
    return matches


def is_negative(item: str) -> bool:
    return item in NEGATIVE_ITEMS
