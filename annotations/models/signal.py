"""Signals the chat backend raises live on a turn (risk phrases, identity leaks) for QA to read."""

from __future__ import annotations

from django.db import models

from annotations.models.conversation import Turn


class SignalKind(models.TextChoices):
    RISK = "risk", "Risk phrase in the participant's message"
    IDENTITY_LEAK = "identity_leak", "A reply names a vendor or model"


class SignalSource(models.TextChoices):
    USER_MESSAGE = "user_message", "Participant's message"
    MODEL_REPLY = "model_reply", "Model reply"
    IMPROVED_REPLY = "improved_reply", "Improved reply"


class TurnSignal(models.Model):
    """One detection on one text of a turn. ``evidence`` holds the matched phrases; QA turns
    signals into review flags (``annotations.qa``), this table only records what was seen."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="signals")
    kind = models.CharField(max_length=20, choices=SignalKind.choices)
    source = models.CharField(max_length=20, choices=SignalSource.choices)
    evidence = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "kind", "source"], name="signal_unique_per_text"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=SignalKind.values), name="signal_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(source__in=SignalSource.values), name="signal_source_valid"
            ),
        ]
        indexes = [models.Index(fields=["kind", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} on {self.turn}"
