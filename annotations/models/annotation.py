"""What the participant said about each model reply, in the first person.

Mood tags, behaviour judgements and A/B choices are rows (not JSON) so the database itself
guards their ranges and uniqueness, and so QA and releases can query them.
"""

from __future__ import annotations

from django.db import models

from annotations.models.conversation import Turn
from annotations.models.endpoint import ModelEndpoint

ANSWER_CHOICES = [("yes", "Yes"), ("no", "No"), ("na", "Not applicable")]
RESPONSE_LABEL_CHOICES = [
    ("original", "Original reply"),
    ("alternate", "Improved reply"),
    ("human", "Participant's edit"),
]
WINNER_CHOICES = [("A", "A"), ("B", "B")]


class ImprovedStatus(models.TextChoices):
    """Where the background "improved reply" of a live turn stands."""

    PENDING = "pending", "Being written"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"
    UNAVAILABLE = "unavailable", "No improver model"


def _answer_is_valid(field: str) -> models.Q:
    return models.Q(**{f"{field}__isnull": True}) | models.Q(
        **{f"{field}__in": ["yes", "no", "na"]}
    )


class TurnAnnotation(models.Model):
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="annotation")
    llm_improved_reply = models.TextField(null=True, blank=True)
    human_edited_reply = models.TextField(null=True, blank=True)
    shown_behaviour_questions = models.JSONField(default=list, blank=True)
    selected_pairwise_questions = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    # When the participant saved every answer but the A/B choice while the comparison's second
    # reply was still being written (services/annotation_flow.py): those answers are stored,
    # the step is submitted once the comparison is answered (or skipped).
    answers_saved_at = models.DateTimeField(null=True, blank=True)
    timings = models.JSONField(
        default=dict, blank=True, help_text="Seconds spent per annotation step."
    )
    other = models.JSONField(
        default=dict, blank=True, help_text="Unmodelled annotation keys of imported records."
    )
    # Live collection only (imported records leave these empty).
    pairwise_plan = models.JSONField(
        default=list,
        blank=True,
        help_text='A/B positions shown: [{"question_id", "response_a", "response_b"}].',
    )
    improved_status = models.CharField(
        max_length=12,
        choices=ImprovedStatus.choices,
        blank=True,
        help_text="Progress of the background improved reply (empty for imported records).",
    )
    improver_endpoint = models.ForeignKey(
        ModelEndpoint, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    improved_meta = models.JSONField(
        default=dict, blank=True, help_text="Latency, tokens, cost and error of the improver call."
    )
    # While the improved reply is pending (services/improver.py): when the workers' sweep sends
    # its task again if no worker has taken it by then (a message lost to a broker error), and
    # the lease of the worker calling the improver (a duplicate message leaves it alone).
    improver_resend_at = models.DateTimeField(null=True, blank=True)
    improver_lease_until = models.DateTimeField(null=True, blank=True)
    # An attention check in this step (Study.attention_check_turns): the option the
    # participant was told to choose, and the one they chose (read by QA's
    # failed_attention_check flag). Empty when the turn has none.
    # db_default: added after the table existed, and the previous release's code, still running
    # during a rolling deploy, inserts rows that name no such column.
    attention_expected = models.CharField(max_length=24, blank=True, db_default="")
    attention_answer = models.CharField(max_length=24, blank=True, db_default="")

    class Meta:
        # The sweep's query: pending replies whose step opened within the comparison's window.
        indexes = [
            models.Index(fields=["improved_status", "started_at"], name="annotation_improver_owed")
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(improved_status__in=["", *ImprovedStatus.values]),
                name="annotation_improved_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"annotation of {self.turn}"


class MoodTag(models.Model):
    annotation = models.ForeignKey(
        TurnAnnotation, on_delete=models.CASCADE, related_name="mood_tags"
    )
    position = models.PositiveSmallIntegerField()
    emotion = models.CharField(max_length=20)
    intensity = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["annotation", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["annotation", "position"], name="moodtag_unique_position"
            ),
            models.CheckConstraint(
                condition=models.Q(intensity__isnull=True)
                | models.Q(intensity__gte=1, intensity__lte=7),
                name="moodtag_intensity_1_7",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.emotion} ({self.intensity if self.intensity is not None else '-'})"


class BehaviourJudgement(models.Model):
    annotation = models.ForeignKey(
        TurnAnnotation, on_delete=models.CASCADE, related_name="behaviour_judgements"
    )
    position = models.PositiveSmallIntegerField()
    question_id = models.CharField(max_length=40)
    observed = models.CharField(max_length=3, choices=ANSWER_CHOICES, null=True, blank=True)
    preferred = models.CharField(max_length=3, choices=ANSWER_CHOICES, null=True, blank=True)
    llm_value = models.CharField(max_length=3, choices=ANSWER_CHOICES, null=True, blank=True)

    class Meta:
        ordering = ["annotation", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["annotation", "question_id"], name="judgement_unique_question"
            ),
            models.CheckConstraint(
                condition=_answer_is_valid("observed"), name="judgement_observed_valid"
            ),
            models.CheckConstraint(
                condition=_answer_is_valid("preferred"), name="judgement_preferred_valid"
            ),
            models.CheckConstraint(
                condition=_answer_is_valid("llm_value"), name="judgement_llm_value_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question_id}: did {self.observed or '-'}, should {self.preferred or '-'}"


class PairwiseChoice(models.Model):
    annotation = models.ForeignKey(
        TurnAnnotation, on_delete=models.CASCADE, related_name="pairwise_choices"
    )
    position = models.PositiveSmallIntegerField()
    question_id = models.CharField(max_length=200)
    response_a = models.CharField(max_length=10, choices=RESPONSE_LABEL_CHOICES)
    response_b = models.CharField(max_length=10, choices=RESPONSE_LABEL_CHOICES)
    winner = models.CharField(max_length=1, choices=WINNER_CHOICES, null=True, blank=True)

    class Meta:
        ordering = ["annotation", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["annotation", "position"], name="pairwise_unique_position"
            ),
            models.CheckConstraint(
                condition=models.Q(response_a__in=["original", "alternate", "human"]),
                name="pairwise_a_label_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(response_b__in=["original", "alternate", "human"]),
                name="pairwise_b_label_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(winner__isnull=True) | models.Q(winner__in=["A", "B"]),
                name="pairwise_winner_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question_id}: A={self.response_a} B={self.response_b} winner={self.winner or '-'}"
