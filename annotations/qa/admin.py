"""Django admin for QA rows, and study scoping of the annotation admin.

Reviews, flags and corrections are changed only through the QA pages (their services audit
every change), so here they are read-only. Memberships, study settings and attention checks are
edited here, and their save and delete go through ``services/configuration.py`` (audited).

Users limited to some studies (see ``access.py``) see only those studies' rows, here and in the
annotation admin: ``scope_admins`` re-registers the annotation ModelAdmins with the same filter,
and hides the cross-study audit log from them. Model endpoints and configuration snapshots
belong to the studies that use them (``endpoint_scope.py``): their pages, and every choice of
an endpoint, are limited the same way, and studies and endpoints save and delete through the
services that authorise the user in those studies (``services/scoped_setup.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from annotations.admin import ReadOnlyAdminMixin
from annotations.models import (
    AuditEntry,
    ClientError,
    Conversation,
    ConversationWideAnswers,
    ModelConfig,
    ModelEndpoint,
    Participant,
    Study,
    Turn,
    TurnAnnotation,
    TurnSignal,
)
from annotations.qa.access import limit_to_studies, study_id_of, study_scope
from annotations.qa.endpoint_scope import (
    VIEW_CONFIG,
    endpoint_allows,
    viewable_configs,
    viewable_endpoints,
)
from annotations.qa.models import (
    AttentionCheck,
    ConversationReview,
    Correction,
    Flag,
    FlagVerdict,
    Review,
    StudyMembership,
    StudyQASettings,
)
from annotations.qa.services import QAError
from annotations.qa.services.configuration import delete_configuration, save_configuration
from annotations.qa.services.personal_details import ERASE_PERM, erase_participant
from annotations.qa.services.scoped_setup import delete_setup_as, save_setup_as
from annotations.staff import staff_user

if TYPE_CHECKING:  # the mixins' methods call the ModelAdmin's they come before
    _ModelAdmin = admin.ModelAdmin
else:
    _ModelAdmin = object


class ScopedSetupWritesMixin(_ModelAdmin):
    """Study setup (annotations/admin_setup.py) saved and deleted by the services that first
    authorise the user in the studies concerned."""

    def write_setup(self, request: HttpRequest, obj, many_to_many: dict) -> None:
        save_setup_as(obj, actor=staff_user(request), many_to_many=many_to_many)

    def remove_setup(self, request: HttpRequest, obj) -> None:
        delete_setup_as(obj, actor=staff_user(request))


class StudyScopedAdminMixin(ScopedSetupWritesMixin, _ModelAdmin):
    """Rows of the studies where the user may view this model; study choices likewise; and
    adding, changing or deleting a row only where the membership's role in its study allows it
    (a researcher who is a viewer of a study may open its rows, not edit them)."""

    study_lookup = "study"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        perm = f"{self.opts.app_label}.view_{self.opts.model_name}"
        return limit_to_studies(queryset, request.user, perm, self.study_lookup)

    def has_add_permission(self, request: HttpRequest, *args) -> bool:
        return super().has_add_permission(request, *args) and self._role_allows(
            request, "add", None
        )

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_change_permission(request, obj) and self._role_allows(
            request, "change", obj
        )

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and self._role_allows(
            request, "delete", obj
        )

    def _role_allows(self, request: HttpRequest, action: str, obj) -> bool:
        """Without an object (the list, the add page): in some study of the user's."""
        perm = f"{self.opts.app_label}.{action}_{self.opts.model_name}"
        study_id = None if obj is None else study_id_of(obj, self.study_lookup)
        return study_scope(request.user).allows(perm, study_id)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.related_model is Study:
            perm = f"{self.opts.app_label}.change_{self.opts.model_name}"
            kwargs["queryset"] = limit_to_studies(Study.objects.all(), request.user, perm, "pk")
        elif db_field.related_model is ModelEndpoint:  # a study's improver, moderation
            kwargs["queryset"] = viewable_endpoints(ModelEndpoint.objects.all(), request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.related_model is ModelEndpoint:  # a study's model pool
            kwargs["queryset"] = viewable_endpoints(ModelEndpoint.objects.all(), request.user)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class EndpointScopedAdminMixin(ScopedSetupWritesMixin, _ModelAdmin):
    """Model endpoints within the user's studies (``endpoint_scope.py``): listed and opened
    with the permission in one of their studies, changed and deleted only with it in all of
    them, added by a limited user only for one of their studies."""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return viewable_endpoints(super().get_queryset(request), request.user)

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_view_permission(request, obj) and self._allows(request, "view", obj)

    def has_add_permission(self, request: HttpRequest, *args) -> bool:
        return super().has_add_permission(request, *args) and self._allows(request, "add", None)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_change_permission(request, obj) and self._allows(request, "change", obj)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and self._allows(request, "delete", obj)

    @staticmethod
    def _allows(request: HttpRequest, action: str, obj) -> bool:
        """Without an object (the list, the add page): in some study of the user's."""
        if obj is None:
            perm = f"annotations.{action}_modelendpoint"
            return study_scope(request.user).allows(perm, None)
        return endpoint_allows(request.user, action, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "created_for":  # the studies the user may add endpoints for
            kwargs["queryset"] = limit_to_studies(
                Study.objects.all(), request.user, "annotations.add_modelendpoint", "pk"
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        field = form.base_fields.get("created_for")
        if obj is None and field is not None and study_scope(request.user).limited:
            field.required = True  # a limited user's new endpoint is for one of their studies
        return form


class ConfigScopedAdminMixin(_ModelAdmin):
    """Configuration snapshots (system prompts, parameters) of the user's studies' conversations,
    each counting only those conversations."""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return viewable_configs(super().get_queryset(request), request.user)

    def counted_conversations(self, request: HttpRequest) -> Q | None:
        allowed = study_scope(request.user).studies_allowing(VIEW_CONFIG)
        return None if allowed is None else Q(conversations__study__in=allowed)


class AuditedConfigurationAdmin(StudyScopedAdminMixin, admin.ModelAdmin):
    def save_model(self, request, obj, form, change) -> None:
        save_configuration(obj, actor=request.user)

    def delete_model(self, request, obj) -> None:
        delete_configuration(obj, actor=request.user)

    def delete_queryset(self, request, queryset) -> None:
        for obj in queryset:
            delete_configuration(obj, actor=request.user)


@admin.register(StudyMembership)
class StudyMembershipAdmin(AuditedConfigurationAdmin):
    """A user without memberships may act in every study (access.py), so a user limited to
    some studies must not be able to take a user's last membership away, their own included:
    that would open every study to them. Superusers and lab-wide users may."""

    list_display = ["user", "study", "role", "created_at"]
    list_filter = ["role", "study"]
    search_fields = ["user__username", "study__slug"]
    list_select_related = ["user", "study"]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and _would_unlimit(request, obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and _would_unlimit(request, obj):
            fields.append("user")  # moving it to another user would leave this one without
        return fields


def _would_unlimit(request: HttpRequest, membership: StudyMembership) -> bool:
    """The acting user is limited, and this is the last membership of its user."""
    return (
        study_scope(request.user).limited
        and not StudyMembership.objects.filter(user_id=membership.user_id)
        .exclude(pk=membership.pk)
        .exists()
    )


@admin.register(StudyQASettings)
class StudyQASettingsAdmin(AuditedConfigurationAdmin):
    list_display = [
        "study",
        "double_review_share",
        "fast_annotation_seconds",
        "short_message_chars",
        "min_straightlining_answers",
    ]


@admin.register(AttentionCheck)
class AttentionCheckAdmin(AuditedConfigurationAdmin):
    list_display = ["study", "survey", "item_key", "prompt", "active"]
    list_filter = ["study", "survey", "active"]


class QARowAdmin(ReadOnlyAdminMixin, StudyScopedAdminMixin, admin.ModelAdmin):
    """A QA row of a conversation: read-only here (the QA pages write), scoped by its study."""

    study_lookup = "conversation__study"
    search_fields = ["conversation__external_id"]

    def get_list_filter(self, request):
        return [*self.list_filter, "conversation__study"]


@admin.register(ConversationReview)
class ConversationReviewAdmin(QARowAdmin):
    list_display = [
        "conversation",
        "status",
        "double_review",
        "final_decision",
        "exclusion_reason",
        "decided_by",
        "decided_at",
    ]
    list_filter = ["status", "double_review", "exclusion_reason"]
    list_select_related = ["conversation", "decided_by"]


class FlagVerdictInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = FlagVerdict
    extra = 0


@admin.register(Review)
class ReviewAdmin(QARowAdmin):
    list_display = [
        "conversation",
        "stage",
        "reviewer",
        "decision",
        "exclusion_reason",
        "blind",
        "created_at",
    ]
    list_filter = ["stage", "decision", "blind"]
    list_select_related = ["conversation", "reviewer"]
    inlines = [FlagVerdictInline]


@admin.register(Flag)
class FlagAdmin(QARowAdmin):
    list_display = [
        "conversation",
        "flag_type",
        "severity",
        "status",
        "source",
        "summary",
        "created_at",
    ]
    list_filter = ["flag_type", "severity", "status", "source"]
    search_fields = ["conversation__external_id", "summary"]
    list_select_related = ["conversation"]


@admin.register(Correction)
class CorrectionAdmin(QARowAdmin):
    list_display = [
        "conversation",
        "field_path",
        "original_value",
        "corrected_value",
        "reason",
        "created_by",
        "created_at",
        "withdrawn_at",
    ]
    list_filter = ["reason"]
    search_fields = ["conversation__external_id", "field_path"]
    list_select_related = ["conversation", "created_by"]


# --- study scoping of the annotation admin ---------------------------------------------------

ANNOTATION_STUDY_LOOKUPS = {
    Study: "pk",
    Participant: "study",
    Conversation: "study",
    Turn: "conversation__study",
    TurnAnnotation: "turn__conversation__study",
    ConversationWideAnswers: "conversation__study",
    TurnSignal: "turn__conversation__study",  # its evidence quotes the participant
    ClientError: "study",
}


class HiddenFromLimitedUsersMixin(_ModelAdmin):
    """The audit log spans every study: users limited to some studies do not see it."""

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return not study_scope(request.user).limited and super().has_view_permission(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return not study_scope(request.user).limited and super().has_module_permission(request)


@admin.action(
    description="Erase on the participant's request (later releases retract it)",
    permissions=["erase"],
)
def erase_on_request(modeladmin, request: HttpRequest, queryset: QuerySet[Participant]) -> None:
    """The admin's erasure: each participant through the service, which checks the user's
    permission in that participant's study and audits it."""
    erased = 0
    for participant in queryset.select_related("study"):
        try:
            erase_participant(participant, actor=staff_user(request))
        except QAError as exc:
            modeladmin.message_user(request, f"{participant}: {exc.message}", messages.ERROR)
            continue
        erased += 1
    if erased:
        modeladmin.message_user(request, f"Erased {erased} participant(s).", messages.SUCCESS)


class ParticipantErasureMixin(_ModelAdmin):
    """The participant admin's erasure action, offered to users holding the permission."""

    actions = [erase_on_request]

    def has_erase_permission(self, request: HttpRequest) -> bool:
        # The study is checked per participant by the service (a membership narrows).
        return request.user.has_perm(ERASE_PERM)


def scope_admins(site: admin.AdminSite) -> None:
    """Re-register the annotation ModelAdmins with the study scope (idempotent)."""
    for model, lookup in ANNOTATION_STUDY_LOOKUPS.items():
        _rewrap(site, model, StudyScopedAdminMixin, {"study_lookup": lookup})
    _rewrap(site, Participant, ParticipantErasureMixin, {})
    _rewrap(site, ModelEndpoint, EndpointScopedAdminMixin, {})
    _rewrap(site, ModelConfig, ConfigScopedAdminMixin, {})
    _rewrap(site, AuditEntry, HiddenFromLimitedUsersMixin, {})


def _rewrap(site: admin.AdminSite, model, mixin: type, attributes: dict) -> None:
    if not site.is_registered(model):
        return
    current = site.get_model_admin(model)  # public since Django 5.0
    if isinstance(current, mixin):
        return
    cls = type(current)
    site.unregister(model)
    site.register(model, type(f"StudyScoped{cls.__name__}", (mixin, cls), attributes))


scope_admins(admin.site)
