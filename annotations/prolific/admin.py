"""The admin's Prolific page of a study: places held, freed and remaining; sync now; approve
(and reject with a typed reason); the bonus table, then pay. Every button is a POST that a
researcher of the study may send (``access.require_operator``); the work itself is the
services' (intents recorded here, sent by the ``prolific.settle`` task)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from annotations import dispatch
from annotations.models import BonusBatch, Participant, ProlificLink, ReviewDecision
from annotations.prolific.access import may_operate, require_operator
from annotations.prolific.bonuses import bonus_table, intend_bonuses
from annotations.prolific.controls import set_recruiting
from annotations.prolific.review import (
    ProlificRefused,
    approval_candidates,
    intend_approvals,
    intend_rejection,
)
from annotations.prolific.setup import save_link
from annotations.qa.access import study_scope
from annotations.services.places import place_counts
from annotations.services.quotas import stratum_counts
from annotations.staff import staff_user
from attune_collect.prolific.client import (
    MIN_REJECTION_MESSAGE,
    REJECTION_CATEGORIES,
    ProlificError,
)


class RejectForm(forms.Form):
    participant = forms.CharField(help_text="The participant's pseudonym.")
    rejection_category = forms.ChoiceField(choices=[(c, c) for c in REJECTION_CATEGORIES])
    message = forms.CharField(
        widget=forms.Textarea,
        min_length=MIN_REJECTION_MESSAGE,
        help_text=f"Sent to the participant; at least {MIN_REJECTION_MESSAGE} characters.",
    )


class ProlificLinkAdmin(admin.ModelAdmin):
    list_display = ["study", "prolific_study_id", "token_env", "last_synced_at", "operate_link"]
    readonly_fields = ["last_synced_at"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("study")
        allowed = study_scope(request.user).study_ids
        return queryset if allowed is None else queryset.filter(study_id__in=allowed)

    def save_model(self, request, obj, form, change) -> None:
        save_link(obj, actor=staff_user(request))

    @admin.display(description="run")
    def operate_link(self, obj: ProlificLink) -> str:
        url = reverse("admin:annotations_prolificlink_operate", args=[obj.pk])
        return format_html('<a href="{}">sync, review and pay</a>', url)

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/operate/",
                view(self.operate_view),
                name="annotations_prolificlink_operate",
            ),
            path("<int:pk>/sync/", view(self.sync_view), name="annotations_prolificlink_sync"),
            path(
                "<int:pk>/approve/",
                view(self.approve_view),
                name="annotations_prolificlink_approve",
            ),
            path(
                "<int:pk>/reject/", view(self.reject_view), name="annotations_prolificlink_reject"
            ),
            path("<int:pk>/pay/", view(self.pay_view), name="annotations_prolificlink_pay"),
            path(
                "<int:pk>/recruiting/",
                view(self.recruiting_view),
                name="annotations_prolificlink_recruiting",
            ),
            *super().get_urls(),
        ]

    def _link(self, request: HttpRequest, pk: int) -> ProlificLink:
        link = get_object_or_404(ProlificLink.objects.select_related("study"), pk=pk)
        require_operator(request.user, link.study_id)
        return link

    def _back(self, link: ProlificLink) -> HttpResponse:
        return HttpResponseRedirect(
            reverse("admin:annotations_prolificlink_operate", args=[link.pk])
        )

    def operate_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link(request, pk)
        rows = bonus_table(link)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Prolific: {link.study}",
            "link": link,
            "places": place_counts(link.study),
            "strata": stratum_counts(link.study),
            "candidates": approval_candidates(link),
            "decisions": ReviewDecision.objects.filter(link=link).order_by("-pk")[:50],
            "bonus_rows": rows,
            "bonus_total": sum(row.amount_cents for row in rows),
            "batches": BonusBatch.objects.filter(link=link).order_by("-pk")[:20],
            "reject_form": RejectForm(),
        }
        return TemplateResponse(request, "admin/annotations/prolificlink/operate.html", context)

    def sync_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link_of_post(request, pk)
        dispatch.prolific_sync(link.pk)
        messages.info(request, "Sync asked for: the page shows its result in a moment.")
        return self._back(link)

    def approve_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link_of_post(request, pk)
        made = intend_approvals(link, actor=staff_user(request))
        dispatch.prolific_settle(link.pk)
        messages.info(request, f"{made} approvals recorded; they are being sent to Prolific.")
        return self._back(link)

    def reject_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link_of_post(request, pk)
        form = RejectForm(request.POST)
        if not form.is_valid():
            messages.error(
                request,
                "Not rejected: "
                + "; ".join(
                    f"{field}: {' '.join(str(e) for e in errors)}"
                    for field, errors in form.errors.items()
                ),
            )
            return self._back(link)
        participant = Participant.objects.filter(
            study=link.study, pseudonym=form.cleaned_data["participant"]
        ).first()
        if participant is None:
            messages.error(request, "Not rejected: no such participant in this study.")
            return self._back(link)
        try:
            made = intend_rejection(
                link,
                participant,
                message=form.cleaned_data["message"],
                category=form.cleaned_data["rejection_category"],
                actor=staff_user(request),
            )
        except ProlificRefused as error:
            messages.error(request, f"Not rejected: {error}")
            return self._back(link)
        dispatch.prolific_settle(link.pk)
        messages.info(request, "Rejection recorded." if made else "Already decided.")
        return self._back(link)

    def pay_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link_of_post(request, pk)
        try:
            expected = int(request.POST.get("expected_total_cents", ""))
            intend_bonuses(link, actor=staff_user(request), expected_total_cents=expected)
        except ValueError:
            messages.error(request, "Not paid: the total shown is missing.")
            return self._back(link)
        except ProlificRefused as error:
            messages.error(request, f"Not paid: {error}")
            return self._back(link)
        dispatch.prolific_settle(link.pk)
        messages.info(request, "Bonuses recorded; they are being paid once on Prolific.")
        return self._back(link)

    def recruiting_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        link = self._link_of_post(request, pk)
        action = request.POST.get("action", "")
        if action not in ("PAUSE", "START"):
            messages.error(request, "Choose pause or resume.")
            return self._back(link)
        try:
            set_recruiting(link, action, actor=staff_user(request))
        except ProlificError as error:
            messages.error(request, f"Prolific refused: {error}")
            return self._back(link)
        messages.info(
            request, "Paused on Prolific." if action == "PAUSE" else "Resumed on Prolific."
        )
        return self._back(link)

    def _link_of_post(self, request: HttpRequest, pk: int) -> ProlificLink:
        if request.method != "POST":
            raise Http404("POST only")
        return self._link(request, pk)


admin.site.register(ProlificLink, ProlificLinkAdmin)

__all__ = ["ProlificLinkAdmin", "may_operate"]
