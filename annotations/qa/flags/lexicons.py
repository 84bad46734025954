"""Word lists for the text checks. Pure, so the chat backend can use the same ones live.

Deliberately narrow: a false alarm costs a reviewer a glance, but a list that fires on every
"meta" or "google it" would train reviewers to ignore the flag.
"""

from __future__ import annotations

import re

# A reply that names a vendor or model family breaks the anonymisation of the study.
IDENTITY_PATTERN = re.compile(
    r"\b(?:open\s?ai|chat\s?gpt|gpt-?[345](?:\.\d)?o?|anthropic|claude|gemini|bard|"
    r"google\s+deepmind|trained\s+by\s+google|meta\s+ai|llama\s?\d*|mistral|mixtral|"
    r"deepseek|qwen|copilot|large\s+language\s+model\s+(?:made|developed|trained)\s+by)\b",
    re.IGNORECASE,
)

# Crisis phrases in a participant's message: the conversation needs a human look.
RISK_PATTERN = re.compile(
    r"\b(?:kill(?:ing)?\s+myself|suicid(?:e|al)|end(?:ing)?\s+my\s+(?:own\s+)?life|"
    r"end\s+it\s+all|self[-\s]?harm|hurt(?:ing)?\s+myself|cut(?:ting)?\s+myself|"
    r"(?:don'?t|do\s+not)\s+want\s+to\s+(?:live|be\s+alive|wake\s+up)|better\s+off\s+dead|"
    r"no\s+reason\s+to\s+live|overdose)\b",
    re.IGNORECASE,
)


def matches(pattern: re.Pattern[str], text: str) -> list[str]:
    """The distinct matched phrases, lower-cased, in order of first appearance."""
    seen: dict[str, None] = {}
    for match in pattern.finditer(text or ""):
        seen.setdefault(" ".join(match.group(0).lower().split()), None)
    return list(seen)
