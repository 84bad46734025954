"""Reviewer agreement per study and per reviewer pair, with the disagreements to adjudicate.

Only blind double reviews count (an escalated second review has seen the first one). Cohen's
kappa is computed on decisions with "first reviewer" and "second reviewer" as the two raters
for the study figure, and with the two named reviewers as raters for a pair; Krippendorff's
alpha (nominal) on flag verdicts, one unit per flag, one coder per reviewer.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from annotations.models import Study
from annotations.qa.agreement_stats import cohen_kappa, krippendorff_alpha_nominal
from annotations.qa.models import Flag, FlagVerdict, Review, ReviewStage
from annotations.qa.services.intake import DEFAULT_DOUBLE_REVIEW_SHARE


@dataclass(frozen=True)
class ReviewPair:
    """The two blind reviews of one conversation."""

    first: Review
    second: Review
    verdicts: dict[int, tuple[str | None, str | None]]  # flag id -> (first's, second's)

    @property
    def decisions_differ(self) -> bool:
        return (self.first.decision, self.first.exclusion_reason) != (
            self.second.decision,
            self.second.exclusion_reason,
        )

    @property
    def flag_disagreements(self) -> dict[int, tuple[str | None, str | None]]:
        return {f: v for f, v in self.verdicts.items() if None not in v and v[0] != v[1]}


@dataclass(frozen=True)
class PairAgreement:
    reviewers: tuple[str, str]
    conversations: int
    decision_kappa: float | None
    decision_agreement: float | None
    flag_units: int
    flag_alpha: float | None


@dataclass(frozen=True)
class AgreementReport:
    study: Study
    double_review_share: float
    pairs: list[ReviewPair]
    by_reviewers: list[PairAgreement]
    flags: dict[int, Flag]
    adjudicated: set[int]

    @property
    def disagreements(self) -> list[ReviewPair]:
        return [p for p in self.pairs if p.decisions_differ or p.flag_disagreements]

    def summary(self) -> dict[str, Any]:
        """The datasheet's figures; empty when no conversation has two blind reviews yet."""
        if not self.pairs:
            return {}
        overall = _figures(self.pairs, ordered_by=None)
        return {
            "double_review_share": self.double_review_share,
            "double_reviewed_conversations": len(self.pairs),
            "decision_kappa": overall.decision_kappa,
            "decision_agreement": overall.decision_agreement,
            "flag_units": overall.flag_units,
            "flag_alpha": overall.flag_alpha,
            "reviewer_pairs": len(self.by_reviewers),
            "disagreements": len(self.disagreements),
            "adjudicated": len(self.adjudicated),
        }


def _figures(pairs: list[ReviewPair], ordered_by: tuple[str, str] | None) -> PairAgreement:
    decisions = []
    units = []
    for pair in pairs:
        first, second = pair.first, pair.second
        swap = ordered_by is not None and first.reviewer.get_username() != ordered_by[0]
        a, b = (second, first) if swap else (first, second)
        decisions.append((a.decision, b.decision))
        units += [tuple(reversed(v)) if swap else v for v in pair.verdicts.values()]
    agreement = sum(x == y for x, y in decisions) / len(decisions) if decisions else None
    return PairAgreement(
        reviewers=ordered_by or ("first", "second"),
        conversations=len(pairs),
        decision_kappa=cohen_kappa(decisions),
        decision_agreement=agreement,
        flag_units=sum(1 for u in units if None not in u),
        flag_alpha=krippendorff_alpha_nominal(units),
    )


def agreement_report(study: Study) -> AgreementReport:
    reviews = Review.objects.filter(
        conversation__study=study,
        blind=True,
        stage__in=[ReviewStage.FIRST, ReviewStage.SECOND],
    ).select_related("reviewer", "conversation")
    by_conversation: dict[int, dict[str, Review]] = defaultdict(dict)
    for review in reviews:
        by_conversation[review.conversation_id][review.stage] = review
    complete = {c: r for c, r in by_conversation.items() if len(r) == 2}
    review_ids = [r.pk for pair in complete.values() for r in pair.values()]
    verdicts: dict[int, dict[int, str]] = defaultdict(dict)  # flag -> review -> verdict
    for flag_id, review_id, verdict in FlagVerdict.objects.filter(
        review_id__in=review_ids
    ).values_list("flag_id", "review_id", "verdict"):
        verdicts[flag_id][review_id] = verdict
    flags = {f.pk: f for f in Flag.objects.filter(conversation_id__in=complete)}
    pairs = []
    for conversation_id, stages in sorted(complete.items()):
        first, second = stages[ReviewStage.FIRST], stages[ReviewStage.SECOND]
        units = {
            flag_id: (verdicts[flag_id].get(first.pk), verdicts[flag_id].get(second.pk))
            for flag_id, flag in flags.items()
            if flag.conversation_id == conversation_id and flag_id in verdicts
        }
        pairs.append(ReviewPair(first=first, second=second, verdicts=units))
    by_names: dict[tuple[str, str], list[ReviewPair]] = defaultdict(list)
    for pair in pairs:
        names = sorted((pair.first.reviewer.get_username(), pair.second.reviewer.get_username()))
        by_names[(names[0], names[1])].append(pair)
    settings = getattr(study, "qa_settings", None)  # the reverse one-to-one raises AttributeError
    return AgreementReport(
        study=study,
        double_review_share=settings.double_review_share
        if settings
        else DEFAULT_DOUBLE_REVIEW_SHARE,
        pairs=pairs,
        by_reviewers=[_figures(p, ordered_by=names) for names, p in sorted(by_names.items())],
        flags=flags,
        adjudicated=set(
            Review.objects.filter(
                conversation_id__in=complete, stage=ReviewStage.ADJUDICATION
            ).values_list("conversation_id", flat=True)
        ),
    )
