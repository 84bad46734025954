"""Number formatting shared by the HTML, the charts and their text alternatives."""

from __future__ import annotations

from attunebench.stats.contract import AXIS_LABELS

SHORT_LABELS: dict[str, str] = {
    "emotion_recognition": "Emotion",
    "behaviour_classification": "Behaviour",
    "preference_prediction": "Preference",
    "judged_response_quality": "Judged quality",
    "outcome_prediction": "Outcome",
    "composite": "Composite",
}


def decimals(axis: str) -> int:
    return 2 if axis == "composite" else 3  # the composite is on 0..100


def value(axis: str, number: float | None, *, signed: bool = False) -> str:
    if number is None:
        return "n/a"
    return f"{number:{'+' if signed else ''}.{decimals(axis)}f}".replace("-", "−")


def interval(axis: str, low: float | None, high: float | None, *, signed: bool = False) -> str:
    return f"[{value(axis, low, signed=signed)}, {value(axis, high, signed=signed)}]"


def estimate(
    axis: str, mean: float | None, low: float | None, high: float | None, *, signed: bool = False
) -> str:
    return f"{value(axis, mean, signed=signed)} {interval(axis, low, high, signed=signed)}"


def ranks(low: int | None, high: int | None) -> str:
    if low is None or high is None:
        return "—"
    return str(low) if low == high else f"{low}–{high}"


def p_value(p: float | None) -> str:
    if p is None:
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def label(axis: str) -> str:
    return AXIS_LABELS.get(axis, axis)


PLATFORM_ADDITION = "this platform's addition"


def heading(axis: str, platform_axes: tuple[str, ...]) -> str:
    """An axis's column heading: an axis outside the paper's four says so."""
    return f"{label(axis)} ({PLATFORM_ADDITION})" if axis in platform_axes else label(axis)
