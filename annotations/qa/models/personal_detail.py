"""Personal details found in a conversation's texts, their review, and erasures.

A finding names a span of one free text of the conversation's AttuneBench record (by the
record path of ``personal_details/texts.py``) and is a layer like corrections: the stored text
is never changed, a release replaces the accepted spans with placeholders. ``text_sha256`` is
the hash of the text the span was found in, so a finding of a text that changed since is
stale and never applied to the new text.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models import Conversation, Participant, Study


class FindingStatus(models.TextChoices):
    PENDING = "pending", "Not reviewed"
    ACCEPTED = "accepted", "Accepted (redacted in releases)"
    DISMISSED = "dismissed", "Dismissed (not a personal detail)"


class PersonalDetailScan(models.Model):
    """The detector version that last scanned the conversation's texts, and what it read."""

    conversation = models.OneToOneField(
        Conversation, on_delete=models.CASCADE, related_name="personal_detail_scan"
    )
    detector_version = models.CharField(max_length=80)
    content_sha256 = models.CharField(max_length=64)
    scanned_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"scan of {self.conversation_id} by {self.detector_version}"


class PersonalDetailFinding(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="personal_detail_findings"
    )
    field_path = models.CharField(max_length=200)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    text_sha256 = models.CharField(max_length=64)
    kind = models.CharField(max_length=20)
    detector = models.CharField(max_length=20, help_text="patterns, model or reviewer")
    detector_version = models.CharField(max_length=80)
    score = models.FloatField(default=1.0)
    status = models.CharField(
        max_length=10, choices=FindingStatus.choices, default=FindingStatus.PENDING
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "field_path", "start", "id"]
        indexes = [models.Index(fields=["status", "conversation"], name="qa_finding_status")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gt=models.F("start")), name="qa_finding_span"
            ),
        ]
        permissions = [
            ("review_personal_details", "Can review personal details found in texts"),
            ("erase_participant", "Can erase a participant's content on request"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} at {self.field_path}[{self.start}:{self.end}]"


class ParticipantErasure(models.Model):
    """An erasure on request: which conversations were erased and when (a release's retractions
    file lists them, ids and dates only). The participant row stays, emptied."""

    study = models.ForeignKey(Study, on_delete=models.PROTECT, related_name="+")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="+")
    conversation_ids = models.JSONField(default=list, help_text="external ids of the conversations")
    erased_at = models.DateTimeField()
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["erased_at", "id"]

    def __str__(self) -> str:
        return f"erasure of participant {self.participant_id}"
