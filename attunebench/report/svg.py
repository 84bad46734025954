"""A few SVG primitives of our own (no plotting library): shapes as strings, one document.

Accessibility: every document is ``role="img"`` labelled by its ``<title>`` and ``<desc>``
(the text alternative), and carries a visible provenance line so a saved chart stays traceable.
"""

from __future__ import annotations

import math
from html import escape

FONT = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif"
# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
BLUE, VERMILLION, ORANGE, GREY, DARK = "#0072B2", "#D55E00", "#E69F00", "#999999", "#222222"


def _attributes(attributes: dict[str, object]) -> str:
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for name, value in attributes.items()
        if value is not None
    )


def text(x: float, y: float, content: str, **attributes: object) -> str:
    attributes.setdefault("font_size", 12)
    attributes.setdefault("fill", DARK)
    return f'<text x="{x:.1f}" y="{y:.1f}"{_attributes(attributes)}>{escape(content)}</text>'


def line(x1: float, y1: float, x2: float, y2: float, **attributes: object) -> str:
    attributes.setdefault("stroke", DARK)
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"{_attributes(attributes)}/>'
    )


def rect(x: float, y: float, width: float, height: float, **attributes: object) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}"'
        f"{_attributes(attributes)}/>"
    )


def circle(x: float, y: float, radius: float, **attributes: object) -> str:
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"{_attributes(attributes)}/>'


def document(
    name: str,
    width: float,
    height: float,
    title: str,
    description: str,
    footer: str,
    body: list[str],
) -> str:
    """A standalone SVG (also valid inline in HTML); ``name`` keeps its ids unique in a page."""
    height += 24
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-labelledby="{name}-title {name}-desc" style="{FONT}">',
            f'<title id="{name}-title">{escape(title)}</title>',
            f'<desc id="{name}-desc">{escape(description)}</desc>',
            rect(0, 0, width, height, fill="#ffffff"),
            *body,
            text(8, height - 8, footer, font_size=10, fill="#555555"),
            "</svg>",
        ]
    )


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


class Scale:
    """Linear map from data to pixels, with the padded data range of the values it must show."""

    def __init__(self, values: list[float], left: float, right: float, include_zero: bool = False):
        finite = [v for v in values if math.isfinite(v)] + ([0.0] if include_zero else [])
        low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
        pad = (high - low) * 0.05 or max(abs(high) * 0.05, 0.01)
        self.low, self.high = low - pad, high + pad
        self.left, self.right = left, right

    def __call__(self, value: float) -> float:
        share = (value - self.low) / (self.high - self.low)
        return self.left + share * (self.right - self.left)

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def axis(self, y: float) -> list[str]:
        """A horizontal axis with gridlines up to the top margin; labels as precise as the step."""
        ticks = nice_ticks(self.low, self.high)
        step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
        digits = max(0, -math.floor(math.log10(step) + 1e-9))
        shapes = [line(self.left, y, self.right, y)]
        for tick in ticks:
            x = self(tick)
            label = f"{tick:.{digits}f}".replace("-", "−")
            shapes.append(line(x, 30, x, y, stroke="#e5e5e5"))
            shapes.append(line(x, y, x, y + 4))
            shapes.append(text(x, y + 16, label, text_anchor="middle"))
        return shapes
