"""The admin side of study setup: Study, ModelEndpoint and Instrument save and delete through
the one write path (services/setup.py) and show their audit history on their page.

``write_setup`` and ``remove_setup`` are the calls into that path; the study scope
(annotations/qa/admin.py) overrides them for studies and endpoints with the services that
first authorise the user in their studies (annotations/qa/services/scoped_setup.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from annotations.services.setup import delete_setup, frozen_fields, save_setup, setup_history
from annotations.staff import staff_user

if TYPE_CHECKING:  # the mixin's methods call the ModelAdmin's it comes before
    _ModelAdmin = admin.ModelAdmin
else:
    _ModelAdmin = object


class SetupAdminMixin(_ModelAdmin):
    """Saves go through ``save_setup`` (validate, write, audit before/after); fields that data
    depends on are read-only; the page lists the object's audit history."""

    def save_model(self, request: HttpRequest, obj, form, change: bool) -> None:
        pass  # saved with its many-to-many fields in save_related, in one service call

    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        many = {
            f.name: form.cleaned_data[f.name]
            for f in form.instance._meta.many_to_many
            if f.name in form.cleaned_data
        }
        self.write_setup(request, form.instance, many)
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def write_setup(self, request: HttpRequest, obj, many_to_many: dict) -> None:
        save_setup(obj, actor=staff_user(request), many_to_many=many_to_many)

    def remove_setup(self, request: HttpRequest, obj) -> None:
        delete_setup(obj, actor=staff_user(request))

    def delete_model(self, request: HttpRequest, obj) -> None:
        self.remove_setup(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        # The list's "delete selected" action asks has_delete_permission without an object:
        # each row is authorised (and audited) on its own, all or none deleted.
        with transaction.atomic():
            for obj in queryset:
                self.remove_setup(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields += [name for name in frozen_fields(obj) if name not in fields]
        return [*fields, "setup_history"]

    @admin.display(description="history (audit log)")
    def setup_history(self, obj) -> str:
        entries = setup_history(obj)
        if not entries:
            return "-"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            (
                (
                    e.created_at.strftime("%Y-%m-%d %H:%M:%S"),
                    e.actor_label,
                    e.action,
                    json.dumps(e.data.get("changes", e.data), ensure_ascii=False, sort_keys=True),
                )
                for e in entries
            ),
        )
        return format_html(
            "<table><tr><th>when</th><th>who</th><th>what</th><th>changes (before, after)</th>"
            "</tr>{}</table>",
            rows,
        )
