"""The fixed vocabulary of the AttuneBench format (spec sections 1 and 2).

These names are facts of the data format, not of an instrument version: every release and
every reference file uses them, so the reader and the scorer depend on this module alone.
"""

PANAS_POSITIVE: tuple[str, ...] = (
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
PANAS_NEGATIVE: tuple[str, ...] = (
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
PANAS_ITEMS: tuple[str, ...] = PANAS_POSITIVE + PANAS_NEGATIVE
_PANAS_BY_LOWER = {name.lower(): name for name in PANAS_ITEMS}

# Valence/arousal coordinates (0..1) used for partial credit in emotion scoring.
PANAS_VALENCE_AROUSAL: dict[str, tuple[float, float]] = {
    "Afraid": (0.073, 0.84),
    "Scared": (0.083, 0.82),
    "Nervous": (0.188, 0.72),
    "Jittery": (0.196, 0.788),
    "Distressed": (0.125, 0.75),
    "Upset": (0.167, 0.65),
    "Guilty": (0.15, 0.6),
    "Ashamed": (0.13, 0.62),
    "Hostile": (0.2, 0.7),
    "Irritable": (0.22, 0.68),
    "Interested": (0.65, 0.6),
    "Excited": (0.8, 0.85),
    "Strong": (0.75, 0.7),
    "Enthusiastic": (0.82, 0.78),
    "Proud": (0.85, 0.65),
    "Alert": (0.7, 0.75),
    "Inspired": (0.9, 0.7),
    "Determined": (0.78, 0.72),
    "Attentive": (0.68, 0.6),
    "Active": (0.72, 0.8),
}

ANSWER_VALUES: tuple[str, ...] = ("yes", "no", "na")
RESPONSE_LABELS: tuple[str, ...] = ("original", "alternate", "human")
WINNERS: tuple[str, ...] = ("A", "B")
FOUR_BRANCHES: tuple[str, ...] = ("perceiving", "facilitating", "understanding", "managing")
LEGACY_INTENSITY: dict[str, int] = {"mild": 2, "moderate": 4, "intense": 6}
INTENSITY_MIN, INTENSITY_MAX = 1, 7
PANAS_TOTAL_MIN, PANAS_TOTAL_MAX = 10, 70


def canonical_panas_item(name: str) -> str | None:
    """The canonical spelling of a PANAS item, matched case-insensitively, or None."""
    return _PANAS_BY_LOWER.get(name.strip().lower())
