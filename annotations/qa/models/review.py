"""Review decisions: each reviewer's decision (``Review``) and the conversation's outcome.

``ConversationReview`` is the QA state of one conversation (one-to-one, so the annotations
app's models stay untouched). The final decision lives here; what each reviewer said stays in
``Review`` rows, so agreement can be computed and nothing a reviewer decided is overwritten.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models import Conversation


class ReviewStatus(models.TextChoices):
    PENDING = "pending", "Awaiting review"
    AWAITING_SECOND = "awaiting_second", "Awaiting a second review"
    DISAGREEMENT = "disagreement", "Reviewers disagree (adjudication)"
    APPROVED = "approved", "Approved"
    EXCLUDED = "excluded", "Excluded"


OPEN_STATUSES = (ReviewStatus.PENDING, ReviewStatus.AWAITING_SECOND, ReviewStatus.DISAGREEMENT)


class Decision(models.TextChoices):
    APPROVE = "approve", "Approve"
    EXCLUDE = "exclude", "Exclude"
    SECOND_REVIEW = "second_review", "Needs second review"


class ExclusionReason(models.TextChoices):
    """The fixed list a release datasheet counts by; ``other`` needs a note."""

    FAILED_ATTENTION_CHECK = "failed_attention_check", "Failed attention check"
    LOW_EFFORT = "low_effort", "Low effort (too fast, same answers, unedited)"
    NOT_GENUINE = "not_genuine", "Not a genuine conversation (off-task, role play)"
    DUPLICATE_PARTICIPANT = "duplicate_participant", "Duplicate participant"
    TECHNICAL_PROBLEM = "technical_problem", "Technical problem (failed turns, broken text)"
    IDENTITY_LEAK = "identity_leak", "The model revealed its identity"
    SAFETY = "safety", "Safety concern (participant at risk)"
    OTHER = "other", "Other (see note)"


class ReviewStage(models.TextChoices):
    FIRST = "first", "First review"
    SECOND = "second", "Second review"
    ADJUDICATION = "adjudication", "Adjudication"


class ConversationReview(models.Model):
    conversation = models.OneToOneField(
        Conversation, on_delete=models.PROTECT, related_name="qa_review"
    )
    status = models.CharField(
        max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.PENDING
    )
    double_review = models.BooleanField(
        default=False, help_text="Picked for two blind reviews (agreement sample)."
    )
    final_decision = models.CharField(
        max_length=16, choices=Decision.choices, null=True, blank=True
    )
    exclusion_reason = models.CharField(max_length=32, choices=ExclusionReason.choices, blank=True)
    note = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    flags_computed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("review_conversation", "Can review conversations (approve, exclude, second review)"),
            ("adjudicate", "Can adjudicate double-review disagreements"),
            ("flag_conversation", "Can raise, confirm and dismiss flags"),
            ("correct_annotation", "Can correct technical errors in annotations"),
            ("view_agreement", "Can see reviewer agreement"),
            ("view_monitoring", "Can see study monitoring"),
            ("export_data", "Can export data and corrections"),
        ]
        indexes = [models.Index(fields=["status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=ReviewStatus.values), name="qa_review_status_valid"
            ),
            # The final decision and the status say the same thing, by construction.
            models.CheckConstraint(
                condition=(
                    models.Q(status=ReviewStatus.APPROVED, final_decision=Decision.APPROVE)
                    | (
                        models.Q(status=ReviewStatus.EXCLUDED, final_decision=Decision.EXCLUDE)
                        & ~models.Q(exclusion_reason="")
                    )
                    | models.Q(status__in=OPEN_STATUSES, final_decision__isnull=True)
                ),
                name="qa_review_final_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"QA of {self.conversation_id}: {self.status}"


class Review(models.Model):
    """One reviewer's decision on one conversation (or an adjudicator's final word)."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.PROTECT, related_name="qa_reviews"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="qa_reviews"
    )
    stage = models.CharField(max_length=12, choices=ReviewStage.choices)
    blind = models.BooleanField(
        default=False, help_text="Made without seeing the other reviewer's decision."
    )
    decision = models.CharField(max_length=16, choices=Decision.choices)
    exclusion_reason = models.CharField(max_length=32, choices=ExclusionReason.choices, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "stage"],
                condition=~models.Q(stage=ReviewStage.ADJUDICATION),
                name="qa_review_one_per_stage",
            ),
            # Two blind reviews need two different people.
            models.UniqueConstraint(
                fields=["conversation", "reviewer"],
                condition=~models.Q(stage=ReviewStage.ADJUDICATION),
                name="qa_review_one_per_reviewer",
            ),
            models.CheckConstraint(
                condition=models.Q(stage__in=ReviewStage.values), name="qa_review_stage_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(decision__in=Decision.values), name="qa_review_decision_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(decision=Decision.EXCLUDE) | ~models.Q(exclusion_reason=""),
                name="qa_review_exclusion_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} review of {self.conversation_id} by {self.reviewer}: {self.decision}"
