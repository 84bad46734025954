"""Flags: something about a conversation a reviewer should look at, with its evidence.

Automatic flags come from the detectors in ``annotations/qa/flags/`` (at most one per type and
conversation, so recomputing is idempotent); reviewers and the chat backend may add more.
In a blind double review each reviewer's verdict on a flag is a ``FlagVerdict`` of their
review, which is what Krippendorff's alpha on flags is computed from.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models import Conversation
from annotations.qa.models.review import Review


class FlagStatus(models.TextChoices):
    OPEN = "open", "Open"
    DISMISSED = "dismissed", "Dismissed"
    CONFIRMED = "confirmed", "Confirmed"


class Severity(models.TextChoices):
    INFO = "info", "Info"
    WARNING = "warning", "Warning"
    CRITICAL = "critical", "Critical"


SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.CRITICAL: 2}


class FlagSource(models.TextChoices):
    AUTOMATIC = "automatic", "Automatic check"
    REVIEWER = "reviewer", "Raised by a reviewer"
    CHAT = "chat", "Raised during the chat"


class Flag(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.PROTECT, related_name="qa_flags"
    )
    flag_type = models.CharField(max_length=40, help_text="A key of the flag registry, or manual.")
    severity = models.CharField(max_length=8, choices=Severity.choices)
    status = models.CharField(max_length=10, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    source = models.CharField(max_length=10, choices=FlagSource.choices)
    summary = models.CharField(max_length=300)
    evidence = models.JSONField(default=dict, blank=True)
    turn_numbers = models.JSONField(
        default=list, blank=True, help_text="Turns the evidence points at (for highlighting)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_note = models.TextField(blank=True)

    class Meta:
        ordering = ["conversation", "created_at", "id"]
        indexes = [
            models.Index(fields=["flag_type", "status"]),
            models.Index(fields=["conversation", "status"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "flag_type"],
                condition=models.Q(source=FlagSource.AUTOMATIC),
                name="qa_flag_one_automatic_per_type",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=FlagStatus.values), name="qa_flag_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(severity__in=Severity.values), name="qa_flag_severity_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(source__in=FlagSource.values), name="qa_flag_source_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flag_type} ({self.severity}, {self.status}) on {self.conversation_id}"


class FlagVerdict(models.Model):
    """One reviewer's verdict on one flag, given with their review."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="flag_verdicts")
    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="verdicts")
    verdict = models.CharField(
        max_length=10,
        choices=[(FlagStatus.CONFIRMED, "Confirmed"), (FlagStatus.DISMISSED, "Dismissed")],
    )

    class Meta:
        ordering = ["flag", "review"]
        constraints = [
            models.UniqueConstraint(fields=["review", "flag"], name="qa_verdict_unique"),
            models.CheckConstraint(
                condition=models.Q(verdict__in=[FlagStatus.CONFIRMED, FlagStatus.DISMISSED]),
                name="qa_verdict_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.verdict} on flag {self.flag_id}"
