"""The report's charts as SVG: per-axis means, rank correlations, pairwise significance,
subgroup differences. Colour is never the only cue: markers differ in shape and fill, cells
carry symbols or numbers, and every chart's ``<desc>`` lists its values as text."""

from __future__ import annotations

from dataclasses import dataclass

from attunebench.report import formatting as fmt
from attunebench.report.provenance import Provenance
from attunebench.report.svg import (
    BLUE,
    DARK,
    GREY,
    ORANGE,
    VERMILLION,
    Scale,
    circle,
    document,
    line,
    rect,
    text,
)
from attunebench.stats.contract import TRAIT_PREFIX
from attunebench.stats.results import AxisEstimate, PairTest, Statistics

ROW = 22
TOP = 40


@dataclass(frozen=True)
class Chart:
    name: str  # file stem: charts/<name>.svg
    title: str
    caption: str  # what the figure shows and how to read it (the figcaption, before provenance)
    svg: str


def leaderboard_rows(statistics: Statistics, axis: str) -> list[AxisEstimate]:
    """Primary-mode rows of one axis: models by mean (best first), then the baselines."""
    mode = statistics.settings["primary_mode"]
    rows = [e for e in statistics.estimates if e.axis == axis and e.mode == mode]

    def by_mean(e: AxisEstimate) -> tuple[bool, float]:
        return (e.mean is None, -(e.mean or 0.0))

    models = sorted((e for e in rows if not e.baseline), key=by_mean)
    return models + sorted((e for e in rows if e.baseline), key=by_mean)


def _whisker(scale: Scale, y: float, low: float, high: float, dashed: bool) -> list[str]:
    """An interval with end caps, clipped to the plot; nothing when it lies wholly outside."""
    if high < scale.low or low > scale.high:
        return []
    a, b = scale(max(low, scale.low)), scale(min(high, scale.high))
    dash = "4 3" if dashed else None
    return [
        line(a, y, b, y, stroke_width=1.5, stroke_dasharray=dash),
        line(a, y - 5, a, y + 5, stroke_width=1.5),
        line(b, y - 5, b, y + 5, stroke_width=1.5),
    ]


@dataclass(frozen=True)
class Dot:
    """One row of a dot-and-whisker chart."""

    label: str
    value: float | None
    low: float | None
    high: float | None
    summary: str  # the numbers, printed right of the plot and read out in the description
    marker: str  # "model" (filled circle), "reference" (hollow square), "group", "small group"


def _marker(marker: str, x: float, y: float) -> str:
    if marker == "reference":  # hollow grey square: a reference, not a contender
        return rect(x - 5, y - 5, 10, 10, fill="#ffffff", stroke=GREY, stroke_width=2)
    fill = {"model": BLUE, "group": ORANGE}.get(marker, "#ffffff")  # small group: hollow
    return circle(x, y, 5, fill=fill, stroke=DARK, stroke_width=1.5)


def _dot_rows(dots: list[Dot], scale: Scale, label_size: int) -> tuple[list[str], list[str]]:
    """(shapes, text alternative lines). Hollow markers also get dashed whiskers, so the kind of
    row never rests on colour alone; a value beyond the scale sits at its edge, marked."""
    shapes, lines = [], []
    for i, dot in enumerate(dots):
        y = TOP + ROW * i + ROW / 2
        shapes.append(
            text(scale.left - 10, y + 4, dot.label, text_anchor="end", font_size=label_size)
        )
        if dot.value is None:
            shapes.append(text(scale.left, y + 4, "no data", fill=GREY))
            continue
        if dot.low is not None and dot.high is not None:
            hollow = dot.marker in ("reference", "small group")
            shapes += _whisker(scale, y, dot.low, dot.high, dashed=hollow)
        shapes.append(_marker(dot.marker, scale(min(max(dot.value, scale.low), scale.high)), y))
        summary = dot.summary + ("" if scale.contains(dot.value) else " (off scale)")
        shapes.append(text(scale.right + 12, y + 4, summary, font_size=11))
        lines.append(f"{dot.label}: {summary}")
    return shapes, lines


def axis_chart(statistics: Statistics, axis: str, provenance: Provenance) -> Chart:
    rows = leaderboard_rows(statistics, axis)
    shown = [e for e in rows if e.mean is not None]
    left, right, width = 230.0, 560.0, 800.0
    # Scale to the models so their differences stay visible; a baseline far below is drawn at
    # the edge and its value marked "off scale" (the table holds every number).
    scaled = [e for e in shown if not e.baseline] or shown
    scale = Scale(
        [v for e in scaled for v in (e.ci_low, e.ci_high, e.mean) if v is not None], left, right
    )
    height = TOP + ROW * len(rows) + 40
    body = [text(left, 20, f"{fmt.label(axis)}: mean and 95% BCa interval", font_weight="bold")]
    body += scale.axis(TOP + ROW * len(rows) + 4)
    dots = [
        Dot(
            label=f"{e.model} (baseline)" if e.baseline else e.model,
            value=e.mean,
            low=e.ci_low,
            high=e.ci_high,
            summary=fmt.estimate(axis, e.mean, e.ci_low, e.ci_high)
            + (f", rank {fmt.ranks(e.rank_low, e.rank_high)}" if e.rank_low is not None else ""),
            marker="reference" if e.baseline else "model",
        )
        for e in rows
    ]
    shapes, lines = _dot_rows(dots, scale, label_size=12)
    body += shapes
    title = f"{fmt.label(axis)} by model"
    description = (
        f"Dot-and-whisker chart of the mean {fmt.label(axis).lower()} per model with its 95% "
        f"interval; models sorted by mean, baselines last as hollow squares. " + "; ".join(lines)
    )
    caption = (
        f"{title}: mean per conversation with 95% BCa bootstrap intervals (whiskers) and the "
        "95% rank interval. Filled circles are models; hollow squares with dashed whiskers are "
        'reference baselines (not ranked); a value marked "off scale" lies beyond the plotted '
        "range and is drawn at its edge."
    )
    if axis in statistics.platform_axes:
        caption += (
            f" {fmt.label(axis)} is {fmt.PLATFORM_ADDITION}, not one of the paper's four axes"
            + ("." if axis in statistics.ranked_axes else "; it is not ranked in this report.")
        )
    return Chart(
        f"axis_{axis}",
        title,
        caption,
        document(f"axis-{axis}", width, height, title, description, provenance.label(), body),
    )


def _cell(
    x: float, y: float, size: float, label: str, *, ink: str = DARK, font_size: int, **paint: str
) -> list[str]:
    """A square matrix cell with its label centred (the label carries what the fill shows)."""
    shapes = [rect(x, y, size, size, stroke="#ffffff", **paint)]
    if label:
        middle = y + size / 2 + font_size * 0.38
        shapes.append(
            text(x + size / 2, middle, label, text_anchor="middle", font_size=font_size, fill=ink)
        )
    return shapes


def rank_heatmap(statistics: Statistics, provenance: Provenance) -> Chart:
    axes = list(
        dict.fromkeys(
            [c.axis_a for c in statistics.rank_correlations]
            + [c.axis_b for c in statistics.rank_correlations]
        )
    )
    found = {(c.axis_a, c.axis_b): c for c in statistics.rank_correlations}
    found.update({(c.axis_b, c.axis_a): c for c in statistics.rank_correlations})
    cell, left, top = 100.0, 150.0, 60.0
    body = [text(left, 20, "Kendall's tau between model rankings", font_weight="bold")]
    lines = []
    for j, axis in enumerate(axes):
        body.append(
            text(left + cell * j + cell / 2, top - 8, fmt.SHORT_LABELS[axis], text_anchor="middle")
        )
    for i, row in enumerate(axes):
        y = top + cell * i
        body.append(text(left - 10, y + cell / 2 + 4, fmt.SHORT_LABELS[row], text_anchor="end"))
        for j, column in enumerate(axes):
            x = left + cell * j
            pair = found.get((row, column))
            tau = 1.0 if row == column else (pair.tau if pair else None)
            colour = BLUE if (tau or 0) >= 0 else VERMILLION
            strength = abs(tau) if tau is not None else 0.0
            star = "*" if pair and pair.p_value is not None and pair.p_value < 0.05 else ""
            label = "n/a" if tau is None else f"{tau:+.2f}{star}".replace("-", "−")
            shade = f"{0.6 * strength:.2f}"  # light enough for dark text at full strength
            body += _cell(x, y, cell, label, fill=colour, fill_opacity=shade, font_size=14)
            if pair and j > i:
                lines.append(
                    f"{fmt.label(row)} vs {fmt.label(column)}: tau {label} (p {fmt.p_value(pair.p_value)})"
                )
    bottom = top + cell * len(axes)
    legend = (
        "Numbers are tau-b; * permutation p < 0.05 (uncorrected).",
        "Blue positive, red negative; the shade shows the strength.",
    )
    body += [text(8, bottom + 18 + 15 * k, part, font_size=11) for k, part in enumerate(legend)]
    bottom += 15
    title = "Rank correlation between axes"
    description = (
        "Heatmap of Kendall's tau between the model rankings of every two axes. " + "; ".join(lines)
    )
    concordance = statistics.concordance
    w = (
        f" Kendall's W over these axes: {concordance.w:.2f} (permutation p {fmt.p_value(concordance.p_value)})."
        if concordance and concordance.w is not None
        else ""
    )
    caption = f"{title}: Kendall's tau-b of the model rankings of every two axes, with permutation p-values.{w}"
    width = left + cell * len(axes) + 40
    return Chart(
        "rank_correlation",
        title,
        caption,
        document(
            "rank-correlation",
            max(width, 640),
            bottom + 30,
            title,
            description,
            provenance.label(),
            body,
        ),
    )


def _pair_cell(test: PairTest | None, row_model: str) -> tuple[str, str, str]:
    """(symbol, fill, text colour) of the row model against the column model."""
    if test is None or test.difference is None:
        return "", "#ffffff", DARK
    if not test.distinguished:
        return "·", "#eeeeee", DARK
    row_above = (test.difference > 0) == (test.model_a == row_model)
    return ("▲", BLUE, "#ffffff") if row_above else ("▼", VERMILLION, "#ffffff")


def significance_matrix(statistics: Statistics, axis: str, provenance: Provenance) -> Chart:
    rows = [e for e in leaderboard_rows(statistics, axis) if not e.baseline]
    order = [e.model for e in rows]
    tests = {(t.model_a, t.model_b): t for t in statistics.pairs if t.axis == axis}
    cell, left, top = 26.0, 220.0, 60.0
    distinguished = sum(t.distinguished for t in tests.values())
    alpha = statistics.settings["alpha"]
    header = f"{fmt.label(axis)}: {distinguished} of {len(tests)} pairs distinguished (Holm, alpha {alpha})"
    body = [text(8, 20, header, font_weight="bold")]
    for j in range(len(order)):
        body.append(
            text(
                left + cell * j + cell / 2, top - 8, str(j + 1), text_anchor="middle", font_size=11
            )
        )
    lines = []
    for i, model in enumerate(order):
        y = top + cell * i
        body.append(
            text(left - 8, y + cell / 2 + 4, f"{i + 1}  {model}", text_anchor="end", font_size=11)
        )
        for j, other in enumerate(order):
            test = tests.get((model, other)) or tests.get((other, model))
            symbol, fill, ink = _pair_cell(test, model) if i != j else ("", "#ffffff", DARK)
            if test is not None and test.distinguished and j > i:
                lines.append(f"{model} {'above' if symbol == '▲' else 'below'} {other}")
            x = left + cell * j
            body += _cell(x, y, cell, symbol, fill=fill, ink=ink, font_size=13)
    bottom = top + cell * len(order)
    body.append(
        text(
            8,
            bottom + 18,
            "▲ row reliably above column · ▼ row reliably below column · dot: not distinguished. "
            "Columns numbered as rows.",
            font_size=11,
        )
    )
    title = f"Pairwise significance, {fmt.label(axis).lower()}"
    description = (
        f"Matrix of paired bootstrap tests between models on {fmt.label(axis).lower()}, "
        f"rows and columns in order of the mean. {header}. "
        + ("Distinguished: " + "; ".join(lines) if lines else "No pair is distinguished.")
    )
    caption = (
        f"{title}: paired bootstrap test over the shared conversations for every pair of models, "
        f"Holm-corrected over the {len(tests)} pairs of the axis. {distinguished} of "
        f"{len(tests)} pairs are reliably distinguished."
    )
    width = max(left + cell * len(order) + 40, 720)
    return Chart(
        f"pairs_{axis}",
        title,
        caption,
        document(f"pairs-{axis}", width, bottom + 30, title, description, provenance.label(), body),
    )


def subgroup_chart(statistics: Statistics, axis: str, provenance: Provenance) -> Chart:
    rows = [s for s in statistics.subgroups if s.axis == axis]
    left, right, width = 300.0, 560.0, 860.0
    scale = Scale(
        [v for s in rows for v in (s.ci_low, s.ci_high, s.difference) if v is not None],
        left,
        right,
        include_zero=True,
    )
    height = TOP + ROW * len(rows) + 40
    body = [
        text(
            8,
            20,
            f"{fmt.label(axis)}: subgroup minus reference, 95% BCa interval",
            font_weight="bold",
        )
    ]
    body += scale.axis(TOP + ROW * len(rows) + 4)
    body.append(
        line(
            scale(0), TOP - 6, scale(0), TOP + ROW * len(rows), stroke=DARK, stroke_dasharray="3 3"
        )
    )
    minimum = statistics.settings["min_group_size"]
    dots = [
        Dot(
            label=f"{'trait' if g.grouping.startswith(TRAIT_PREFIX) else g.grouping}: "
            f"{g.level} vs {g.reference}",
            value=g.difference,
            low=g.ci_low,
            high=g.ci_high,
            summary=fmt.estimate(axis, g.difference, g.ci_low, g.ci_high, signed=True)
            + f" n {g.n_level}/{g.n_reference}"
            + f" ({g.n_level_participants}/{g.n_reference_participants} participants)"
            + (f" small (< {minimum} participants)" if g.small else ""),
            marker="small group" if g.small else "group",
        )
        for g in rows
    ]
    shapes, lines = _dot_rows(dots, scale, label_size=11)
    body += shapes
    title = f"Subgroups, {fmt.label(axis).lower()}"
    description = (
        f"Dot-and-whisker chart of subgroup differences on {fmt.label(axis).lower()} (per-conversation mean over models). "
        + "; ".join(lines)
    )
    caption = (
        f"{title}: mean of the subgroup minus its reference (another level, or the rest), per "
        "conversation averaged over the models, with 95% BCa intervals from a cluster bootstrap "
        "over participants, and group sizes. Hollow markers with dashed whiskers mark small "
        f"groups (fewer than {minimum} participants)."
    )
    return Chart(
        f"subgroups_{axis}",
        title,
        caption,
        document(f"subgroups-{axis}", width, height, title, description, provenance.label(), body),
    )


def all_charts(statistics: Statistics, provenance: Provenance) -> list[Chart]:
    charts = [axis_chart(statistics, axis, provenance) for axis in statistics.axes]
    if statistics.rank_correlations:
        charts.append(rank_heatmap(statistics, provenance))
    if statistics.pairs:
        tested = statistics.ranked_axes or statistics.axes
        charts += [significance_matrix(statistics, axis, provenance) for axis in tested]
    if statistics.subgroups:
        charts += [subgroup_chart(statistics, axis, provenance) for axis in statistics.axes]
    return charts
