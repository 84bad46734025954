"""``report.html``: one self-contained page (inline CSS and SVG; no scripts, no external assets)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from attunebench.report import formatting as fmt
from attunebench.report.charts import Chart
from attunebench.report.configurations import PARAMS_POLICY
from attunebench.report.judges import HEADERS as AGREEMENT_HEADERS
from attunebench.report.judges import agreement_rows, judged_quality_statement
from attunebench.report.leaderboard import estimates_by_model, ordered_models
from attunebench.report.provenance import Provenance
from attunebench.report.reading import note
from attunebench.report.reproducibility import Reproducibility
from attunebench.stats.contract import TRAIT_PREFIX
from attunebench.stats.results import Statistics

STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;max-width:1100px;
margin:2rem auto;padding:0 1rem;line-height:1.45}
h1,h2{line-height:1.2} h2{margin-top:2.5rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
thead th{background:#f2f2f2}
tr.baseline td{background:#f7f7f7;font-style:italic}
.tag{font-size:.75rem;border:1px solid #777;border-radius:3px;padding:0 .3rem;font-style:normal}
figure{margin:1.5rem 0} figure svg{max-width:100%;height:auto}
figcaption{font-size:.9rem;max-width:60rem}
.provenance{color:#444;font-size:.85rem}
.how-to-read{font-size:.9rem;max-width:60rem;background:#f7f7f7;border-left:3px solid #999;
padding:.4rem .7rem}
nav ul{columns:2}
"""


def how_to_read(key: str) -> str:
    return f'<p class="how-to-read"><strong>How to read this.</strong> {escape(note(key))}</p>'


def _table(
    caption: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    row_classes: Sequence[str] | None = None,
) -> str:
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = []
    for i, row in enumerate(rows):
        css = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        cells = "".join(f"<td>{cell}</td>" for cell in row)  # cells arrive escaped
        body.append(f"<tr{css}>{cells}</tr>")
    return (
        f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _figure(chart: Chart, number: int, provenance: Provenance) -> str:
    return (
        f'<figure id="{chart.name}">{chart.svg}<figcaption><strong>Figure {number}.</strong> '
        f'{escape(chart.caption)} <span class="provenance">{escape(provenance.label())}.</span> '
        f'<a href="charts/{chart.name}.svg">SVG file</a></figcaption></figure>'
    )


def _leaderboard(statistics: Statistics, provenance: Provenance) -> str:
    table = estimates_by_model(statistics)
    ranked = set(statistics.ranked_axes or statistics.axes)
    headers = ["Model", "n"]
    for axis in statistics.axes:
        headers += [f"{fmt.heading(axis, statistics.platform_axes)} (95% CI)", "Rank"]
    rows, classes = [], []
    for model, baseline in ordered_models(statistics):
        name = escape(model) + (' <span class="tag">baseline, reference</span>' if baseline else "")
        composite = table[model].get("composite")
        row = [name, str(composite.n if composite else "")]
        for axis in statistics.axes:
            e = table[model].get(axis)
            row.append(escape(fmt.estimate(axis, e.mean, e.ci_low, e.ci_high)) if e else "n/a")
            row.append(
                "reference"
                if baseline
                else "not ranked"
                if axis not in ranked
                else escape(fmt.ranks(e.rank_low, e.rank_high) if e else "—")
            )
        rows.append(row)
        classes.append("baseline" if baseline else "")
    caption = (
        f"Leaderboard, mode {statistics.settings['primary_mode']}: mean, 95% BCa interval and 95% "
        f"rank interval per axis; baselines are reference rows, not ranked. {provenance.label()}."
    )
    return _table(caption, headers, rows, classes) + _platform_axes_note(statistics)


def _platform_axes_note(statistics: Statistics) -> str:
    """Which columns are the paper's four axes and which this platform added, and whether the
    added ones are ranked and tested in this report."""
    added = [a for a in statistics.platform_axes if a in statistics.axes]
    if not added:
        return ""
    names = ", ".join(fmt.label(a) for a in added)
    paper = ", ".join(fmt.label(a) for a in statistics.axes if a not in added and a != "composite")
    if any(a in statistics.ranked_axes for a in added):
        treated = (
            "This report was asked to rank and test it like the paper's axes: it has rank "
            "intervals and pair tests and enters rank independence."
        )
    else:
        treated = (
            "It is reported beside them (mean, interval, subgroups, mode deltas) but not ranked, "
            "not tested pair by pair, and left out of rank independence, so the paper's claims "
            "are checked on the paper's axes."
        )
    return (
        f'<p class="platform-axes">The paper\'s four axes are {escape(paper)}. '
        f"{escape(names)} (how well a model predicts the participant's answers after the "
        f"conversation, the composite's third pillar) is {escape(fmt.PLATFORM_ADDITION)}. "
        f"{escape(treated)}</p>"
    )


def _discriminability(statistics: Statistics) -> str:
    rows = [
        [
            escape(fmt.label(d.axis)),
            f"{d.n_distinguished} of {d.n_pairs}",
            "n/a" if d.share_distinguished is None else f"{d.share_distinguished:.0%}",
            "n/a" if d.variance_ratio is None else f"{d.variance_ratio:.4f}",
            "n/a" if d.f_statistic is None else f"{d.f_statistic:.2f}",
        ]
        for d in statistics.discriminability
    ]
    headers = [
        "Axis",
        "Pairs reliably distinguished",
        "Share",
        "Between / within variance",
        "ANOVA F",
    ]
    across = statistics.multiplicity.get("correction") == "holm_across_axes"
    caption = "Discriminability per axis (paired bootstrap, " + (
        "Holm over every axis-pair test)" if across else "Holm per axis, not across the axes)"
    )
    return _table(caption, headers, rows) + _multiplicity(statistics)


def _multiplicity(statistics: Statistics) -> str:
    """What is and is not corrected for multiple comparisons (the report's own words)."""
    statement = statistics.multiplicity.get("statement")
    if not statement:
        return ""
    return f'<p class="multiplicity"><strong>Multiple comparisons.</strong> {escape(statement)}</p>'


def _rank_table(statistics: Statistics) -> str:
    rows = [
        [
            escape(f"{fmt.label(c.axis_a)} – {fmt.label(c.axis_b)}"),
            str(c.n_models),
            "n/a" if c.tau is None else f"{c.tau:+.3f}".replace("-", "−"),
            fmt.p_value(c.p_value) + ("" if c.exact else " (Monte Carlo)"),
        ]
        for c in statistics.rank_correlations
    ]
    text = _table(
        "Kendall's tau between axis rankings", ["Axes", "Models", "tau-b", "Permutation p"], rows
    )
    w = statistics.concordance
    if w is not None and w.w is not None:
        text += (
            f"<p>Kendall's W over {len(w.axes)} axes and {w.n_models} models: <strong>{w.w:.3f}</strong> "
            f"(permutation p {fmt.p_value(w.p_value)}; chi-square {w.chi_square:.2f}, "
            f"p {fmt.p_value(w.chi_square_p_value)}). W = 1 would mean every axis ranks the models alike.</p>"
        )
    return text


def _subgroup_table(statistics: Statistics) -> str:
    keys = list(dict.fromkeys((s.grouping, s.level, s.reference) for s in statistics.subgroups))
    cells = {(s.grouping, s.level, s.reference, s.axis): s for s in statistics.subgroups}
    headers = ["Group vs reference", "n (group / reference)"] + [
        fmt.label(a) for a in statistics.axes
    ]
    rows = []
    for grouping, level, reference in keys:
        first = cells[(grouping, level, reference, statistics.axes[0])]
        sizes = (
            f"{first.n_level} / {first.n_reference} "
            f"({first.n_level_participants} / {first.n_reference_participants} participants)"
            + (" <strong>small</strong>" if first.small else "")
        )
        name = "trait" if grouping.startswith(TRAIT_PREFIX) else grouping
        row = [escape(f"{name}: {level} vs {reference}"), sizes]
        for axis in statistics.axes:
            s = cells.get((grouping, level, reference, axis))
            row.append(
                escape(
                    fmt.estimate(axis, s.difference, s.ci_low, s.ci_high, signed=True)
                    + f"; p (Holm) {fmt.p_value(s.p_holm)}"
                )
                if s
                else "n/a"
            )
        rows.append(row)
    minimum = statistics.settings["min_group_size"]
    caption = (
        "Subgroup differences (group minus reference, per conversation averaged over models; "
        "95% BCa interval and two-sided p-value from a cluster bootstrap over participants, "
        "the p-value Holm-adjusted over the subgroup comparisons of the axis, the interval "
        f"unadjusted). n: conversations (participants). Groups under {minimum} participants "
        "are marked small."
    )
    return _table(caption, headers, rows)


def _mode_tables(statistics: Statistics) -> str:
    parts = []
    for mode, base in dict.fromkeys((d.mode, d.base_mode) for d in statistics.mode_deltas):
        cells = {
            (d.model, d.axis): d
            for d in statistics.mode_deltas
            if (d.mode, d.base_mode) == (mode, base)
        }
        models = list(dict.fromkeys(model for model, _ in cells))
        rows = []
        for model in models:
            row = [escape(model), str(cells[(model, statistics.axes[0])].n_shared)]
            for axis in statistics.axes:
                d = cells[(model, axis)]
                row.append(
                    escape(fmt.estimate(axis, d.difference, d.ci_low, d.ci_high, signed=True))
                )
            rows.append(row)
        headers = ["Model", "Shared conversations"] + [fmt.label(a) for a in statistics.axes]
        parts.append(_table(f"{mode} minus {base} (paired, 95% BCa interval)", headers, rows))
    return "".join(parts) or "<p>No mode comparison in this run.</p>"


def _agreement_table(statistics: Statistics) -> str:
    if not statistics.agreement:
        return "<p>No judge answers were given for this run.</p>"
    rows = [
        [
            escape(f"{a.rater_a} – {a.rater_b}"),
            str(a.n_items),
            str(a.n_conversations),
            "n/a" if a.percent_agreement is None else f"{a.percent_agreement:.1%}",
            "n/a"
            if a.kappa is None
            else f"{a.kappa:.3f} [{a.kappa_ci_low:.3f}, {a.kappa_ci_high:.3f}]",
        ]
        for a in statistics.agreement
    ]
    headers = ["Raters", "Items", "Conversations", "Percent agreement", "Cohen's kappa (95% CI)"]
    return _table("Judge reliability on yes/no behaviour answers", headers, rows)


def _participant_agreement(statistics: Statistics) -> str:
    if not statistics.reply_agreement:
        return (
            "<p>No judge answered the behaviour questions about the original or the edited "
            "replies in this run (a run without judges, or outputs written before this table "
            "existed).</p>"
        )
    caption = (
        "Judges vs participants on the behaviour questions, per judged reply and question "
        "category (all = pooled); judge-judge agreement beside"
    )
    return _table(caption, AGREEMENT_HEADERS, agreement_rows(statistics))


def _reproducibility(reproducibility: Reproducibility | None) -> str:
    if reproducibility is None:
        return "<p>No reproducibility record was given for this report.</p>"
    rows = [
        [escape(label), f"<code>{escape(value)}</code>" if label == "Re-run" else escape(value)]
        for label, value in reproducibility.rows()
    ]
    return _table("What produced these numbers", ["Item", "Value"], rows) + _configurations(
        reproducibility
    )


def _configurations(reproducibility: Reproducibility) -> str:
    """Each model's and judge's configuration; the endpoint settings in a table apart."""
    found = reproducibility.configurations
    if not found:
        return "<p>No model configurations were recorded for this report.</p>"
    rows = [
        [
            escape(c.role),
            escape(c.alias),
            f"<code>{escape(c.model)}</code>",
            f"<code>{escape(c.configuration_id)}</code>",
            escape(c.params_text()),
            escape(c.system_prompt_version)
            + f" <code>{escape(c.system_prompt_sha256[:12])}</code>",
            escape(c.endpoint_system_prompt_version or "—"),
        ]
        for c in found
    ]
    headers = [
        "Role",
        "Alias",
        "Model string",
        "Configuration id",
        "Parameters",
        "System prompt sent (version, sha256)",
        "Endpoint's chat prompt version (not sent)",
    ]
    caption = (
        "Models and judges: what decides their answers (the configuration id hashes the model "
        f"string, API host, every parameter and the system prompt sent); {PARAMS_POLICY}"
    )
    settings = [[escape(c.role), escape(c.alias), escape(c.settings_text())] for c in found]
    return _table(caption, headers, rows) + _table(
        "Endpoint settings: how fast and how patiently calls were made; they change nothing "
        "in the numbers",
        ["Role", "Alias", "Settings"],
        settings,
    )


def _parse_table(statistics: Statistics) -> str:
    """One row per model and mode, one column per call type: rate (failures / calls)."""
    if not statistics.parse_failures:
        return "<p>No parse-failure counts were recorded.</p>"
    call_types = sorted({r.call_type for r in statistics.parse_failures})
    cells = {(r.model, r.mode, r.call_type): r for r in statistics.parse_failures}
    rows = []
    for model, mode in dict.fromkeys((r.model, r.mode) for r in statistics.parse_failures):
        row = [escape(model), escape(mode)]
        for call_type in call_types:
            r = cells.get((model, mode, call_type))
            rate = "n/a" if r is None or r.rate is None else f"{r.rate:.1%}"
            row.append(rate if r is None else f"{rate} ({r.failures}/{r.calls})")
        rows.append(row)
    headers = ["Model", "Mode", *call_types]
    caption = (
        "Parse-failure rate per call type, failures/calls (format failures, not EI failures); "
        "draft_judge_turns: judged turns dropped from judged quality because a judge did not "
        "answer, of the turns sent to the judges"
    )
    return _table(caption, headers, rows)


def _methods(statistics: Statistics) -> str:
    s = statistics.settings
    items = "".join(
        f"<li><strong>{escape(k)}</strong>: {escape(str(v))}</li>" for k, v in s["methods"].items()
    )
    return (
        f"<p>Seed {s['seed']}, {s['n_resamples']:,} bootstrap resamples, {s['n_permutations']:,} "
        f"permutations, confidence {s['confidence']}, alpha {s['alpha']}, small groups under "
        f"{s['min_group_size']} conversations. Every number is reproducible from the score frame "
        f"and these settings (report.json records them).</p><ul>{items}</ul>"
        + _multiplicity(statistics)
    )


def report_sections(
    statistics: Statistics, provenance: Provenance, reproducibility: Reproducibility | None = None
) -> list[tuple[str, str, str]]:
    """(key, title, tables and their "how to read this" notes) of every section: report.html
    adds the figures; report.json carries these for the admin's report page."""
    judged = f"<p>{escape(judged_quality_statement(statistics, reproducibility.judge_labels() if reproducibility else {}))}</p>"
    return [
        (
            "reproducibility",
            "Reproducibility",
            _reproducibility(reproducibility) + how_to_read("reproducibility"),
        ),
        (
            "leaderboard",
            "Leaderboard",
            _leaderboard(statistics, provenance) + how_to_read("leaderboard") + judged,
        ),
        ("axes", "Axes", ""),
        (
            "pairs",
            "Which models can be told apart",
            _discriminability(statistics) + how_to_read("pairs"),
        ),
        ("ranks", "Rank independence", _rank_table(statistics) + how_to_read("ranks")),
        ("subgroups", "Subgroups", _subgroup_table(statistics) + how_to_read("subgroups")),
        ("modes", "Mode deltas", _mode_tables(statistics) + how_to_read("modes")),
        (
            "participants",
            "Judges and participants",
            _participant_agreement(statistics) + how_to_read("participants"),
        ),
        ("judges", "Judge reliability", _agreement_table(statistics) + how_to_read("judges")),
        ("parse", "Parse failures", _parse_table(statistics) + how_to_read("parse")),
        ("methods", "Methods", _methods(statistics)),
    ]


# Which charts go in which section, and whether before or after the tables.
_FIGURES = {
    "axes": ("axis", False),
    "pairs": ("pairs", False),
    "ranks": ("rank", True),
    "subgroups": ("subgroups", False),
}


def render_html(
    statistics: Statistics,
    charts: Sequence[Chart],
    provenance: Provenance,
    reproducibility: Reproducibility | None = None,
) -> str:
    by_kind: dict[str, list[Chart]] = {}
    for chart in charts:
        by_kind.setdefault(chart.name.split("_", 1)[0], []).append(chart)
    numbers = {chart.name: i + 1 for i, chart in enumerate(charts)}

    def figures(kind: str) -> str:
        return "".join(_figure(c, numbers[c.name], provenance) for c in by_kind.get(kind, []))

    sections = []
    for key, title, tables in report_sections(statistics, provenance, reproducibility):
        kind, first = _FIGURES.get(key, ("", False))
        shown = figures(kind) if kind else ""
        sections.append((key, title, shown + tables if first else tables + shown))
    nav = "".join(f'<li><a href="#{key}">{escape(title)}</a></li>' for key, title, _ in sections)
    body = "".join(
        f'<section id="{key}"><h2>{escape(title)}</h2>{html}</section>'
        for key, title, html in sections
    )
    label = escape(provenance.label())
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>AttuneBench report · run {escape(provenance.run_id)}</title><style>{STYLE}</style></head>"
        f'<body><header><h1>AttuneBench evaluation report</h1><p class="provenance">{label}</p></header>'
        f'<nav aria-label="Contents"><ul>{nav}</ul></nav><main>{body}</main></body></html>\n'
    )
