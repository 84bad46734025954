"""Unexpected errors of the participant app, as the browser reported them (for the staff who
run a study: a bug that only phones hit shows up here instead of nowhere)."""

from __future__ import annotations

from django.db import models

from annotations.models.participant import Participant
from annotations.models.study import Study

# The bounds of what a report may carry (the API refuses longer fields; the app cuts first).
MAX_MESSAGE_CHARS = 500
MAX_STACK_CHARS = 8000
MAX_SCREEN_CHARS = 64
MAX_BUILD_CHARS = 64


class ClientError(models.Model):
    """One report: what failed, where in the code and on which screen; never what the
    participant typed (the app sends no form values, and these four fields are all it may)."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="client_errors")
    # Kept when the participant's data goes (withdrawal): the report holds nothing of theirs.
    participant = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.CharField(max_length=MAX_MESSAGE_CHARS)
    stack = models.TextField(blank=True)
    screen = models.CharField(max_length=MAX_SCREEN_CHARS, blank=True)
    build = models.CharField(max_length=MAX_BUILD_CHARS, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.screen or 'app'}: {self.message[:80]}"
