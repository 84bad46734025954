"""Drafts: whatever a participant has typed but not yet submitted, saved as they type."""

from __future__ import annotations

from django.db import models

from annotations.models.participant import Participant


class ParticipantDraft(models.Model):
    """A free-form JSON draft under a key the participant app chooses ("message",
    "annotation:3", ...). A phone that dies mid-sentence loses nothing typed before the last save.
    """

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="drafts")
    key = models.CharField(max_length=64)
    data = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "key"], name="draft_unique_key"),
        ]

    def __str__(self) -> str:
        return f"draft {self.key} of {self.participant_id}"
