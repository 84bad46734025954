"""Signals the chat backend raises on a turn (risk phrases, identity leaks, moderation verdicts)
for QA to read."""

from __future__ import annotations

from django.db import models

from annotations.models.conversation import Turn


class SignalKind(models.TextChoices):
    RISK = "risk", "Risk phrase in the participant's message"
    IDENTITY_LEAK = "identity_leak", "A reply names a vendor or model"
    # The study's moderation model on the participant's message (services/moderation.py): one
    # row per message whatever the verdict, so QA sees "not flagged" and "failed" too.
    MODERATION = "moderation", "Moderation verdict on the participant's message"


class SignalSource(models.TextChoices):
    USER_MESSAGE = "user_message", "Participant's message"
    MODEL_REPLY = "model_reply", "Model reply"
    IMPROVED_REPLY = "improved_reply", "Improved reply"


class TurnSignalQuerySet(models.QuerySet):
    def risk(self) -> TurnSignalQuerySet:
        """Signals that say a participant may be at risk: the risk check on their message
        (not a borderline score of its learned model alone: that one only asks QA to look), or
        a moderation verdict that flagged it (a clear or failed verdict is no risk signal).
        These bring the participant the support notice and the study's contacts an e-mail."""
        # A lexicon hit in a language no model reads has no "borderline" key: "not borderline
        # = true" alone is NULL there in SQL, and would drop it (no notice on reload, no e-mail).
        not_borderline = models.Q(evidence__borderline=False) | ~models.Q(
            evidence__has_key="borderline"
        )
        return self.filter(
            (models.Q(kind=SignalKind.RISK) & not_borderline)
            | models.Q(kind=SignalKind.MODERATION, evidence__flagged=True)
        )


class TurnSignal(models.Model):
    """One detection on one text of a turn. ``evidence`` holds the matched phrases (word
    checks) or the verdict (moderation: flagged, categories, model, latency_ms, error); QA
    turns signals into review flags (``annotations.qa``), this table only records what was
    seen."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="signals")
    kind = models.CharField(max_length=20, choices=SignalKind.choices)
    source = models.CharField(max_length=20, choices=SignalSource.choices)
    evidence = models.JSONField(default=dict, blank=True)
    # A risk signal's alert is owed (set when it is asked for, cleared once it has run): when
    # the workers' sweep asks for it again if it has still not run (qa/services/risk_alerts.py).
    alert_resend_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TurnSignalQuerySet.as_manager()

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
