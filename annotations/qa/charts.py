"""Small inline-SVG charts that read at a glance. Pure Python, no plotting library.

Three shapes cover the monitoring page: horizontal bars (optionally grouped: categories x
series), columns (a histogram) and lines (a daily series). Every label is escaped here, so the
returned string may be marked safe. Colours are the Okabe-Ito palette (colour-blind safe), and
each chart carries a <title> and aria-label for screen readers; the numbers themselves are in
the CSV beside each chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999")
Format = Callable[[float], str]
FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def nice_ceiling(value: float) -> float:
    """1, 2 or 5 times a power of ten: axis ends a reader can count in."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def _svg(title: str, width: int, height: int, body: list[str]) -> str:
    label = escape(title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="qa-chart" role="img" '
        f'aria-label="{label}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" {FONT}>'
        f"<title>{label}</title>{''.join(body)}</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{escape(text)}</text>'


def _legend(names: Sequence[str], y: float) -> list[str]:
    parts, x = [], 0.0
    for index, name in enumerate(names):
        parts.append(
            f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{PALETTE[index % len(PALETTE)]}"/>'
        )
        parts.append(_text(x + 14, y, name))
        x += 24 + 7 * len(name)
    return parts


def bars(
    title: str,
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    fmt: Format = _number,
    maximum: float | None = None,
) -> str:
    """Horizontal bars: one row per category, one bar per series inside a row."""
    label_width, bar_area, value_width, bar_h = 170, 320, 70, 14
    names = list(series)
    top = 18 if len(names) > 1 else 4
    row_h = bar_h * len(names) + 8
    scale_max = maximum or nice_ceiling(max((v for vs in series.values() for v in vs), default=0))
    body = _legend(names, 11) if len(names) > 1 else []
    for row, category in enumerate(categories):
        y0 = top + row * row_h
        body.append(_text(label_width - 6, y0 + row_h / 2 + 2, category, "end"))
        for index, name in enumerate(names):
            value = series[name][row]
            width = bar_area * (value / scale_max) if scale_max else 0
            y = y0 + index * bar_h
            colour = PALETTE[index % len(PALETTE)]
            body.append(
                f'<rect x="{label_width}" y="{y:.1f}" width="{width:.1f}" height="{bar_h - 2}" fill="{colour}">'
                f"<title>{escape(f'{category}, {name}: {fmt(value)}')}</title></rect>"
            )
            body.append(_text(label_width + width + 4, y + bar_h - 4, fmt(value)))
    height = top + max(1, len(categories)) * row_h + 4
    return _svg(title, label_width + bar_area + value_width, int(height), body)


def columns(title: str, labels: Sequence[str], values: Sequence[float], *, x_title: str) -> str:
    """Vertical columns (a histogram): a count above every column, labels below."""
    left, top, plot_h, col_w = 8, 16, 140, max(14, min(40, 560 // max(1, len(labels))))
    scale_max = nice_ceiling(max(values, default=0))
    body = []
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = plot_h * value / scale_max
        x = left + index * col_w
        body.append(
            f'<rect x="{x + 1}" y="{top + plot_h - h:.1f}" width="{col_w - 2}" height="{h:.1f}" fill="{PALETTE[0]}">'
            f"<title>{escape(f'{label}: {_number(value)}')}</title></rect>"
        )
        body.append(_text(x + col_w / 2, top + plot_h - h - 3, _number(value), "middle"))
        body.append(_text(x + col_w / 2, top + plot_h + 13, label, "middle"))
    width = left * 2 + col_w * max(1, len(labels))
    body.append(_text(width / 2, top + plot_h + 28, x_title, "middle", 'fill="#555"'))
    return _svg(title, max(width, 160), top + plot_h + 34, body)


def _axis(maximum: float) -> tuple[float, float]:
    """The axis end and tick step: at most about five ticks, each a round number."""
    step = nice_ceiling(maximum / 4) if maximum > 0 else 1.0
    return step * max(1, math.ceil(maximum / step)), step


def lines(title: str, x_labels: Sequence[str], series: Mapping[str, Sequence[float]]) -> str:
    """A daily series: one line per series, a round-numbered y grid, about eight x labels.

    Earlier series are drawn wider, so lines that coincide (every start completed, say) show
    as nested bands instead of hiding one another.
    """
    left, right, top, plot_w, plot_h = 44, 12, 22, 600, 170
    scale_max, step = _axis(max((v for vs in series.values() for v in vs), default=0))
    n = len(x_labels)
    step_x = plot_w / max(1, n - 1)
    body = _legend(list(series), 11)
    for tick in range(round(scale_max / step) + 1):
        value = tick * step
        y = top + plot_h - plot_h * value / scale_max
        body.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        body.append(_text(left - 4, y + 4, _number(value), "end"))
    every = max(1, math.ceil(n / 8))
    for index in range(0, n, every):
        body.append(_text(left + index * step_x, top + plot_h + 14, x_labels[index], "middle"))
    for index, (name, values) in enumerate(series.items()):
        points = " ".join(
            f"{left + i * step_x:.1f},{top + plot_h - plot_h * v / scale_max:.1f}"
            for i, v in enumerate(values)
        )
        colour = PALETTE[index % len(PALETTE)]
        width = 2 + 2 * (len(series) - 1 - index)
        body.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="{width}" '
            f'stroke-linejoin="round"><title>{escape(f"{name}: {_number(sum(values))} in all")}</title></polyline>'
        )
    return _svg(title, left + plot_w + right, top + plot_h + 22, body)


def percent(value: float) -> str:
    return f"{value:.1%}"
