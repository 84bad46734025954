"""Conversations and their turns: what the participant said and what the hidden model replied."""

from __future__ import annotations

from django.db import models

from annotations.models.endpoint import ModelEndpoint
from annotations.models.model_config import ModelConfig
from annotations.models.participant import Participant
from annotations.models.study import Study


class ConversationState(models.TextChoices):
    CONSENTED = "consented", "Consented"
    PROFILED = "profiled", "Profiled"
    CHATTING = "chatting", "Chatting"
    POST_SURVEY = "post_survey", "Post-chat survey"
    COMPLETED = "completed", "Completed"
    ABANDONED = "abandoned", "Abandoned"
    EXCLUDED = "excluded", "Excluded"


# The state machine: which state may follow which. Services check moves against this table.
ALLOWED_TRANSITIONS: dict[str, frozenset[str]] = {
    ConversationState.CONSENTED: frozenset(
        {ConversationState.PROFILED, ConversationState.ABANDONED}
    ),
    ConversationState.PROFILED: frozenset(
        {ConversationState.CHATTING, ConversationState.ABANDONED}
    ),
    ConversationState.CHATTING: frozenset(
        {ConversationState.POST_SURVEY, ConversationState.ABANDONED}
    ),
    ConversationState.POST_SURVEY: frozenset(
        {ConversationState.COMPLETED, ConversationState.ABANDONED}
    ),
    ConversationState.COMPLETED: frozenset({ConversationState.EXCLUDED}),
    ConversationState.ABANDONED: frozenset({ConversationState.EXCLUDED}),
    ConversationState.EXCLUDED: frozenset(),
}


class Conversation(models.Model):
    study = models.ForeignKey(Study, on_delete=models.PROTECT, related_name="conversations")
    participant = models.ForeignKey(
        Participant, on_delete=models.PROTECT, related_name="conversations"
    )
    external_id = models.CharField(
        max_length=200, help_text="conversationId in the AttuneBench format."
    )
    model_endpoint = models.ForeignKey(
        ModelEndpoint,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="conversations",
        help_text="The hidden model the participant talked to. Never shown to the participant.",
    )
    model_version = models.CharField(max_length=120, blank=True)
    system_prompt_version = models.CharField(
        max_length=40, blank=True, help_text="The endpoint's system prompt version at assignment."
    )
    model_config = models.ForeignKey(
        ModelConfig,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="conversations",
        help_text="The configuration snapshot taken when the conversation opened (none if imported).",
    )
    topic_category = models.CharField(max_length=120, blank=True)
    topic_subtopic = models.CharField(max_length=200, blank=True)
    state = models.CharField(
        max_length=16, choices=ConversationState.choices, default=ConversationState.CONSENTED
    )
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    source_timestamp = models.CharField(
        max_length=64, blank=True, help_text="metadata.timestamp exactly as imported."
    )
    metadata_other = models.JSONField(
        default=dict, blank=True, help_text="Unmodelled metadata keys of imported records."
    )
    record_other = models.JSONField(
        default=dict, blank=True, help_text="Unmodelled top-level keys of imported records."
    )
    is_synthetic = models.BooleanField(default=False)
    # QA's automatic flags are owed (set when the conversation completes, cleared when they are
    # computed): when the workers' sweep asks for them again if they are still not computed.
    flags_resend_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["study", "external_id"], name="conversation_unique_external_id"
            ),
            models.CheckConstraint(
                condition=models.Q(state__in=ConversationState.values),
                name="conversation_state_valid",
            ),
        ]
        indexes = [models.Index(fields=["study", "state"])]

    def __str__(self) -> str:
        return f"conversation {self.external_id}"


class TurnStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    STREAMING = "streaming", "Streaming"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class Turn(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    user_message = models.TextField()
    model_reply = models.TextField(blank=True)
    status = models.CharField(max_length=12, choices=TurnStatus.choices, default=TurnStatus.PENDING)
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    time_to_first_token_ms = models.PositiveIntegerField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, null=True, blank=True)
    finish_reason = models.CharField(max_length=40, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # One stream owns a streaming turn: the claim counts the streams started for it, and the
    # owner renews the lease while it streams (annotations/services/chat.py).
    stream_claim = models.PositiveIntegerField(default=0)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # Set while the learned risk model's read of the message is owed to a worker (the web
    # process reads the lexicon alone: services/safety.py); the sweep sends the read again
    # once it has passed. Null when done or when no model reads the message's language.
    risk_read_due_at = models.DateTimeField(null=True, blank=True)
    other = models.JSONField(
        default=dict, blank=True, help_text="Unmodelled turn keys of imported records."
    )

    class Meta:
        ordering = ["conversation", "number"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "number"], name="turn_unique_number"),
            models.UniqueConstraint(
                fields=["conversation", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="turn_unique_idempotency_key",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=TurnStatus.values), name="turn_status_valid"
            ),
        ]
        indexes = [
            # The sweep's query: only turns whose model read is owed are in it.
            models.Index(
                fields=["risk_read_due_at"],
                condition=models.Q(risk_read_due_at__isnull=False),
                name="turn_risk_read_owed",
            ),
        ]

    def __str__(self) -> str:
        return f"turn {self.number} of {self.conversation.external_id}"
