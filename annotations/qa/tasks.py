"""Celery tasks of QA. They take ids and are idempotent: recomputing flags changes nothing new.

A leaf: nothing imports this module (services send by name, ``annotations/dispatch.py``).
"""

from __future__ import annotations

from celery import shared_task

from annotations.dispatch import (
    COMPUTE_FLAGS,
    RISK_ALERT,
    SCAN_PERSONAL_DETAILS,
    SCAN_STUDY_PERSONAL_DETAILS,
)
from annotations.models import Conversation
from annotations.qa.services.flagging import compute_flags
from annotations.qa.services.personal_details import scan_conversation, scan_queryset
from annotations.qa.services.risk_alerts import run_risk_alert


@shared_task(name=COMPUTE_FLAGS, acks_late=True)
def compute_flags_task(conversation_id: int) -> int:
    """Compute the automatic flags of one conversation; returns how many flags changed."""
    report = compute_flags([conversation_id], actor_label="system:qa.compute_flags")
    return report.raised + report.updated + report.retired


@shared_task(name=RISK_ALERT, acks_late=True)
def risk_alert_task(turn_id: int) -> int:
    """Raise the risk flag of a turn's conversation and email the study's safety contacts."""
    return run_risk_alert(turn_id)


@shared_task(name=SCAN_PERSONAL_DETAILS, acks_late=True)
def scan_personal_details_task(conversation_id: int) -> int:
    """Scan one conversation's texts for personal details; returns the findings added."""
    return scan_conversation(conversation_id)


@shared_task(name=SCAN_STUDY_PERSONAL_DETAILS, acks_late=True)
def scan_study_personal_details_task(study_id: int) -> int:
    """Scan a study's conversations the current detector has not read as they are now."""
    return scan_queryset(Conversation.objects.filter(study_id=study_id))
