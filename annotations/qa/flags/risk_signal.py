"""A participant message that signals risk (self-harm, crisis): a human must look.

Three signals raise it: the platform's risk check (``text_checks.risk``: the lexicon and the
learned model, over the text now in the participant's language as the live chat reads it, plus
what the chat signalled live) and, where the study has
one, the moderation model's flagged verdicts (``services/moderation.py``). The evidence keeps them
apart, so the reviewer reads which one fired on which message: ``turns`` (the lexicon's matched
phrases; empty where the learned model fired alone), ``model`` (its score, whether it was
borderline, the nearest training message and its category) and ``moderation`` (flagged
categories). A borderline score still raises the flag: the reviewer looks, the evidence says so.
"""

from __future__ import annotations

from typing import Any

from annotations.qa.flags import base
from annotations.qa.flags.base import ConversationSnapshot, Detection, Thresholds, register
from annotations.text_checks import risk

RISK = "risk"  # SignalKind.RISK (this module stays free of the models)
MODERATION = "moderation"  # SignalKind.MODERATION


@register(
    "risk_signal",
    "Risk signal",
    "A participant message contains a crisis or self-harm phrase, the learned risk check scored "
    "it as risk, or the study's moderation model flagged it.",
)
def detect(snapshot: ConversationSnapshot, thresholds: Thresholds) -> Detection | None:
    found: dict[int, list[str]] = {}
    model: dict[int, dict[str, Any]] = {}
    for turn in snapshot.turns:
        assessment = risk.assess(turn.user_message, snapshot.language)
        signalled_live = any(signal.kind == RISK for signal in turn.signals)
        if not (assessment.risk or signalled_live):
            continue
        found[turn.number] = list(dict.fromkeys([*assessment.phrases, *turn.signalled(RISK)]))
        if assessment.risk and assessment.score is not None:
            model[turn.number] = _model_evidence(assessment)
    moderated = {
        turn.number: list(signal.categories)
        for turn in snapshot.turns
        for signal in turn.signals
        if signal.kind == MODERATION and signal.flagged
    }
    if not (found or moderated):
        return None
    evidence: dict[str, Any] = {"turns": {str(n): phrases for n, phrases in found.items()}}
    if model:
        evidence["model"] = {str(n): seen for n, seen in model.items()}
    if moderated:
        evidence["moderation"] = {str(n): categories for n, categories in moderated.items()}
    # Only borderline scores of the learned model (no phrase, no sure score, no moderation
    # verdict): a warning the reviewer sees, not a block on approval in half the conversations.
    sure = moderated or any(
        phrases or not model.get(n, {}).get("borderline") for n, phrases in found.items()
    )
    return Detection(
        severity=base.CRITICAL if sure else base.WARNING,
        summary=_summary(found, model, moderated),
        evidence=evidence,
        turn_numbers=tuple(sorted(found.keys() | moderated.keys())),
    )


def _model_evidence(assessment: risk.RiskAssessment) -> dict[str, Any]:
    evidence = assessment.evidence()
    return {key: evidence[key] for key in ("score", "borderline", "neighbour", "category")}


def _summary(
    found: dict[int, list[str]], model: dict[int, dict[str, Any]], moderated: dict[int, list[str]]
) -> str:
    parts = []
    with_phrases = sum(1 for phrases in found.values() if phrases)
    if with_phrases:
        parts.append(f"risk phrases in {with_phrases} message(s)")
    model_alone = [n for n, phrases in found.items() if not phrases]
    if model_alone:
        borderline = sum(1 for n in model_alone if model.get(n, {}).get("borderline"))
        note = f", {borderline} borderline" if borderline else ""
        parts.append(f"the risk model fired alone in {len(model_alone)} message(s){note}")
    if moderated:
        parts.append(f"flagged by the moderation model in {len(moderated)} message(s)")
    return "; ".join(parts)
