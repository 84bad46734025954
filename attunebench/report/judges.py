"""Judge-vs-participant agreement in the report: the table, and the sentence the judged-quality
axis carries about how far its judges agree with the people the replies were written for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from attunebench.stats.agreement import PARTICIPANT
from attunebench.stats.reply_agreement import ALL_CATEGORIES, HUMAN_EDITED, ORIGINAL
from attunebench.stats.results import ReplyAgreement, Statistics

REPLY_LABELS = {ORIGINAL: "original reply", HUMAN_EDITED: "participant's edited reply"}
PLURAL_LABELS = {ORIGINAL: "original replies", HUMAN_EDITED: "participants' edited replies"}
HEADERS: tuple[str, ...] = (
    "Reply",
    "Category",
    "Raters",
    "Items",
    "Conversations",
    "Cohen's kappa (95% CI)",
    "Accuracy",
    "Judge yes / participant no",
    "Judge no / participant yes",
)


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def kappa_text(row: ReplyAgreement) -> str:
    if row.kappa is None:
        return "n/a (one answer throughout)"
    if row.kappa_ci_low is None or row.kappa_ci_high is None:
        return f"{row.kappa:.3f}"
    return f"{row.kappa:.3f} [{row.kappa_ci_low:.3f}, {row.kappa_ci_high:.3f}]"


def agreement_rows(statistics: Statistics) -> list[list[str]]:
    """Escaped cells: per reply and category, each judge vs the participant, then judge pairs."""
    rows = []
    for row in statistics.reply_agreement:
        with_participant = row.rater_a == PARTICIPANT
        raters = (
            f"{row.rater_b} vs participant"
            if with_participant
            else f"{row.rater_a} vs {row.rater_b} (judges)"
        )
        rows.append(
            [
                escape(REPLY_LABELS.get(row.reply, row.reply)),
                escape(row.category),
                escape(raters),
                str(row.n_items),
                str(row.n_conversations),
                escape(kappa_text(row)),
                _rate(row.accuracy),
                _rate(row.b_yes_where_a_no) if with_participant else "—",
                _rate(row.b_no_where_a_yes) if with_participant else "—",
            ]
        )
    return rows


def judged_quality_statement(
    statistics: Statistics, judges: Sequence[str] | Mapping[str, str] = ()
) -> str:
    """One plain sentence: how far the judged-quality axis's judges agree with the participants
    (all categories pooled), or why that is unknown.

    ``judges`` names the run's judges as the agreement rows do (their model strings, the name
    the engine records each judge's answers under); a mapping gives each the label to print
    (e.g. ``"demo-questioner (attune-demo/questioner)"``). A judge is listed once, whether it
    answered or not."""
    labels = dict(judges) if isinstance(judges, Mapping) else {j: j for j in judges}
    pooled = {
        (row.rater_b, row.reply): row
        for row in statistics.reply_agreement
        if row.rater_a == PARTICIPANT and row.category == ALL_CATEGORIES
    }
    names = list(dict.fromkeys([*labels, *(judge for judge, _ in pooled)]))
    if not names:
        return (
            "Judged response quality: no judge answered the behaviour questions about the "
            "original or the edited replies in this run, so how far its judges agree with the "
            "participants is not known."
        )
    parts = []
    for judge in names:
        found = [
            f"kappa {kappa_text(pooled[(judge, reply)])} with the participants on the "
            f"{PLURAL_LABELS[reply]} ({pooled[(judge, reply)].n_items} answers)"
            for reply in (ORIGINAL, HUMAN_EDITED)
            if (judge, reply) in pooled
        ]
        label = labels.get(judge, judge)
        parts.append(f"{label}: " + ("; ".join(found) if found else "no shared answers"))
    return (
        "Judged response quality is scored by judges; how far they agree with the people the "
        "replies were written for (Cohen's kappa, 95% CI; 0 = chance): " + " · ".join(parts) + "."
    )
