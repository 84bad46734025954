"""Evaluation runs: list, estimate, start, progress, cancel, and the report as JSON."""

from __future__ import annotations

import json

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from evaluation.report_files import report_file
from researcher_api import access, selectors, services
from researcher_api.serializers import EstimateOutput, ReportOutput, RunCreateInput, RunOutput
from researcher_api.views.common import READ_ERRORS, TAG, WRITE_ERRORS, ResearcherView

VIEW_RUN = "evaluation.view_evaluationrun"


def _new_run(view: ResearcherView, request: Request) -> services.NewRun:
    data = RunCreateInput(data=request.data)
    data.is_valid(raise_exception=True)
    fields = data.validated_data
    return services.NewRun(
        release=selectors.release(view.token(), fields["release"]),
        models=fields["models"],
        judges=fields["judges"],
        modes=fields["modes"],
        subsample=fields["subsample"],
        seed=fields.get("seed"),
    )


class RunListView(ResearcherView):
    @extend_schema(
        operation_id="evaluations_list",
        tags=[TAG],
        responses={200: RunOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request) -> Response:
        access.require(self.token(), VIEW_RUN, None)
        return Response(RunOutput(selectors.runs(self.token()).order_by("-pk"), many=True).data)

    @extend_schema(
        operation_id="evaluations_start",
        tags=[TAG],
        request=RunCreateInput,
        responses={202: RunOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        run = services.start_evaluation(self.token(), _new_run(self, request))
        return Response(RunOutput(run).data, status=202)


class RunEstimateView(ResearcherView):
    @extend_schema(
        operation_id="evaluations_estimate",
        tags=[TAG],
        request=RunCreateInput,
        responses={200: EstimateOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        plan = services.plan(self.token(), _new_run(self, request))
        body = {
            "units": plan.units,
            "calls": plan.calls,
            "cost_usd": plan.estimate.cost_usd,
            "estimate": plan.estimate.to_json(),
        }
        return Response(EstimateOutput(body).data)


class RunDetailView(ResearcherView):
    @extend_schema(
        operation_id="evaluations_read", tags=[TAG], responses={200: RunOutput, **READ_ERRORS}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(RunOutput(selectors.run(self.token(), pk)).data)


class RunCancelView(ResearcherView):
    @extend_schema(
        operation_id="evaluations_cancel",
        tags=[TAG],
        request=None,
        responses={200: RunOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        run = services.cancel_evaluation(self.token(), selectors.run(self.token(), pk))
        return Response(RunOutput(run).data)


class RunReportView(ResearcherView):
    @extend_schema(
        operation_id="evaluations_report", tags=[TAG], responses={200: ReportOutput, **READ_ERRORS}
    )
    def get(self, request: Request, pk: int) -> Response:
        run = selectors.run(self.token(), pk)
        access.require_all(
            self.token(), "evaluation.view_report", services.release_study_ids(run.release)
        )
        path = report_file(run, "report.json")
        if path is None:
            raise Http404("This run has no report (yet) on this server.")
        return Response(ReportOutput({"run": run.pk, "report": json.loads(path.read_text())}).data)
