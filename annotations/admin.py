"""Django admin for the annotation data model.

What a participant wrote or answered is shown read-only: the admin may look, never rewrite
(corrections are a separate layer). Instruments are read-only once a study uses them.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Protocol

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from annotations.admin_setup import SetupAdminMixin
from annotations.models import (
    AuditEntry,
    BehaviourJudgement,
    ClientError,
    Conversation,
    ConversationWideAnswers,
    Instrument,
    InstrumentTranslation,
    ModelConfig,
    ModelEndpoint,
    MoodTag,
    PairwiseChoice,
    PanasResponse,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
    TurnSignal,
)
from annotations.services.instrument_translations import translation_status
from annotations.services.languages import BASE_LANGUAGE, language_statuses
from annotations.services.participants import start_preview
from annotations.services.safety import risk_coverage
from annotations.services.study_links import participant_app_path, recruitment_link
from annotations.staff import staff_user

_site_address: ContextVar[str] = ContextVar("site_address", default="/")


# The rows of a list page carry the counts its queryset annotates (get_queryset below).
class _ConversationCount(Protocol):
    n_conversations: int


class _StudyCount(Protocol):
    n_studies: int


class _TurnCount(Protocol):
    n_turns: int


class ReadOnlyAdminMixin:
    """Rows the admin only shows (participant-authored content, configuration snapshots)."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(ModelConfig)
class ModelConfigAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Configuration snapshots: immutable, so viewable only."""

    list_display = ["config_hash", "__str__", "conversation_count", "created_at"]
    search_fields = ["config_hash"]
    readonly_fields = ["config_hash", "system_prompt_sha256", "definition", "created_at"]

    def get_queryset(self, request):
        counted = Count("conversations", filter=self.counted_conversations(request))
        return super().get_queryset(request).annotate(n_conversations=counted)

    def counted_conversations(self, request: HttpRequest) -> Q | None:
        """Which conversations the count shows (None: all; the study scope narrows it)."""
        return None

    @admin.display(description="conversations", ordering="n_conversations")
    def conversation_count(self, obj: _ConversationCount) -> int:
        return obj.n_conversations


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False


@admin.register(Instrument)
class InstrumentAdmin(SetupAdminMixin, admin.ModelAdmin):
    list_display = ["name", "version", "content_hash_short", "study_count", "created_at"]
    search_fields = ["name", "description"]
    readonly_fields = ["content_hash", "created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_studies=Count("studies"))

    @admin.display(description="studies", ordering="n_studies")
    def study_count(self, obj: _StudyCount) -> int:
        return obj.n_studies

    @admin.display(description="hash")
    def content_hash_short(self, obj: Instrument) -> str:
        return obj.content_hash[:12]


@admin.register(InstrumentTranslation)
class InstrumentTranslationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Translations are written by services.instrument_translations.save_translation (audited;
    `manage.py seed_demo` writes the demo's); here they are listed with their state."""

    list_display = ["instrument", "language", "state", "missing_texts", "updated_at"]
    list_filter = ["language", "instrument"]

    @admin.display(description="state")
    def state(self, obj: InstrumentTranslation) -> str:
        return translation_status(obj.instrument, obj.language, BASE_LANGUAGE).state

    @admin.display(description="missing texts")
    def missing_texts(self, obj: InstrumentTranslation) -> int:
        return len(translation_status(obj.instrument, obj.language, BASE_LANGUAGE).missing)


@admin.register(ModelEndpoint)
class ModelEndpointAdmin(SetupAdminMixin, admin.ModelAdmin):
    list_display = ["alias", "litellm_model", "provider", "api_key_env", "weight", "active"]
    list_filter = ["active", "provider"]
    search_fields = ["alias", "litellm_model", "model_name"]


@admin.register(Study)
class StudyAdmin(SetupAdminMixin, admin.ModelAdmin):
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
    readonly_fields = ["recruitment_link", "preview_link", "language_status", "risk_check_status"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_conversations=Count("conversations"))

    @admin.display(description="translations")
    def language_status(self, obj: Study) -> str:
        """Each enabled language: is the instrument translated (and still a translation of the
        current base), are the study's own texts?"""
        if obj.pk is None:
            return "-"
        rows = format_html_join(
            "",
            "<li{}>{}: instrument {}{}, study texts {}</li>",
            (
                (
                    mark_safe(' class="errornote"') if status.needs_work else "",
                    status.language,
                    status.instrument,
                    f" ({len(status.missing)} texts missing)" if status.missing else "",
                    status.study_texts,
                )
                for status in language_statuses(obj)
            ),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description="risk check by language")
    def risk_check_status(self, obj: Study) -> str:
        """Each enabled language: what reads its messages for risk; a language without
        phrasings of its own is marked (only the moderation model, or nothing but English
        phrases, reads it: docs/architecture.md, the risk check)."""
        if obj.pk is None:
            return "-"
        rows = format_html_join(
            "",
            "<li{}>{}{}</li>",
            (
                (
                    mark_safe(' class="errornote"') if coverage.warning else "",
                    coverage.describe(),
                    f" ({coverage.warning})" if coverage.warning else "",
                )
                for coverage in risk_coverage(obj)
            ),
        )
        return format_html("<ul>{}</ul>", rows)

    @admin.display(description="conversations", ordering="n_conversations")
    def conversation_count(self, obj: _ConversationCount) -> int:
        return obj.n_conversations

    def get_urls(self):
        preview = self.admin_site.admin_view(self.preview_view)
        return [
            path("<int:pk>/preview/", preview, name="annotations_study_preview"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # The recruitment link needs this site's address, known only from the request. A
        # ModelAdmin is shared by all threads, so the address goes in a context variable.
        token = _site_address.set(request.build_absolute_uri("/"))
        try:
            response = super().change_view(request, object_id, form_url, extra_context)
            if hasattr(response, "render"):
                response.render()  # now, while the address is set (templates render lazily)
            return response
        finally:
            _site_address.reset(token)

    @admin.display(description="recruitment link (paste into Prolific)")
    def recruitment_link(self, obj: Study) -> str:
        if obj.pk is None:
            return "-"
        return format_html("<code>{}</code>", recruitment_link(obj, _site_address.get()))

    def get_prepopulated_fields(self, request: HttpRequest, obj=None):
        # The slug is frozen once participants have the link (services/setup.py): a read-only
        # field cannot be prepopulated (Django's form has no field to fill: a 500).
        readonly = set(self.get_readonly_fields(request, obj))
        return {
            name: sources
            for name, sources in super().get_prepopulated_fields(request, obj).items()
            if name not in readonly
        }

    @admin.display(description="preview")
    def preview_link(self, obj: Study) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("admin:annotations_study_preview", args=[obj.pk])
        # A POST (it starts a participant): the button sends the page's own form, with its
        # CSRF token, to the preview address instead of saving it.
        return format_html(
            '<button type="submit" formaction="{}" formmethod="post" formtarget="_blank" '
            'formnovalidate class="button">Open the study as a test participant</button> '
            "(a preview participant: never counted, never released)",
            url,
        )

    def preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Start a preview participant and open the participant app with its token.

        The token travels in the URL fragment, which browsers never send to a server, so it
        stays out of access logs; the app reads it from ``location.hash``.
        """
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        study = self.get_object(request, str(pk))  # within the user's studies
        if study is None:
            raise Http404
        if not self.has_change_permission(request, study):
            raise PermissionDenied
        result = start_preview(study, actor=staff_user(request))
        return HttpResponseRedirect(f"{participant_app_path(study)}#token={result.token}")


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
        "restart_of",
        "created_at",
    ]
    list_filter = ["study", "withdrawn", "is_preview", "is_synthetic"]
    search_fields = ["pseudonym", "external_id", "prolific_pid"]
    list_select_related = ["study", "restart_of"]


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
    # Only the endpoints of the conversations listed (the list is study-scoped), never all.
    list_filter = [
        "study",
        "state",
        ("model_endpoint", admin.RelatedOnlyFieldListFilter),
        "topic_category",
        "is_synthetic",
    ]
    search_fields = ["external_id", "participant__pseudonym", "topic_subtopic"]
    list_select_related = ["study", "model_endpoint"]
    inlines = [PanasInline, TurnInline]
    date_hierarchy = "started_at"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_turns=Count("turns"))

    @admin.display(description="turns", ordering="n_turns")
    def turn_count(self, obj: _TurnCount) -> int:
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


# What audit.record_audit writes as an endpoint's entries' target_type.
_ENDPOINT_TARGET = ModelEndpoint._meta.label_lower


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["created_at", "actor_label", "action", "target_type", "target_id"]
    list_filter = ["action", "target_type"]
    search_fields = ["actor_label", "action", "target_id"]
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest):
        queryset = super().get_queryset(request)
        if request.user.has_perm("annotations.view_modelendpoint"):
            return queryset
        # An endpoint's entries hold what its page holds (the variable naming the provider
        # key, the system prompt): not for the roles that may not open that page (qa/roles.py).
        return queryset.exclude(target_type=_ENDPOINT_TARGET)


@admin.register(TurnSignal)
class TurnSignalAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Risk phrases and identity leaks the chat detected live; QA turns them into flags."""

    list_display = ["created_at", "kind", "source", "turn", "evidence"]
    list_filter = ["kind", "source", "turn__conversation__study"]
    search_fields = ["turn__conversation__external_id"]
    list_select_related = ["turn__conversation"]
    date_hierarchy = "created_at"


@admin.register(ClientError)
class ClientErrorAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """What broke in participants' browsers (participant_api ClientErrorView); scoped to the
    user's studies like every study row (qa/admin.py). No study filter: its choices would name
    studies outside the user's scope."""

    list_display = ["created_at", "study", "screen", "message", "build", "participant"]
    list_filter = ["screen"]
    search_fields = ["message"]
    list_select_related = ["study", "participant"]
    date_hierarchy = "created_at"
