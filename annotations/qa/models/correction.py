"""Corrections: a layer over the participant's answers, never a rewrite of them.

A correction names one field of the AttuneBench record by its format path (see
``annotations/qa/correction_fields.py``), keeps the value it replaced and the reason. At most
one active correction per field; a withdrawn one stays for the record.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models import Conversation


class CorrectionReason(models.TextChoices):
    MISCLICK_REPORTED = "misclick_reported", "The participant reported a mis-click"
    BROKEN_ENCODING = "broken_encoding", "Broken text encoding"
    TECHNICAL_ERROR = "technical_error", "Another technical error (see note)"


class Correction(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.PROTECT, related_name="qa_corrections"
    )
    field_path = models.CharField(
        max_length=200, help_text="e.g. turns[turnNumber=2].moodShiftTags[0].intensity"
    )
    original_value = models.JSONField(null=True, blank=True)
    corrected_value = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=20, choices=CorrectionReason.choices)
    note = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["conversation", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "field_path"],
                condition=models.Q(withdrawn_at__isnull=True),
                name="qa_correction_one_active_per_field",
            ),
            models.CheckConstraint(
                condition=models.Q(reason__in=CorrectionReason.values),
                name="qa_correction_reason_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.field_path} of {self.conversation_id}"
