"""Participants and their profile. Recruitment ids stay here and never leave in a release."""

from __future__ import annotations

from django.db import models

from annotations.models.study import Study


class Participant(models.Model):
    study = models.ForeignKey(Study, on_delete=models.PROTECT, related_name="participants")
    pseudonym = models.CharField(max_length=64, unique=True, help_text="Internal pseudonymous id.")
    external_id = models.CharField(
        max_length=200, blank=True, help_text="participant_id of an imported record."
    )
    prolific_pid = models.CharField("PROLIFIC_PID", max_length=64, blank=True)
    prolific_study_id = models.CharField("STUDY_ID", max_length=64, blank=True)
    prolific_session_id = models.CharField("SESSION_ID", max_length=64, blank=True)
    consent_version = models.CharField(max_length=40, blank=True)
    consented_at = models.DateTimeField(null=True, blank=True)
    profile_submitted_at = models.DateTimeField(null=True, blank=True)
    profile_schema_version = models.CharField(max_length=40, blank=True)
    age = models.PositiveSmallIntegerField(null=True, blank=True)
    traits = models.JSONField(default=list, blank=True)
    goals = models.JSONField(default=list, blank=True)
    responses = models.JSONField(default=dict, blank=True)
    profile_extra = models.JSONField(
        null=True, blank=True, help_text="The profile's free 'extra' object."
    )
    profile_other = models.JSONField(
        default=dict, blank=True, help_text="Unmodelled profile keys of imported records."
    )
    # Columns added after the table existed carry db_default (matching their default, '' for a
    # blank CharField): the previous release's code, still running during a rolling deploy,
    # inserts rows that name no such column.
    language = models.CharField(
        max_length=16,
        blank=True,
        db_default="",
        help_text="The language the participant took the study in (the link's, the browser's, "
        "or the study's default); '' for records from before languages.",
    )
    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    is_preview = models.BooleanField(
        default=False, help_text="A researcher's test run: never released."
    )
    screened_out_at = models.DateTimeField(null=True, blank=True)
    screenout_reason = models.CharField(
        max_length=40, blank=True, help_text="Why the study turned the participant away."
    )
    is_synthetic = models.BooleanField(default=False)
    restart_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="restarts",
        help_text="The first record of this PROLIFIC_PID, when this one is a fresh session "
        "started beside it (a link with the same PROLIFIC_PID that proved nothing, under the "
        "study's 'fresh' returning-link policy).",
    )
    place_freed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the participant's place went back to the study: their Prolific "
        "submission was returned, timed out or rejected, or their conversation sat idle.",
    )
    place_freed_reason = models.CharField(max_length=40, blank=True, db_default="")
    # The comprehension check after consent (Study.comprehension_questions): failed attempts
    # so far (a second one screens out), and when it was passed.
    comprehension_attempts = models.PositiveSmallIntegerField(default=0, db_default=0)
    comprehension_passed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One first record per PROLIFIC_PID: the same PID resumes it (with proof) instead
            # of creating a second one; only fresh sessions (restart_of) share its PID.
            models.UniqueConstraint(
                fields=["study", "prolific_pid"],
                condition=~models.Q(prolific_pid="") & models.Q(restart_of__isnull=True),
                name="participant_unique_pid_per_study",
            ),
            models.CheckConstraint(
                condition=models.Q(age__isnull=True) | models.Q(age__lte=130),
                name="participant_age_plausible",
            ),
        ]
        indexes = [models.Index(fields=["study", "external_id"])]

    def __str__(self) -> str:
        return self.pseudonym
