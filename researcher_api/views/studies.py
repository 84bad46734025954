"""Studies: list, detail, create (from a template or a copy), pause and resume, the monitor,
participants, conversations (message content only with the export permission), QA progress."""

from __future__ import annotations

from django.db.models import Count, Q
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from annotations.models import Study
from annotations.qa.monitoring import monitoring_tables
from researcher_api import access, selectors, services
from researcher_api.serializers import (
    ConversationOutput,
    MessageOutput,
    MonitorOutput,
    ParticipantOutput,
    QaSummaryOutput,
    StudyCreateInput,
    StudyOutput,
)
from researcher_api.views.common import READ_ERRORS, TAG, WRITE_ERRORS, ResearcherView

VIEW_STUDY = "annotations.view_study"


def _counted(queryset):
    return queryset.annotate(
        participant_count=Count(
            "participants", filter=Q(participants__is_preview=False), distinct=True
        ),
        conversation_count=Count(
            "conversations", filter=Q(conversations__participant__is_preview=False), distinct=True
        ),
    ).order_by("slug")


class StudyListView(ResearcherView):
    @extend_schema(
        operation_id="studies_list",
        tags=[TAG],
        responses={200: StudyOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request) -> Response:
        access.require(self.token(), VIEW_STUDY, None)
        return Response(StudyOutput(_counted(selectors.studies(self.token())), many=True).data)

    @extend_schema(
        operation_id="studies_create",
        tags=[TAG],
        request=StudyCreateInput,
        responses={201: StudyOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = StudyCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        copy_of = fields.get("copy_of")
        source = None if not copy_of else selectors.study(self.token(), copy_of, VIEW_STUDY)
        study = services.create_study(
            self.token(),
            services.NewStudy(
                slug=fields["slug"],
                title=fields["title"],
                template=fields["template"],
                copy_of=source,
            ),
        )
        return Response(
            StudyOutput(_counted(Study.objects.filter(pk=study.pk)).get()).data, status=201
        )


class StudyDetailView(ResearcherView):
    @extend_schema(
        operation_id="studies_read", tags=[TAG], responses={200: StudyOutput, **READ_ERRORS}
    )
    def get(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, VIEW_STUDY)
        return Response(StudyOutput(_counted(Study.objects.filter(pk=study.pk)).get()).data)


class StudyPauseView(ResearcherView):
    paused = True

    @extend_schema(
        operation_id="studies_pause",
        tags=[TAG],
        request=None,
        responses={200: StudyOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, VIEW_STUDY)
        study = services.set_paused(self.token(), study, paused=self.paused)
        return Response(StudyOutput(_counted(Study.objects.filter(pk=study.pk)).get()).data)


class StudyResumeView(StudyPauseView):
    paused = False

    @extend_schema(
        operation_id="studies_resume",
        tags=[TAG],
        request=None,
        responses={200: StudyOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        return super().post(request, slug)


class StudyMonitorView(ResearcherView):
    @extend_schema(
        operation_id="studies_monitor", tags=[TAG], responses={200: MonitorOutput, **READ_ERRORS}
    )
    def get(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, "qa.view_monitoring")
        tables = [
            {
                "name": t.name,
                "title": t.title,
                "columns": list(t.columns),
                "rows": [list(r) for r in t.rows],
            }
            for t in monitoring_tables(study).values()
        ]
        return Response(MonitorOutput({"study": study.slug, "tables": tables}).data)


class StudyParticipantsView(ResearcherView):
    @extend_schema(
        operation_id="studies_participants",
        tags=[TAG],
        responses={200: ParticipantOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, "annotations.view_participant")
        return Response(ParticipantOutput(selectors.participants(study), many=True).data)


class StudyConversationsView(ResearcherView):
    @extend_schema(
        operation_id="studies_conversations",
        tags=[TAG],
        responses={200: ConversationOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, "annotations.view_conversation")
        rows = selectors.conversations(study)
        return Response(ConversationOutput(rows, many=True).data)


class ConversationMessagesView(ResearcherView):
    @extend_schema(
        operation_id="studies_conversation_messages",
        tags=[TAG],
        responses={200: MessageOutput(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str, pk: int) -> Response:
        # What participants wrote: only with the export permission, as the QA pages' exports.
        study = selectors.study(self.token(), slug, "qa.export_data")
        conversation = selectors.conversation(study, pk)
        return Response(MessageOutput(selectors.messages(conversation), many=True).data)


class StudyQaView(ResearcherView):
    @extend_schema(
        operation_id="studies_qa", tags=[TAG], responses={200: QaSummaryOutput, **READ_ERRORS}
    )
    def get(self, request: Request, slug: str) -> Response:
        study = selectors.study(self.token(), slug, "qa.view_conversationreview")
        return Response(QaSummaryOutput(selectors.qa_summary(study)).data)
