"""Releases: list, build, status, manifest, and the archive with its SHA-256."""

from __future__ import annotations

from pathlib import Path

from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.models import Study
from annotations.releases.models import ReleaseState
from evaluation.services.leaderboard import board_as_dict, finished_runs, release_boards
from researcher_api import access, selectors, services
from researcher_api.serializers import (
    LeaderboardOutput,
    ManifestOutput,
    ReleaseCreateInput,
    ReleaseOutput,
)
from researcher_api.views.common import READ_ERRORS, TAG, WRITE_ERRORS, ResearcherView

VIEW_RELEASE = "releases.view_release"
CHECKSUM_HEADER = "X-Checksum-SHA256"


class ReleaseListView(ResearcherView):
    @extend_schema(
        operation_id="releases_list",
        tags=[TAG],
        responses={200: ReleaseOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request) -> Response:
        access.require(self.token(), VIEW_RELEASE, None)
        releases = selectors.releases(self.token()).prefetch_related("studies").order_by("-pk")
        return Response(ReleaseOutput(releases, many=True).data)

    @extend_schema(
        operation_id="releases_build",
        tags=[TAG],
        request=ReleaseCreateInput,
        responses={202: ReleaseOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = ReleaseCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        slugs = list(dict.fromkeys(fields["studies"]))
        studies = list(
            Study.objects.filter(pk__in=access.visible_study_ids(self.token()), slug__in=slugs)
        )
        if len(studies) != len(slugs):
            raise Http404("A study of this release is not one of this token's.")
        release = services.build_release(
            self.token(),
            services.NewRelease(
                name=fields["name"],
                version=fields["version"],
                studies=studies,
                qa_rule=fields.get("qa_rule"),
                completed_only=fields["completed_only"],
                subsample_sizes=fields.get("subsample_sizes"),
                description=fields["description"],
            ),
        )
        return Response(ReleaseOutput(release).data, status=202)


class ReleaseDetailView(ResearcherView):
    @extend_schema(
        operation_id="releases_read", tags=[TAG], responses={200: ReleaseOutput, **READ_ERRORS}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(ReleaseOutput(selectors.release(self.token(), pk)).data)


class ReleaseManifestView(ResearcherView):
    @extend_schema(
        operation_id="releases_manifest", tags=[TAG], responses={200: ManifestOutput, **READ_ERRORS}
    )
    def get(self, request: Request, pk: int) -> Response:
        release = selectors.release(self.token(), pk)
        if release.state != ReleaseState.FROZEN:
            raise Http404("The release is not frozen yet: it has no manifest.")
        body = {
            "release": release.pk,
            "content_hash": release.content_hash,
            "manifest": release.manifest,
        }
        return Response(ManifestOutput(body).data)


class ReleaseDownloadView(ResearcherView):
    @extend_schema(
        operation_id="releases_download",
        tags=[TAG],
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description=f"The release's .tar.gz; its SHA-256 in the {CHECKSUM_HEADER} header "
                "and in the release's archive_sha256.",
            ),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> FileResponse:
        release = selectors.release(self.token(), pk)
        access.require_all(
            self.token(), "releases.download_release", services.release_study_ids(release)
        )
        if release.state != ReleaseState.FROZEN:
            raise Http404("The release is not frozen yet: nothing to download.")
        archive = Path(release.folder).parent / f"{release.name}-{release.version}.tar.gz"
        if not archive.is_file():
            raise Http404("The archive is missing on this server.")
        response = FileResponse(
            archive.open("rb"),
            as_attachment=True,
            filename=archive.name,
            content_type="application/octet-stream",  # the schema's (the generated client reads it)
        )
        response[CHECKSUM_HEADER] = release.archive_sha256
        return response


class ReleaseLeaderboardView(ResearcherView):
    """The release's standing leaderboard: one board per group of comparable finished runs the
    token may see (the admin's, in JSON); empty while no run has finished."""

    @extend_schema(
        operation_id="releases_leaderboard",
        tags=[TAG],
        responses={200: LeaderboardOutput, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        release = selectors.release(self.token(), pk)
        access.require_all(
            self.token(), "evaluation.view_report", services.release_study_ids(release)
        )
        runs = finished_runs(release, selectors.runs(self.token()).filter(release=release))
        boards = [board_as_dict(board) for board in release_boards(release, runs)]
        return Response(LeaderboardOutput({"release": release.pk, "boards": boards}).data)
