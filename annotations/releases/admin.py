"""Releases in the admin: build (with a progress bar), watch, download, compare two releases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from annotations.models import Study
from annotations.qa.access import (
    has_perm_in_all,
    has_study_perm,
    limit_to_all_studies,
    limit_to_studies,
)
from annotations.releases.models import QaRule, Release, ReleaseState
from annotations.releases.services import (
    ReleaseError,
    check_release_request,
    compare_releases,
    create_release,
    enqueue_build,
    unreviewed_count,
)
from attune_collect.errors import add_to_form

_BUILD_FIELDS = [
    "name",
    "version",
    "studies",
    "completed_only",
    "qa_rule",
    "layer",
    "subsample_sizes",
    "subsample_seed",
    "license",
    "license_name",
    "description",
]
_RECORD_FIELDS = [
    "state",
    "progress_bar",
    "error",
    "counts",
    "manifest",
    "content_hash",
    "archive_sha256",
    "archive_bytes",
    "folder",
    "attempts",
    "created_by",
    "created_at",
    "build_started_at",
    "frozen_at",
]


class ReleaseForm(forms.ModelForm):
    """The build form: a request the service would refuse is shown on the form, on the field
    to change, before anything is written."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.instance.pk is None and not self.errors:  # the fields' own checks passed
            try:
                check_release_request(
                    name=cleaned["name"],
                    version=cleaned["version"],
                    studies=list(cleaned["studies"]),
                )
            except ReleaseError as exc:
                add_to_form(self, exc)
        return cleaned


@admin.register(Release)
class ReleaseAdmin(admin.ModelAdmin):
    form = ReleaseForm
    list_display = [
        "__str__",
        "state",
        "progress_bar",
        "conversation_count",
        "hash_short",
        "frozen_at",
        "download_link",
    ]
    list_filter = ["state", "name"]
    search_fields = ["name", "version", "content_hash"]
    filter_horizontal = ["studies"]
    actions = ["retry_build", "compare_selected"]
    change_form_template = "admin/releases/release/change_form.html"

    def get_fields(self, request, obj=None):
        return _BUILD_FIELDS if obj is None else _BUILD_FIELDS + _RECORD_FIELDS

    def get_readonly_fields(self, request, obj=None):
        # After creation nothing is edited here: builds go through the service, frozen rows never change.
        return [] if obj is None else _BUILD_FIELDS + _RECORD_FIELDS

    # -- study scope: a user limited to some studies sees, builds and downloads only releases
    # -- made of those studies (access.py, as on the QA pages) ---------------------------------

    def get_queryset(self, request: HttpRequest):
        return limit_to_all_studies(
            super().get_queryset(request), request.user, "releases.view_release", "studies"
        )

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "studies":
            kwargs["queryset"] = limit_to_studies(
                Study.objects.all(), request.user, "releases.build_release", "pk"
            )
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        # A release is for others to use: QA-approved conversations unless chosen otherwise.
        return {"qa_rule": QaRule.APPROVED, **super().get_changeform_initial_data(request)}

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        field = super().formfield_for_choice_field(db_field, request, **kwargs)
        if db_field.name == "qa_rule" and field is not None:  # None: no field for it
            studies = limit_to_studies(
                Study.objects.all(), request.user, "releases.build_release", "pk"
            )
            count = unreviewed_count(studies)
            field.help_text = (
                f"\u201c{QaRule.NON_EXCLUDED.label}\u201d would also include {count} completed "
                f"conversation{'s' if count != 1 else ''} that QA has not approved (in the studies "
                "you can build from)."
            )
        return field

    def has_add_permission(self, request: HttpRequest) -> bool:
        return has_study_perm(request.user, "releases.build_release")

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and obj.state == ReleaseState.FROZEN:
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change) -> None:
        if change:
            raise PermissionDenied("releases are not edited; build a new version")
        studies = list(form.cleaned_data["studies"])
        if not has_perm_in_all(request.user, "releases.build_release", [s.pk for s in studies]):
            raise PermissionDenied("you may not build releases of these studies")
        # The form asked the service's checks already; a refusal now (another request created
        # the version meanwhile) reaches add_view, which rolls back and says why.
        release = create_release(
            **{f: form.cleaned_data[f] for f in _BUILD_FIELDS if f != "studies"},
            studies=studies,
            actor=request.user,
        )
        obj.pk = release.pk
        enqueue_build(release, actor=request.user)
        messages.info(request, f"{release} is queued; this page shows the build's progress.")

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None):
        try:
            return super().add_view(request, form_url, extra_context)
        except ReleaseError as exc:  # left the admin's transaction: nothing was written
            messages.error(request, exc.message)
            return HttpResponseRedirect(request.get_full_path())

    @admin.display(description="progress")
    def progress_bar(self, obj: Release) -> str:
        return format_html(
            '<progress max="100" value="{}" aria-label="build progress">{}%</progress> {}/{}',
            obj.progress_percent,
            obj.progress_percent,
            obj.progress_done,
            obj.progress_total,
        )

    @admin.display(description="conversations")
    def conversation_count(self, obj: Release) -> int | str:
        return obj.counts.get("conversations", "-")

    @admin.display(description="content hash")
    def hash_short(self, obj: Release) -> str:
        return obj.content_hash[:12]

    @admin.display(description="download")
    def download_link(self, obj: Release) -> str:
        if obj.state != ReleaseState.FROZEN:
            return "-"
        url = reverse("admin:releases_release_download", args=[obj.pk])
        return format_html('<a href="{}">{}.tar.gz</a>', url, obj)

    @admin.action(description="Retry the build of the selected releases", permissions=["build"])
    def retry_build(self, request, queryset) -> None:
        for release in queryset:
            if not _release_allows(request, release, "releases.build_release"):
                messages.error(request, f"you may not build {release}")
                continue
            if release.state == ReleaseState.FROZEN:
                messages.warning(request, f"{release} is frozen and is never rebuilt")
                continue
            try:
                enqueue_build(release, actor=request.user)
            except ReleaseError as exc:  # a worker is building it: a retry would undo its work
                messages.warning(request, exc.message)
                continue
            messages.info(request, f"{release} queued again")

    def has_build_permission(self, request: HttpRequest) -> bool:
        return has_study_perm(request.user, "releases.build_release")

    @admin.action(description="Compare two selected frozen releases")
    def compare_selected(self, request, queryset) -> HttpResponse | None:
        chosen = sorted(queryset, key=lambda r: (r.name, r.version_tuple))
        if len(chosen) != 2:
            messages.error(request, "Select exactly two releases to compare.")
            return None
        return self._diff_response(request, chosen[0], chosen[1])

    def get_urls(self):
        return [
            path(
                "<int:pk>/download/",
                self.admin_site.admin_view(self.download_view),
                name="releases_release_download",
            ),
            path(
                "diff/<int:old>/<int:new>/",
                self.admin_site.admin_view(self.diff_view),
                name="releases_release_diff",
            ),
            *super().get_urls(),
        ]

    def download_view(self, request: HttpRequest, pk: int) -> FileResponse:
        if not has_study_perm(request.user, "releases.download_release"):
            raise PermissionDenied("you may not download releases")
        release = get_object_or_404(self.get_queryset(request), pk=pk, state=ReleaseState.FROZEN)
        if not _release_allows(request, release, "releases.download_release"):
            raise PermissionDenied("you may not download this release")
        archive = Path(release.folder).parent / f"{release.name}-{release.version}.tar.gz"
        if not archive.is_file():
            raise Http404("the archive is missing on this server")
        return FileResponse(archive.open("rb"), as_attachment=True, filename=archive.name)

    def diff_view(self, request: HttpRequest, old: int, new: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        releases = self.get_queryset(request)
        return self._diff_response(
            request, get_object_or_404(releases, pk=old), get_object_or_404(releases, pk=new)
        )

    def _diff_response(self, request: HttpRequest, old: Release, new: Release) -> HttpResponse:
        try:
            comparison = compare_releases(old, new)
        except ReleaseError as exc:
            messages.error(request, exc.message)
            return TemplateResponse(
                request,
                "admin/releases/release/diff.html",
                {**self.admin_site.each_context(request), "error": exc.message},
            )
        context = {
            **self.admin_site.each_context(request),
            "comparison": comparison,
            "title": f"{old} → {new}",
        }
        return TemplateResponse(request, "admin/releases/release/diff.html", context)


def _release_allows(request: HttpRequest, release: Release, perm: str) -> bool:
    study_ids = release.studies.values_list("pk", flat=True)
    return has_perm_in_all(request.user, perm, list(study_ids))
