"""Django admin for the annotation data model.

What a participant wrote or answered is shown read-only: the admin may look, never rewrite
(corrections are a separate layer). Instruments are read-only once a study uses them.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.http import HttpRequest

from annotations.models import (
    AuditEntry,
    BehaviourJudgement,
    Conversation,
    ConversationWideAnswers,
    Instrument,
    ModelEndpoint,
    MoodTag,
    PairwiseChoice,
    PanasResponse,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
)


class ReadOnlyAdminMixin:
    """Participant-authored content: viewable, never added, changed or deleted in the admin."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False


@admin.register(Instrument)
class InstrumentAdmin(admin.ModelAdmin):
    list_display = ["name", "version", "content_hash_short", "study_count", "created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["content_hash", "created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_studies=Count("studies"))

    @admin.display(description="studies", ordering="n_studies")
    def study_count(self, obj: Instrument) -> int:
        return obj.n_studies

    @admin.display(description="hash")
    def content_hash_short(self, obj: Instrument) -> str:
        return obj.content_hash[:12]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.is_in_use():
            return ["name", "version", "description", "definition", "content_hash", "created_at"]
        return self.readonly_fields


@admin.register(ModelEndpoint)
class ModelEndpointAdmin(admin.ModelAdmin):
    list_display = ["alias", "litellm_model", "provider", "api_key_env", "weight", "active"]
    list_filter = ["active", "provider"]
    search_fields = ["alias", "litellm_model", "model_name"]


@admin.register(Study)
class StudyAdmin(admin.ModelAdmin):
    list_display = [
        "slug",
        "title",
        "status",
        "instrument",
        "conversation_count",
        "target_participants",
        "is_synthetic",
    ]
    list_filter = ["status", "is_synthetic", "instrument"]
    search_fields = ["slug", "title"]
    filter_horizontal = ["model_pool"]
    prepopulated_fields = {"slug": ["title"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_conversations=Count("conversations"))

    @admin.display(description="conversations", ordering="n_conversations")
    def conversation_count(self, obj: Study) -> int:
        return obj.n_conversations


@admin.register(Participant)
class ParticipantAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "pseudonym",
        "study",
        "age",
        "consent_version",
        "withdrawn",
        "is_preview",
        "is_synthetic",
        "created_at",
    ]
    list_filter = ["study", "withdrawn", "is_preview", "is_synthetic"]
    search_fields = ["pseudonym", "external_id", "prolific_pid"]
    list_select_related = ["study"]


class TurnInline(ReadOnlyInline):
    model = Turn
    fields = ["number", "status", "user_message", "model_reply", "latency_ms", "finish_reason"]


class PanasInline(ReadOnlyInline):
    model = PanasResponse
    fields = ["phase", "total_positive", "total_negative", "items"]


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "external_id",
        "study",
        "state",
        "model_endpoint",
        "topic_category",
        "turn_count",
        "started_at",
    ]
    list_filter = ["study", "state", "model_endpoint", "topic_category", "is_synthetic"]
    search_fields = ["external_id", "participant__pseudonym", "topic_subtopic"]
    list_select_related = ["study", "model_endpoint"]
    inlines = [PanasInline, TurnInline]
    date_hierarchy = "started_at"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_turns=Count("turns"))

    @admin.display(description="turns", ordering="n_turns")
    def turn_count(self, obj: Conversation) -> int:
        return obj.n_turns


class MoodTagInline(ReadOnlyInline):
    model = MoodTag
    fields = ["position", "emotion", "intensity"]


class JudgementInline(ReadOnlyInline):
    model = BehaviourJudgement
    fields = ["position", "question_id", "observed", "preferred", "llm_value"]


class PairwiseInline(ReadOnlyInline):
    model = PairwiseChoice
    fields = ["position", "question_id", "response_a", "response_b", "winner"]


@admin.register(Turn)
class TurnAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "__str__",
        "status",
        "latency_ms",
        "prompt_tokens",
        "completion_tokens",
        "finish_reason",
    ]
    list_filter = ["status", "conversation__study"]
    search_fields = ["conversation__external_id", "user_message", "model_reply"]
    list_select_related = ["conversation"]


@admin.register(TurnAnnotation)
class TurnAnnotationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "submitted_at"]
    list_filter = ["turn__conversation__study"]
    search_fields = ["turn__conversation__external_id", "human_edited_reply"]
    list_select_related = ["turn__conversation"]
    inlines = [MoodTagInline, JudgementInline, PairwiseInline]


@admin.register(ConversationWideAnswers)
class ConversationWideAnswersAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "conversation",
        "emotion_clarity",
        "model_fit",
        "perceiving",
        "facilitating",
        "understanding",
        "managing",
    ]
    list_filter = ["model_fit", "emotion_clarity"]
    search_fields = ["conversation__external_id"]
    list_select_related = ["conversation"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["created_at", "actor_label", "action", "target_type", "target_id"]
    list_filter = ["action", "target_type"]
    search_fields = ["actor_label", "action", "target_id"]
    date_hierarchy = "created_at"
