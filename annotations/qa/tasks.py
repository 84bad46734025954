"""Celery tasks of QA. They take ids and are idempotent: recomputing flags changes nothing new."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="qa.compute_flags", acks_late=True)
def compute_flags_task(conversation_id: int) -> int:
    """Compute the automatic flags of one conversation; returns how many flags changed."""
    from annotations.qa.services.flagging import compute_flags

    report = compute_flags([conversation_id], actor_label="system:qa.compute_flags")
    return report.raised + report.updated + report.retired


@shared_task(name="qa.risk_alert", acks_late=True)
def risk_alert_task(turn_id: int) -> int:
    """Raise the risk flag of a turn's conversation and email the study's safety contacts."""
    from annotations.qa.services.risk_alerts import run_risk_alert

    return run_risk_alert(turn_id)
