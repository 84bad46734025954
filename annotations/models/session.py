"""Participant sessions: the bearer token a participant's browser holds, stored as a hash only."""

from __future__ import annotations

from django.db import models

from annotations.models.participant import Participant


class ParticipantSession(models.Model):
    """One browser session of a participant. A participant may hold several (a second device,
    a reopened study link); each token reaches only that participant's data."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="sessions")
    token_hash = models.CharField(
        max_length=64,
        unique=True,
        help_text="sha256 of the token; the token itself is never stored.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"session of {self.participant_id}"
