"""Shapes of the researcher API, input and output. No logic: the views call services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotations.models import ConversationState, StudyStatus
from annotations.qa.models.review import ReviewStatus
from annotations.releases.models import QaRule, ReleaseState
from attunebench.runner import MODES
from evaluation.models import RunStatus

SLUG = r"^[-a-zA-Z0-9_]+$"


class ErrorDetailOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)


class ApiErrorOutput(serializers.Serializer):
    error = ErrorDetailOutput()


# --- studies ----------------------------------------------------------------------------------


class StudyOutput(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=StudyStatus.choices)
    target_participants = serializers.IntegerField()
    participants = serializers.IntegerField(source="participant_count")
    conversations = serializers.IntegerField(source="conversation_count")
    created_at = serializers.DateTimeField()


class StudyCreateInput(serializers.Serializer):
    slug = serializers.RegexField(SLUG, max_length=80)
    title = serializers.CharField(max_length=200)
    template = serializers.CharField(required=False, default="", allow_blank=True, max_length=40)
    copy_of = serializers.RegexField(SLUG, max_length=80, required=False, allow_null=True)


class MonitorTableOutput(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))


class MonitorOutput(serializers.Serializer):
    study = serializers.CharField()
    tables = MonitorTableOutput(many=True)


class ParticipantOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    pseudonym = serializers.CharField()
    consented_at = serializers.DateTimeField(allow_null=True)
    withdrawn = serializers.BooleanField()
    screened_out_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class ConversationOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    participant = serializers.CharField(source="participant.pseudonym")
    state = serializers.ChoiceField(choices=ConversationState.choices)
    turns = serializers.IntegerField(source="turn_count")
    qa_status = serializers.ChoiceField(
        choices=ReviewStatus.choices, source="qa_status_value", allow_null=True
    )
    started_at = serializers.DateTimeField(allow_null=True)
    completed_at = serializers.DateTimeField(allow_null=True)


class MessageOutput(serializers.Serializer):
    turn = serializers.IntegerField(source="number")
    user_message = serializers.CharField()
    model_reply = serializers.CharField()


class FlagCountOutput(serializers.Serializer):
    flag_type = serializers.CharField()
    severity = serializers.CharField()
    status = serializers.CharField()
    count = serializers.IntegerField()


class QaSummaryOutput(serializers.Serializer):
    flags = FlagCountOutput(many=True)
    reviews = serializers.DictField(child=serializers.IntegerField())
    reviews_total = serializers.IntegerField()
    reviews_decided = serializers.IntegerField()
    reviews_open = serializers.IntegerField()


# --- releases ---------------------------------------------------------------------------------


class ReleaseOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    version = serializers.CharField()
    state = serializers.ChoiceField(choices=ReleaseState.choices)
    studies = serializers.SerializerMethodField()
    progress_done = serializers.IntegerField()
    progress_total = serializers.IntegerField()
    error = serializers.CharField()
    content_hash = serializers.CharField()
    archive_sha256 = serializers.CharField()
    archive_bytes = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    frozen_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_studies(self, release) -> list[str]:
        return sorted(study.slug for study in release.studies.all())


class ReleaseCreateInput(serializers.Serializer):
    name = serializers.RegexField(SLUG, max_length=80)
    version = serializers.CharField(max_length=40)
    studies = serializers.ListField(
        child=serializers.RegexField(SLUG, max_length=80), min_length=1, max_length=50
    )
    qa_rule = serializers.ChoiceField(choices=QaRule.choices, required=False)
    completed_only = serializers.BooleanField(required=False, default=True)
    subsample_sizes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1_000_000),
        required=False,
        max_length=10,
    )
    description = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=5000
    )


class ManifestOutput(serializers.Serializer):
    release = serializers.IntegerField()
    content_hash = serializers.CharField()
    manifest = serializers.DictField()


# --- evaluation runs --------------------------------------------------------------------------


class RunCreateInput(serializers.Serializer):
    release = serializers.IntegerField(min_value=1)
    models = serializers.ListField(
        child=serializers.CharField(max_length=80), min_length=1, max_length=20
    )
    judges = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, default=list, max_length=10
    )
    modes = serializers.ListField(
        child=serializers.ChoiceField(choices=[(m, m) for m in MODES]),
        required=False,
        default=["default"],
        min_length=1,
        max_length=len(MODES),
    )
    subsample = serializers.RegexField(
        SLUG, max_length=120, required=False, default="", allow_blank=True
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class EstimateOutput(serializers.Serializer):
    units = serializers.IntegerField()
    calls = serializers.IntegerField()
    cost_usd = serializers.FloatField(allow_null=True)
    estimate = serializers.DictField()


class RunOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    release = serializers.IntegerField(source="release_id")
    status = serializers.ChoiceField(choices=RunStatus.choices)
    units_total = serializers.IntegerField()
    units_done = serializers.IntegerField()
    units_failed = serializers.IntegerField()
    calls_made = serializers.IntegerField()
    estimated_calls = serializers.IntegerField()
    cost_usd = serializers.DecimalField(max_digits=14, decimal_places=8, coerce_to_string=False)
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class LeaderboardOutput(serializers.Serializer):
    release = serializers.IntegerField()
    boards = serializers.ListField(child=serializers.DictField())


class ReportOutput(serializers.Serializer):
    run = serializers.IntegerField()
    report = serializers.DictField()
