"""Per-study QA configuration: double-review share, flag thresholds, attention checks."""

from __future__ import annotations

from django.db import models

from annotations.models import Study


class StudyQASettings(models.Model):
    """Thresholds a researcher may tune per study; a study without a row uses the defaults."""

    study = models.OneToOneField(Study, on_delete=models.CASCADE, related_name="qa_settings")
    double_review_share = models.FloatField(
        default=0.1, help_text="Share of conversations (0..1) reviewed blind by two reviewers."
    )
    fast_annotation_seconds = models.PositiveIntegerField(
        default=8, help_text="An annotation submitted faster than this is implausibly fast."
    )
    short_message_chars = models.PositiveIntegerField(
        default=4,
        help_text="A participant message shorter than this (non-space characters) is very short.",
    )
    min_straightlining_answers = models.PositiveIntegerField(
        default=6, help_text="Identical behaviour answers are flagged from this many answers on."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "study QA settings"
        verbose_name_plural = "study QA settings"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(double_review_share__gte=0, double_review_share__lte=1),
                name="qa_settings_share_0_1",
            ),
        ]

    def __str__(self) -> str:
        return f"QA settings of {self.study}"


class SurveyPart(models.TextChoices):
    """Where an instructed-response item is placed, and so where its answer is stored."""

    PROFILE = "profile", "Profile (Participant.responses)"
    PRE_PANAS = "pre_panas", "Pre-chat PANAS (PanasResponse.other)"
    POST_PANAS = "post_panas", "Post-chat PANAS (PanasResponse.other)"
    POST_CHAT = "post_chat", "Post-chat questions (ConversationWideAnswers.other)"


class AttentionCheck(models.Model):
    """An instructed-response item ("choose 'often' here"): a wrong answer raises a flag."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="attention_checks")
    survey = models.CharField(max_length=12, choices=SurveyPart.choices)
    item_key = models.SlugField(max_length=80, help_text="Key of the answer in that survey.")
    prompt = models.CharField(max_length=300, help_text="What the participant is shown.")
    expected_answers = models.JSONField(
        default=list, help_text="Accepted answers (compared case-insensitively as text)."
    )
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["study", "survey", "item_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["study", "survey", "item_key"], name="qa_attention_check_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(survey__in=SurveyPart.values),
                name="qa_attention_check_survey_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.survey}.{self.item_key}"
