"""Evaluation runs in the admin: start (form, then a confirmation with calls and cost), watch,
cancel, resume, read the report and download its folder, and look at a finished run turn by turn.

Views only parse and authorise; every change goes through ``evaluation/services``. Pages refresh
themselves with ``<meta http-equiv="refresh">`` while a run is active (the CSP allows no inline
scripts). Starting, cancelling and resuming need ``evaluation.start_evaluation``; the report
and its files, and the per-turn view, need ``evaluation.view_report``.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from annotations.qa.access import has_perm_in_all, has_study_perm, limit_to_all_studies
from annotations.releases.models import Release
from annotations.staff import staff_user
from attune_collect.errors import add_to_form
from evaluation.forms import StartRunForm, TurnViewForm
from evaluation.models import EvaluationRun, EvaluationUnit, RunStatus
from evaluation.progress import format_duration, time_left_s
from evaluation.report_files import content_type, report_file, report_summary, report_zip
from evaluation.services.control import can_resume, cancel_run, resume_run
from evaluation.services.creation import create_run
from evaluation.services.errors import EvaluationError
from evaluation.services.leaderboard import finished_runs, release_boards
from evaluation.services.planning import plan_run
from evaluation.services.turn_marks import AXIS_LABELS, MARKED_AXES
from evaluation.services.turn_view import Selection, conversation_page, conversation_rows

START = "evaluation.start_evaluation"
VIEW_REPORT = "evaluation.view_report"
_RUN_FIELDS = (
    "release",
    "release_hash",
    "models_under_test",
    "judges",
    "modes",
    "panas_strategy",
    "subsample",
    "prompt_set",
    "prompt_version",
    "seed",
    "statistics_options",
    "configurations",
    "inline",
    "status",
    "units_total",
    "units_done",
    "units_failed",
    "calls_made",
    "calls_cached",
    "call_errors",
    "cost_usd",
    "estimated_calls",
    "estimated_cost_usd",
    "estimate",
    "error",
    "report_folder",
    "created_by",
    "created_via",
    "created_at",
    "started_at",
    "finished_at",
)


@admin.register(EvaluationRun)
class EvaluationRunAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "progress", "calls", "cost", "created_at", "report_link"]
    list_filter = ["status", ("release", admin.RelatedOnlyFieldListFilter)]
    readonly_fields = _RUN_FIELDS
    fields = _RUN_FIELDS
    change_form_template = "admin/evaluation/evaluationrun/change_form.html"
    actions = ["cancel_selected", "resume_selected"]

    # -- permissions: runs change only through the services ------------------------------------

    # A user limited to some studies sees only runs over releases made of those studies.

    def get_queryset(self, request: HttpRequest):
        return limit_to_all_studies(
            super().get_queryset(request),
            request.user,
            "evaluation.view_evaluationrun",
            "release__studies",
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return has_study_perm(request.user, START)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_start_permission(self, request: HttpRequest) -> bool:
        return has_study_perm(request.user, START)

    # -- list columns --------------------------------------------------------------------------

    @admin.display(description="units")
    def progress(self, run: EvaluationRun) -> str:
        return format_html(
            '<progress max="100" value="{}">{}%</progress> {}/{} ({} failed)',
            run.progress_percent,
            run.progress_percent,
            run.units_done,
            run.units_total,
            run.units_failed,
        )

    @admin.display(description="calls made / cached")
    def calls(self, run: EvaluationRun) -> str:
        return f"{run.calls_made} / {run.calls_cached}"

    @admin.display(description="cost")
    def cost(self, run: EvaluationRun) -> str:
        return f"${run.cost_usd:.4f}"

    @admin.display(description="report")
    def report_link(self, run: EvaluationRun) -> str:
        if not run.report_folder or run.status != "completed":
            return "-"
        return format_html('<a href="{}">report</a>', self._admin_url("report", run.pk))

    # -- pages ---------------------------------------------------------------------------------

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/cancel/", view(self.cancel_view), name="evaluation_run_cancel"),
            path("<int:pk>/resume/", view(self.resume_view), name="evaluation_run_resume"),
            path("<int:pk>/report/", view(self.report_view), name="evaluation_run_report"),
            path(
                "<int:pk>/report/download/",
                view(self.download_view),
                name="evaluation_run_download",
            ),
            path("<int:pk>/turns/", view(self.turns_view), name="evaluation_run_turns"),
            path(
                "leaderboard/<int:release_pk>/",
                view(self.leaderboard_view),
                name="evaluation_release_leaderboard",
            ),
            path(
                "<int:pk>/turns/<str:conversation_id>/",
                view(self.conversation_turns_view),
                name="evaluation_run_conversation_turns",
            ),
            path(
                "<int:pk>/report/files/<path:name>",
                view(self.file_view),
                name="evaluation_run_file",
            ),
            *super().get_urls(),
        ]

    def _admin_url(self, name: str, *args) -> str:
        return reverse(f"admin:evaluation_run_{name}", args=args)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None):
        """Step 1: the form. Step 2 (``_plan``): the plan to confirm. Step 3 (``_confirm``):
        the run is created. ``_edit`` goes back to the form with the choices kept."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = StartRunForm(request.POST or None, user=request.user)
        context = {**self.admin_site.each_context(request), "opts": self.opts, "form": form}
        if request.method == "POST" and "_edit" not in request.POST and form.is_valid():
            try:
                plan = plan_run(form.to_request())
            except EvaluationError as exc:
                add_to_form(form, exc)
            else:
                if "_confirm" in request.POST:
                    run = create_run(plan.request, actor=staff_user(request), plan=plan)
                    messages.success(request, f"{run} is queued: this page follows its progress.")
                    return HttpResponseRedirect(
                        reverse("admin:evaluation_evaluationrun_change", args=[run.pk])
                    )
                context.update(plan=plan, title="Confirm the evaluation run")
                return TemplateResponse(
                    request, "admin/evaluation/evaluationrun/confirm.html", context
                )
        context["title"] = "Start an evaluation run"
        return TemplateResponse(request, "admin/evaluation/evaluationrun/start.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        run = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if run is not None:
            extra.update(
                run=run,
                time_left=format_duration(time_left_s(run)),
                can_start=_run_allows(request, run, START),
                can_cancel=run.status in ("queued", "running"),
                can_resume=can_resume(run),
                can_view_report=_run_allows(request, run, VIEW_REPORT)
                and run.status == "completed",
                units_url=reverse("admin:evaluation_evaluationunit_changelist")
                + f"?run__id__exact={run.pk}",
            )
        return super().change_view(request, object_id, form_url, extra)

    def cancel_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._control(request, pk, cancel_run, "cancelled")

    def resume_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._control(request, pk, resume_run, "resumed")

    @staticmethod
    def _post_only(request: HttpRequest) -> None:
        if request.method != "POST":
            raise PermissionDenied("use the buttons on the run's page")

    def _control(self, request: HttpRequest, pk: int, service, done: str) -> HttpResponse:
        self._post_only(request)
        if not has_study_perm(request.user, START):
            raise PermissionDenied("you may not start, cancel or resume evaluation runs")
        run = get_object_or_404(self.get_queryset(request), pk=pk)
        if not _run_allows(request, run, START):
            raise PermissionDenied("you may not control runs over these studies")
        _apply(request, run, service, done)
        return HttpResponseRedirect(reverse("admin:evaluation_evaluationrun_change", args=[pk]))

    def _report_run(self, request: HttpRequest, pk: int) -> EvaluationRun:
        if not has_study_perm(request.user, VIEW_REPORT):
            raise PermissionDenied("you may not view evaluation reports")
        run = get_object_or_404(self.get_queryset(request), pk=pk)
        if not _run_allows(request, run, VIEW_REPORT):
            raise PermissionDenied("you may not view reports over these studies")
        return run

    def report_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        run = self._report_run(request, pk)
        summary = report_summary(run)
        if summary is None:
            raise Http404("this run has no report (yet) on this server")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "run": run,
            "summary": summary,
            "title": f"Report of {run}",
        }
        return TemplateResponse(request, "admin/evaluation/evaluationrun/report.html", context)

    # -- the standing leaderboard of a release: the report's permission, over its studies ------

    def leaderboard_view(self, request: HttpRequest, release_pk: int) -> HttpResponse:
        if not has_study_perm(request.user, VIEW_REPORT):
            raise PermissionDenied("you may not view evaluation reports")
        release = get_object_or_404(Release, pk=release_pk)
        if not has_perm_in_all(
            request.user, VIEW_REPORT, list(release.studies.values_list("pk", flat=True))
        ):
            raise PermissionDenied("you may not view reports over these studies")
        runs = finished_runs(release, self.get_queryset(request).filter(release=release))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "release": release,
            "boards": release_boards(release, runs),
            "title": f"Leaderboard of {release}",
        }
        return TemplateResponse(request, "admin/evaluation/evaluationrun/leaderboard.html", context)

    # -- the per-turn view: the report's permission, over a finished run ------------------------

    def _turn_choices(
        self, request: HttpRequest, pk: int
    ) -> tuple[EvaluationRun, TurnViewForm, Selection | None]:
        run = self._report_run(request, pk)
        if run.status != RunStatus.COMPLETED:
            raise Http404("this run has not finished: its turns are shown once it has")
        form = TurnViewForm(request.GET or None, run=run)
        if not form.is_bound:
            return run, form, form.selection()
        if not form.is_valid():
            return run, form, None
        try:
            return run, form, form.selection()
        except EvaluationError as exc:
            add_to_form(form, exc)
            return run, form, None

    def _turn_page(self, request, run, form, selection, template: str, **extra) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "run": run,
            "form": form,
            "selection": selection,
            "query": request.GET.urlencode(),
            **extra,
        }
        return TemplateResponse(
            request,
            f"admin/evaluation/evaluationrun/{template}",
            context,
            status=200 if selection is not None else 400,
        )

    def turns_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        run, form, selection = self._turn_choices(request, pk)
        rows = conversation_rows(run, selection) if selection is not None else []
        return self._turn_page(
            request,
            run,
            form,
            selection,
            "turns.html",
            rows=rows,
            axes=[AXIS_LABELS[axis] for axis in MARKED_AXES],
            title=f"Turns of {run}",
        )

    def conversation_turns_view(
        self, request: HttpRequest, pk: int, conversation_id: str
    ) -> HttpResponse:
        run, form, selection = self._turn_choices(request, pk)
        page = None
        if selection is not None:
            page = conversation_page(run, conversation_id, selection)
            if page is None:
                raise Http404("no model of this run answered that conversation in this mode")
        return self._turn_page(
            request,
            run,
            form,
            selection,
            "conversation_turns.html",
            page=page,
            axes=[AXIS_LABELS[axis] for axis in MARKED_AXES],
            conversation_id=conversation_id,
            title=f"Conversation {conversation_id} of {run}",
        )

    def file_view(self, request: HttpRequest, pk: int, name: str) -> FileResponse:
        path = report_file(self._report_run(request, pk), name)
        if path is None:
            raise Http404("no such report file")
        return FileResponse(path.open("rb"), content_type=content_type(path))

    def download_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        run = self._report_run(request, pk)
        try:
            data = report_zip(run)
        except FileNotFoundError:
            raise Http404("this run has no report (yet) on this server") from None
        response = HttpResponse(data, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="evaluation-run-{pk}.zip"'
        return response

    # -- list actions --------------------------------------------------------------------------

    @admin.action(description="Cancel the selected runs", permissions=["start"])
    def cancel_selected(self, request: HttpRequest, queryset) -> None:
        self._each(request, queryset, cancel_run, "cancelled")

    @admin.action(description="Resume the selected runs", permissions=["start"])
    def resume_selected(self, request: HttpRequest, queryset) -> None:
        self._each(request, queryset, resume_run, "resumed")

    def _each(self, request: HttpRequest, queryset, service, done: str) -> None:
        for run in queryset:
            if not _run_allows(request, run, START):
                messages.error(request, f"you may not control {run}")
                continue
            _apply(request, run, service, done)


def _run_allows(request: HttpRequest, run: EvaluationRun, perm: str) -> bool:
    """``perm`` in every study of the run's release (the QA pages' study scope)."""
    study_ids = run.release.studies.values_list("pk", flat=True)
    return has_perm_in_all(request.user, perm, list(study_ids))


def _apply(request: HttpRequest, run: EvaluationRun, service, done: str) -> None:
    """Call a control service for the user; its refusal becomes the message shown."""
    try:
        service(run, actor=staff_user(request))
    except EvaluationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{run} {done}.")


@admin.register(EvaluationUnit)
class EvaluationUnitAdmin(admin.ModelAdmin):
    """Read-only: units change only through the workers' services."""

    list_display = [
        "pk",
        "run",
        "endpoint",
        "conversation_id",
        "mode",
        "status",
        "attempts",
        "calls_made",
        "calls_cached",
        "duration_s",
        "worker",
        "error",
    ]
    list_filter = ["status", "mode", ("run", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["run__release", "endpoint"]
    search_fields = ["conversation_id", "worker", "error"]
    exclude = ["output"]  # big; it is part of the report's scores

    def get_queryset(self, request: HttpRequest):
        return limit_to_all_studies(
            super().get_queryset(request),
            request.user,
            "evaluation.view_evaluationunit",
            "run__release__studies",
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
