"""A study's link to Prolific, the submissions seen there, and the payments decided here.

The API token is never stored: ``token_env`` names the environment variable that holds it (or,
``<token_env>_FILE``, a file that does), like the model endpoints' keys.

Approvals, rejections and bonuses are intents first (a row written before any call), claimed
with a conditional update, and reconciled from Prolific's state before any retry, so each is
sent exactly once (``annotations/prolific/``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models

from annotations.models.participant import Participant
from annotations.models.study import Study
from attune_collect.config import key_env_policy
from attune_collect.llm.secrets_policy import ENV_VAR_NAME

ENV_NAME = RegexValidator(r"^[A-Z][A-Z0-9_]{0,99}$", "An environment variable name (A-Z, 0-9, _).")


class ApproveRule(models.TextChoices):
    ON_COMPLETION = "on_completion", "Approve every completed conversation"
    AFTER_QA = "after_qa", "Approve only after a QA reviewer approved the conversation"


class ProlificLink(models.Model):
    study = models.OneToOneField(Study, on_delete=models.CASCADE, related_name="prolific")
    prolific_study_id = models.CharField("Prolific study id", max_length=64)
    token_env = models.CharField(
        max_length=100,
        default="PROLIFIC_API_TOKEN",
        validators=[ENV_NAME],
        help_text="The environment variable holding the API token (or <name>_FILE naming a "
        "file that holds it). The token itself is never stored or shown.",
    )
    api_base = models.URLField(
        default="https://api.prolific.com",
        help_text="Prolific's API; a local test server's address for the demo and tests.",
    )
    approve_rule = models.CharField(
        max_length=16, choices=ApproveRule.choices, default=ApproveRule.AFTER_QA
    )
    bonus_per_turn_cents = models.PositiveIntegerField(
        default=0, help_text="Bonus per annotated turn, in cents of the study's currency."
    )
    bonus_per_conversation_cents = models.PositiveIntegerField(
        default=0, help_text="Bonus per completed conversation, in cents."
    )
    bonus_cap_cents = models.PositiveIntegerField(
        default=0, help_text="At most this bonus per participant, in cents (0: no cap)."
    )
    idle_abandon_minutes = models.PositiveIntegerField(
        default=0,
        help_text="A conversation idle this long is abandoned and its place freed (0: never). "
        "Keep it at or above Prolific's maximum time for the study.",
    )
    last_synced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        permissions = [("operate_prolific", "Can sync, review and pay on Prolific")]

    def __str__(self) -> str:
        return f"Prolific {self.prolific_study_id}"

    def clean(self) -> None:
        # The token is sent to ``api_base``, which the researcher sets: naming the platform's
        # own variables (DJANGO_SECRET_KEY, DATABASE_URL, ...) would hand them to any server.
        # The same policy as a model endpoint's key (attune_collect/llm/secrets_policy.py).
        super().clean()
        if ENV_VAR_NAME.fullmatch(self.token_env):  # else the field validator says why
            refused = key_env_policy().problem(self.token_env)
            if refused is not None:
                raise ValidationError({"token_env": refused})


class ProlificSubmission(models.Model):
    """A submission as the last sync saw it on Prolific."""

    link = models.ForeignKey(ProlificLink, on_delete=models.CASCADE, related_name="submissions")
    submission_id = models.CharField(max_length=64, unique=True)
    prolific_pid = models.CharField(max_length=64)
    participant = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=24)
    bonus_paid_cents = models.JSONField(default=list, blank=True)
    synced_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["link", "prolific_pid"])]

    def __str__(self) -> str:
        return f"submission {self.submission_id}: {self.status}"


class DecisionState(models.TextChoices):
    INTENDED = "intended", "Intended"
    SENDING = "sending", "Sending"  # claimed by one worker; reconciled before a retry
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ReviewDecision(models.Model):
    """Approve or reject one submission: one decision per submission, ever."""

    APPROVE = "APPROVE"
    REJECT = "REJECT"

    link = models.ForeignKey(ProlificLink, on_delete=models.CASCADE, related_name="decisions")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="+")
    submission_id = models.CharField(max_length=64, unique=True)
    action = models.CharField(max_length=8, choices=[(APPROVE, "Approve"), (REJECT, "Reject")])
    message = models.TextField(blank=True)
    rejection_category = models.CharField(max_length=32, blank=True)
    state = models.CharField(
        max_length=12, choices=DecisionState.choices, default=DecisionState.INTENDED
    )
    claimed_until = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.action} {self.submission_id} ({self.state})"


class BonusState(models.TextChoices):
    INTENDED = "intended", "Intended"
    CREATED = "created", "Set up on Prolific (unpaid)"
    PAYING = "paying", "Pay sent (outcome reconciled before any retry)"
    PAID = "paid", "Paid"
    FAILED = "failed", "Failed"


class BonusBatch(models.Model):
    """One bulk bonus: set up, then paid, once."""

    link = models.ForeignKey(ProlificLink, on_delete=models.CASCADE, related_name="bonus_batches")
    state = models.CharField(max_length=12, choices=BonusState.choices, default=BonusState.INTENDED)
    bulk_id = models.CharField(max_length=64, blank=True)
    total_cents = models.PositiveIntegerField(default=0)
    claimed_until = models.DateTimeField(null=True, blank=True)
    pay_sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"bonus batch {self.pk} ({self.state})"


class BonusLine(models.Model):
    """One participant's bonus: one per participant and study, whatever the batches."""

    batch = models.ForeignKey(BonusBatch, on_delete=models.CASCADE, related_name="lines")
    participant = models.OneToOneField(Participant, on_delete=models.PROTECT, related_name="+")
    prolific_pid = models.CharField(max_length=64)
    submission_id = models.CharField(max_length=64)
    amount_cents = models.PositiveIntegerField()
    annotated_turns = models.PositiveIntegerField(default=0)
    completed_conversations = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.prolific_pid}: {self.amount_cents} cents"
