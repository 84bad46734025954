"""The webhooks in the admin: a user's endpoints (the secret shown once, on the page that
answers their creation), and the deliveries with their attempts and a replay button.

Every write goes through ``services.py`` (permissions, study scope, audit); a user sees only
their own endpoints and deliveries (a superuser: all).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from annotations.models import Study
from annotations.staff import staff_user
from attune_collect.errors import ServiceError, add_to_form
from webhooks import services
from webhooks.event_types import CHOICES
from webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint


class EndpointForm(forms.ModelForm):
    events = forms.MultipleChoiceField(choices=CHOICES, widget=forms.CheckboxSelectMultiple)
    studies = forms.ModelMultipleChoiceField(queryset=Study.objects.none())

    class Meta:
        model = WebhookEndpoint
        fields = ["url", "description", "studies", "events", "is_active"]

    owner: User  # set by the admin: the user whose access the subscription is checked against

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            services.check_endpoint(
                self.owner,
                url=data["url"],
                study_ids=[s.pk for s in data["studies"]],
                events=data["events"],
            )
        except ServiceError as error:
            add_to_form(self, error)
        return data


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    form = EndpointForm
    list_display = ["__str__", "url", "owner", "event_labels", "is_active", "created_at"]
    list_filter = ["is_active"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return services.visible_endpoints(staff_user(request)).select_related("owner")

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_change_permission(request, obj) and (
            obj is None
            or services.may_manage(staff_user(request), obj, "webhooks.change_webhookendpoint")
        )

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and (
            obj is None
            or services.may_manage(staff_user(request), obj, "webhooks.delete_webhookendpoint")
        )

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        form_class = super().get_form(request, obj, change, **kwargs)
        owner = obj.owner if obj is not None else staff_user(request)

        class ScopedForm(form_class):  # type: ignore[valid-type,misc]  # a class made by get_form at run time: mypy cannot subclass a variable
            def __init__(self, *args: Any, **kw: Any) -> None:
                super().__init__(*args, **kw)
                self.owner = owner
                if "studies" in self.fields:
                    self.fields["studies"].queryset = services.selectable_studies(owner)

        return ScopedForm

    def save_model(self, request: HttpRequest, obj, form, change) -> None:
        user = staff_user(request)
        data = form.cleaned_data
        fields = {
            "url": data["url"],
            "study_ids": [s.pk for s in data["studies"]],
            "events": data["events"],
            "description": data["description"],
        }
        if change:
            services.update_endpoint(user, obj, is_active=data["is_active"], **fields)
            return
        endpoint, secret = services.register_endpoint(user, is_active=data["is_active"], **fields)
        obj.pk, obj.owner, obj.created_at = endpoint.pk, endpoint.owner, endpoint.created_at
        request._webhook_secret = secret  # type: ignore[attr-defined]  # for response_add only

    def save_related(self, request: HttpRequest, form, formsets, change) -> None:
        """The service has set the studies."""

    def delete_model(self, request: HttpRequest, obj) -> None:
        services.delete_endpoint(staff_user(request), obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        for endpoint in queryset:
            services.delete_endpoint(staff_user(request), endpoint)

    def response_add(self, request: HttpRequest, obj, post_url_continue=None) -> HttpResponse:
        """The one page that shows the secret: rendered here, not stored in a message or the
        session, and marked not to be cached."""
        secret = getattr(request, "_webhook_secret", None)
        if secret is None:
            return super().response_add(request, obj, post_url_continue)
        response = TemplateResponse(
            request,
            "webhooks/secret_once.html",
            {
                **self.admin_site.each_context(request),
                "title": "Webhook endpoint registered",
                "endpoint": obj,
                "secret": secret,
                "done_url": reverse("admin:webhooks_webhookendpoint_changelist"),
            },
        )
        response["Cache-Control"] = "no-store"
        return response


class AttemptInline(admin.TabularInline):
    model = WebhookAttempt
    fields = (
        "number",
        "replay",
        "started_at",
        "duration_ms",
        "status_code",
        "ok",
        "response_excerpt",
        "error",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "event_type",
        "event_id",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "created_at",
    ]
    list_filter = ["status", "event__event_type"]
    inlines = [AttemptInline]
    fields = (
        "event_type",
        "event_id",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "next_attempt_at",
        "finished_at",
        "created_at",
    )
    readonly_fields = fields
    change_form_template = "admin/webhooks/webhookdelivery/change_form.html"

    @admin.display(description="event")
    def event_type(self, obj: WebhookDelivery) -> str:
        return obj.event.event_type

    @admin.display(description="event id")
    def event_id(self, obj: WebhookDelivery) -> str:
        return obj.event.event_id

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        endpoints = services.visible_endpoints(staff_user(request))
        return WebhookDelivery.objects.filter(endpoint__in=endpoints).select_related(
            "event", "endpoint"
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_urls(self):
        replay = self.admin_site.admin_view(require_POST(self.replay_view))
        return [
            path("<path:object_id>/replay/", replay, name="webhooks_webhookdelivery_replay"),
            *super().get_urls(),
        ]

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        delivery = get_object_or_404(self.get_queryset(request), pk=object_id)
        try:
            services.replay_delivery(staff_user(request), delivery)
        except ServiceError as error:
            if error.code == "forbidden":
                raise PermissionDenied(error.message) from error
            messages.error(request, error.message)
        else:
            messages.success(request, "The delivery is being sent again.")
        return HttpResponseRedirect(
            reverse("admin:webhooks_webhookdelivery_change", args=[delivery.pk])
        )

    def change_view(self, request: HttpRequest, object_id: str, form_url="", extra_context=None):
        delivery = self.get_object(request, object_id)
        context = dict(extra_context or {})
        context["may_replay"] = delivery is not None and services.may_manage(
            staff_user(request), delivery.endpoint, "webhooks.change_webhookendpoint"
        )
        return super().change_view(request, object_id, form_url, context)
