"""The participant API's request/response endpoints (the streaming chat is in streaming.py).

Views parse and authorise; every write goes through one service function. Every step answers
with the whole session (``SessionOutput``), so the app can always render what comes next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from annotations.models import PanasPhase, Participant
from annotations.participant_api import reply_messages
from annotations.participant_api import serializers as io
from annotations.participant_api.auth import (
    IsParticipant,
    ParticipantPrincipal,
    ParticipantTokenAuthentication,
    token_from_header,
)
from annotations.participant_api.db import on_db_pool, write
from annotations.participant_api.errors import participant_exception_handler
from annotations.participant_api.json_limits import BoundedJSONParser, parse_body, represent
from annotations.participant_api.throttling import (
    ClientErrorBudgetThrottle,
    ClientErrorRateThrottle,
    ParticipantRateThrottle,
    StartRateThrottle,
    StudyStartBudgetThrottle,
)
from annotations.services import (
    annotation_flow,
    chat,
    client_errors,
    comprehension,
    drafts,
    languages,
    participants,
    progress,
    surveys,
)
from annotations.services.errors import FlowError
from annotations.services.participants import current_conversation
from annotations.services.start_refusals import RefusalReason, count_refused_start

ERRORS = {
    400: OpenApiResponse(io.ErrorOutput, description="invalid: error.field names the input"),
    401: OpenApiResponse(io.ErrorOutput, description="unauthenticated"),
    403: OpenApiResponse(io.ErrorOutput, description="withdrawn or screened_out"),
    409: OpenApiResponse(
        io.ErrorOutput, description="the step is not open now (error.code says why)"
    ),
    429: OpenApiResponse(io.ErrorOutput, description="rate_limited (Retry-After header)"),
}
SESSION_RESPONSES = {200: io.SessionOutput, **ERRORS}


class _ParticipantAPIView(APIView):
    """JSON only, one error shape, throttled; subclasses pick authentication. Served on the
    participant API's database thread pool (``db.on_db_pool``)."""

    parser_classes = [BoundedJSONParser]

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return on_db_pool(super().as_view(**initkwargs))

    def get_exception_handler(self):
        return participant_exception_handler

    def parsed(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        return parse_body(serializer_class, self.request.data)

    @staticmethod
    def session_response(participant: Participant, code: int = status.HTTP_200_OK) -> Response:
        # Read again: the service may have changed the participant (consent, screen-out...).
        fresh = Participant.objects.select_related("study").get(pk=participant.pk)
        return Response(represent(io.SessionOutput, progress.progress_of(fresh)), status=code)


class ParticipantView(_ParticipantAPIView):
    """A call made with a participant session token. Once the participant has withdrawn, the
    token reads nothing: only the views marked ``open_after_withdrawal`` answer."""

    authentication_classes = [ParticipantTokenAuthentication]
    permission_classes = [IsParticipant]
    throttle_classes = [ParticipantRateThrottle]
    open_after_withdrawal = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if self.participant.withdrawn and not self.open_after_withdrawal:
            raise FlowError("withdrawn", "You have withdrawn from this study.")

    @property
    def participant(self) -> Participant:
        user = self.request.user
        assert isinstance(user, ParticipantPrincipal)  # guaranteed by IsParticipant
        return user.participant


class StartView(_ParticipantAPIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    # The address's limit first, then the study's budget (every address together).
    throttle_classes = [StartRateThrottle, StudyStartBudgetThrottle]
    _refusal_reasons: dict[type, RefusalReason] = {
        StartRateThrottle: RefusalReason.ADDRESS_LIMIT,
        StudyStartBudgetThrottle: RefusalReason.STUDY_BUDGET,
    }

    def check_throttles(self, request: Request) -> None:
        # The first refusal ends it (DRF asks every throttle, and each counts what it admits):
        # a request refused for its address must not also spend the study's budget.
        for throttle in self.get_throttles():
            if not throttle.allow_request(request, self):
                count_refused_start(self.kwargs["slug"], self._refusal_reasons[type(throttle)])
                self.throttled(request, throttle.wait())  # type: ignore[arg-type]  # DRF takes None

    @extend_schema(
        operation_id="study_start",
        request=io.StartInput,
        responses={
            201: OpenApiResponse(
                io.StartOutput,
                description="started: a new participant, or (the study's returning_link_policy "
                "'fresh') a fresh session of a PROLIFIC_PID that already started, with none "
                "of its earlier messages",
            ),
            200: OpenApiResponse(
                io.StartOutput,
                description="resumed: the same PROLIFIC_PID with its SESSION_ID or the "
                "participant's own token (Authorization: Participant <token>)",
            ),
            403: OpenApiResponse(
                io.ErrorOutput,
                description="study_closed, study_paused, study_full (with screenout_code); "
                "already_started or screened_out (with screenout_code), as the study configures: "
                "the PROLIFIC_PID already started and neither its token nor its SESSION_ID "
                "came with the link",
            ),
            404: OpenApiResponse(io.ErrorOutput, description="no study with this slug"),
            **{k: v for k, v in ERRORS.items() if k in (400, 429)},
        },
        auth=[],
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.parsed(io.StartInput)
        # The browser's own token, if it sends one, proves it is the same participant.
        token = token_from_header(request.META.get("HTTP_AUTHORIZATION", ""))
        result = write(participants.start_participant, slug, **data, token=token)
        body = {"token": result.token, "session": progress.progress_of(result.participant)}
        return Response(
            represent(io.StartOutput, body),
            status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK,
        )


class SessionView(ParticipantView):
    open_after_withdrawal = True  # the step only ("withdrawn"): no conversation, no turns

    @extend_schema(operation_id="study_session", responses=SESSION_RESPONSES)
    def get(self, request: Request) -> Response:
        return self.session_response(self.participant)


class InstrumentView(ParticipantView):
    open_after_withdrawal = True  # the study's wording, nothing of the participant

    @extend_schema(operation_id="study_instrument", responses={200: io.InstrumentOutput, **ERRORS})
    def get(self, request: Request) -> Response:
        participant = self.participant
        language = languages.language_of(participant)
        localized = languages.instrument_for(participant.study, language)
        # Its own instance (not the shared one): the context carries the shown PANAS words.
        context = {"panas_labels": localized.panas_labels, "language": localized.language}
        return Response(io.InstrumentOutput(localized.definition, context=context).data)


def step_view(
    operation_id: str,
    step: Callable[..., object],
    request_body: type[serializers.Serializer] | None = None,
    *,
    open_after_withdrawal_: bool = False,
) -> type[ParticipantView]:
    """A study step: POST the step's input, the service does the step, the answer is the session."""

    class StepView(ParticipantView):
        open_after_withdrawal = open_after_withdrawal_

        @extend_schema(operation_id=operation_id, request=request_body, responses=SESSION_RESPONSES)
        def post(self, request: Request) -> Response:
            write(step, self.participant, **(self.parsed(request_body) if request_body else {}))
            return self.session_response(self.participant)

    StepView.__name__ = StepView.__qualname__ = "".join(
        word.title() for word in operation_id.split("_")
    )
    return StepView


ConsentView = step_view("study_consent", participants.give_consent, io.ConsentInput)
ComprehensionView = step_view(
    "study_comprehension", comprehension.submit_comprehension, io.ComprehensionInput
)
ProfileView = step_view("study_profile", participants.submit_profile, io.ProfileInput)
TopicView = step_view("study_topic", surveys.choose_topic, io.TopicInput)
FinishView = step_view("study_finish_chat", chat.finish_chat)
PostSurveyView = step_view("study_post_survey", surveys.submit_post_survey, io.PostSurveyInput)


# The input only confirms; withdrawal itself takes nothing but the participant.
def _withdraw(participant: Participant) -> object:
    result = participants.withdraw(participant)
    # A reply still being generated for them ends now, in this web process or another one
    # (its turn is settled already).
    reply_messages.stop_everywhere(participant.pk)
    return result


WithdrawView = step_view(
    "study_withdraw",
    lambda participant, confirm: _withdraw(participant),
    io.WithdrawInput,
    open_after_withdrawal_=True,  # withdrawing twice is not an error
)


class PanasView(ParticipantView):
    @extend_schema(
        operation_id="study_panas",
        request=io.PanasInput,
        responses={**SESSION_RESPONSES, 404: io.ErrorOutput},
    )
    def post(self, request: Request, phase: str) -> Response:
        if phase not in PanasPhase.values:
            raise FlowError("not_found", "The questionnaire is 'pre' or 'post'.")
        write(surveys.submit_panas, self.participant, phase, self.parsed(io.PanasInput)["items"])
        return self.session_response(self.participant)


class TurnView(ParticipantView):
    @extend_schema(
        operation_id="study_turn", responses={200: io.TurnOutput, 404: io.ErrorOutput, **ERRORS}
    )
    def get(self, request: Request, number: int) -> Response:
        conversation = current_conversation(self.participant)
        turn = (
            conversation.turns.select_related("annotation").filter(number=number).first()
            if conversation
            else None
        )
        if turn is None:
            raise FlowError("not_found", f"There is no message {number}.")
        return Response(represent(io.TurnOutput, turn))


class AnnotationView(ParticipantView):
    @extend_schema(
        operation_id="study_annotation_step",
        responses={200: io.AnnotationStepOutput, 404: io.ErrorOutput, **ERRORS},
    )
    def get(self, request: Request, number: int) -> Response:
        return Response(
            represent(
                io.AnnotationStepOutput,
                annotation_flow.step_of_turn(current_conversation(self.participant), number),
            )
        )

    @extend_schema(
        operation_id="study_annotation_submit",
        request=io.AnnotationInput,
        responses={200: io.AnnotationStepOutput, 404: io.ErrorOutput, **ERRORS},
    )
    def post(self, request: Request, number: int) -> Response:
        data = annotation_flow.AnnotationInput(**self.parsed(io.AnnotationInput))
        annotation = write(annotation_flow.submit, self.participant, number, data)
        return Response(represent(io.AnnotationStepOutput, annotation))


class DraftListView(ParticipantView):
    @extend_schema(
        operation_id="study_drafts", responses={200: io.DraftOutput(many=True), **ERRORS}
    )
    def get(self, request: Request) -> Response:
        return Response([represent(io.DraftOutput, d) for d in drafts.drafts_of(self.participant)])


# The key's pattern (drafts.DRAFT_KEY), stated in the schema.
DRAFT_KEY_PARAMETER = OpenApiParameter(
    "key",
    str,
    OpenApiParameter.PATH,
    pattern=drafts.DRAFT_KEY.pattern,
    description="1 to 64 lower-case letters, digits, ':', '_' or '-'",
)


@extend_schema(parameters=[DRAFT_KEY_PARAMETER])
class DraftView(ParticipantView):
    @extend_schema(
        operation_id="study_draft_save",
        request=io.DraftInput,
        responses={200: io.DraftOutput, **ERRORS},
    )
    def put(self, request: Request, key: str) -> Response:
        draft = write(drafts.save_draft, self.participant, key, self.parsed(io.DraftInput)["data"])
        return Response(represent(io.DraftOutput, draft))

    @extend_schema(operation_id="study_draft_delete", responses={204: None, **ERRORS})
    def delete(self, request: Request, key: str) -> Response:
        write(drafts.delete_draft, self.participant, key)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClientErrorView(_ParticipantAPIView):
    """The app's unexpected errors. Anyone with the study's page may report (an error on the
    landing page comes before any token), so the limits are per participant or address, then
    one budget for everyone; a token, when sent, ties the report to its participant."""

    authentication_classes = [ParticipantTokenAuthentication]
    permission_classes = [AllowAny]
    throttle_classes = [ClientErrorRateThrottle, ClientErrorBudgetThrottle]

    def check_throttles(self, request: Request) -> None:
        # The first refusal ends it: a refused sender must not also spend everyone's budget.
        for throttle in self.get_throttles():
            if not throttle.allow_request(request, self):
                self.throttled(request, throttle.wait())  # type: ignore[arg-type]  # DRF takes None

    @extend_schema(
        operation_id="study_client_error",
        request=io.ClientErrorInput,
        responses={
            204: OpenApiResponse(description="stored"),
            404: OpenApiResponse(io.ErrorOutput, description="no study with this slug"),
            **{k: v for k, v in ERRORS.items() if k in (400, 401, 429)},
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        user = request.user
        participant = user.participant if isinstance(user, ParticipantPrincipal) else None
        write(
            client_errors.record_client_error, slug, participant, **self.parsed(io.ClientErrorInput)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
