"""API tokens in the admin: each staff user issues, lists and revokes their own (a superuser
sees and may revoke everyone's). The value is shown once, in the message after issuing."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from annotations.models import Study
from annotations.qa.access import study_scope
from annotations.staff import staff_user
from researcher_api.models import ApiToken
from researcher_api.tokens import MAX_LIFETIME, issue_token, revoke_token

DEFAULT_LIFETIME = timedelta(days=90)


class IssueTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ["name", "studies", "scope", "expires_at"]

    def clean_expires_at(self):
        # issue_token refuses the same; said here on the field, before anything is written.
        value = self.cleaned_data["expires_at"]
        now = timezone.now()
        if value <= now or value > now + MAX_LIFETIME:
            raise forms.ValidationError("Choose an expiry in the future, within a year.")
        return value


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    form = IssueTokenForm
    list_display = ["name", "prefix", "scope", "expires_at", "last_used_at", "revoked_at", "user"]
    list_filter = ["scope"]
    actions = ["revoke_selected"]

    # Any active staff user manages their own tokens; no group permission is needed.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.has_module_permission(request) and (
            obj is None or obj.user_id == request.user.pk or request.user.is_superuser
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a token is revoked and issued anew, never edited

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # kept, revoked, for the audit trail

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        return queryset if request.user.is_superuser else queryset.filter(user=request.user)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        return {"expires_at": timezone.now() + DEFAULT_LIFETIME, "scope": "read"}

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "studies":  # only studies the user has a role in now
            mine = study_scope(request.user).study_ids
            studies = Study.objects.all()
            kwargs["queryset"] = studies if mine is None else studies.filter(pk__in=mine)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change) -> None:
        issued = issue_token(
            user=staff_user(request),
            name=form.cleaned_data["name"],
            studies=list(form.cleaned_data["studies"]),
            scope=form.cleaned_data["scope"],
            expires_at=form.cleaned_data["expires_at"],
        )
        obj.pk = issued.token.pk
        messages.warning(
            request,
            f"Your new token (copy it now, it is not shown again): {issued.value}",
        )

    def save_related(self, request, form, formsets, change) -> None:
        return None  # issue_token set the studies

    @admin.action(description="Revoke the selected tokens")
    def revoke_selected(self, request: HttpRequest, queryset) -> None:
        for token in queryset:
            revoke_token(token, actor=staff_user(request))
        messages.success(request, "Revoked.")
