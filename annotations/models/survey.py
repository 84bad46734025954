"""Surveys around the chat: PANAS before and after, and the conversation-wide questions."""

from __future__ import annotations

from django.db import models

from annotations.models.conversation import Conversation


class PanasPhase(models.TextChoices):
    PRE = "pre", "Before the chat"
    POST = "post", "After the chat"


class PanasResponse(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="panas_responses"
    )
    phase = models.CharField(max_length=4, choices=PanasPhase.choices)
    items = models.JSONField(default=dict, help_text="PANAS item -> 1..7")
    total_positive = models.PositiveSmallIntegerField()
    total_negative = models.PositiveSmallIntegerField()
    other = models.JSONField(default=dict, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["conversation", "phase"], name="panas_one_per_phase"),
            models.CheckConstraint(
                condition=models.Q(phase__in=["pre", "post"]), name="panas_phase_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(total_positive__gte=10, total_positive__lte=70),
                name="panas_positive_10_70",
            ),
            models.CheckConstraint(
                condition=models.Q(total_negative__gte=10, total_negative__lte=70),
                name="panas_negative_10_70",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.phase} PANAS PA={self.total_positive} NA={self.total_negative}"


def _branch_valid(field: str) -> models.Q:
    return models.Q(**{f"{field}__isnull": True}) | models.Q(
        **{f"{field}__gte": 1, f"{field}__lte": 7}
    )


class ConversationWideAnswers(models.Model):
    conversation = models.OneToOneField(
        Conversation, on_delete=models.CASCADE, related_name="wide_answers"
    )
    looking_for = models.JSONField(default=list, blank=True, help_text="Q1, multi-select")
    emotion_clarity = models.CharField(max_length=120, null=True, blank=True, help_text="Q2")
    model_fit = models.CharField(max_length=120, null=True, blank=True, help_text="Q3")
    what_felt_off = models.JSONField(default=list, blank=True, help_text="Q3 follow-up, free text")
    has_four_branch = models.BooleanField(default=True)
    perceiving = models.PositiveSmallIntegerField(null=True, blank=True)
    facilitating = models.PositiveSmallIntegerField(null=True, blank=True)
    understanding = models.PositiveSmallIntegerField(null=True, blank=True)
    managing = models.PositiveSmallIntegerField(null=True, blank=True)
    other = models.JSONField(default=dict, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "conversation-wide answers"
        constraints = [
            models.CheckConstraint(condition=_branch_valid(name), name=f"wide_{name}_1_7")
            for name in ("perceiving", "facilitating", "understanding", "managing")
        ]

    def __str__(self) -> str:
        return f"post-chat answers of {self.conversation_id}"
