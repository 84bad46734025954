"""OpenAPI documentation of the two streaming endpoints.

They are plain async Django views, which drf-spectacular cannot see; each gets a DRF view
class that only describes it (``documented_by``). The class is never dispatched: Django
routes the request to the async function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from annotations.participant_api import serializers as io
from annotations.participant_api.auth import ParticipantTokenAuthentication
from annotations.participant_api.keepalive import KEEPALIVE_COMMENT
from annotations.participant_api.stream_events import EVENTS
from annotations.participant_api.views import ERRORS

STREAM_DESCRIPTION = f"""Server-Sent Events (read with fetch(); EventSource cannot send the token).
The schema describes each event (not the whole stream): its `event` line and its `data` line,
one line of JSON whose `contentSchema` names its shape: `turn`, then `queued` (only when the
model is busy: the reply waits for it), then `delta` (many; concatenate them), then `done` or
`error`. While the model is silent the stream sends the comment
`{KEEPALIVE_COMMENT.decode().strip()}` (no event; SSE readers skip it).

Every event but `queued` has an id (`<claim>:<offset>`): after a reload or a dropped
connection, GET /api/study/turns/{{number}}/stream (with `Last-Event-ID`) re-attaches to the
reply, which the server generates and stores whether or not the stream is read.

Errors before the stream starts come as JSON with the usual error shape and status."""

FOLLOW_DESCRIPTION = """Server-Sent Events, as the message's stream: `turn`, the text so far as
one `delta`, then the rest as it comes, and `done` or `error`; with `Last-Event-ID`, only
the events after it. A turn already settled is replayed from what is stored."""

# One component per event (stream_events.py), the stream a oneOf of them by event name.
STREAM_EVENT = PolymorphicProxySerializer(
    component_name="ChatStreamEvent",
    serializers={event.name: event.envelope() for event in EVENTS},
    resource_type_field_name="event",
    many=False,
)
# drf-spectacular's responses: a status (ERRORS) or a (status, media type) -> the response
_STREAM: dict[Any, OpenApiResponse] = {
    (200, "text/event-stream"): OpenApiResponse(STREAM_EVENT, description=STREAM_DESCRIPTION),
    **ERRORS,
    409: OpenApiResponse(
        io.ErrorOutput,
        description="the step is not open now (error.code says why); turn_in_progress: a "
        "reply of this participant is still streaming (here or in another window)",
    ),
    429: OpenApiResponse(
        io.ErrorOutput,
        description="rate_limited, or too_many_streams: too many chat streams are open from "
        "this client's address (Retry-After header)",
    ),
}


class EventNameFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "annotations.participant_api.stream_events.EventNameField"

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        return {"type": "string", "const": self.target.event_name}


class EventDataFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "annotations.participant_api.stream_events.EventDataField"

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        component = auto_schema.resolve_serializer(self.target.data, direction)
        return {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": component.ref,
        }


class _StreamDocs(APIView):
    authentication_classes = [ParticipantTokenAuthentication]
    parser_classes = [JSONParser]


class MessageStreamDocs(_StreamDocs):
    @extend_schema(
        operation_id="study_send_message",
        request=io.MessageInput,
        responses=_STREAM,
        description="Store the message, then stream the model's reply.",
    )
    def post(self, request: Any) -> None:  # pragma: no cover - documentation only
        raise NotImplementedError


class RetryStreamDocs(_StreamDocs):
    @extend_schema(
        operation_id="study_retry_turn",
        request=None,
        responses={
            **_STREAM,
            404: OpenApiResponse(
                io.ErrorOutput, description="not_found: the conversation has no such turn"
            ),
        },
        description="Ask again for the reply of a failed (or lost) turn; "
        "a turn already answered is replayed.",
    )
    def post(self, request: Any, number: int) -> None:  # pragma: no cover - documentation only
        raise NotImplementedError


class FollowStreamDocs(_StreamDocs):
    @extend_schema(
        operation_id="study_follow_turn",
        request=None,
        parameters=[
            OpenApiParameter(
                "Last-Event-ID",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="The id of the last event the client has (`<claim>:<offset>`): "
                "the stream resumes after it; without it (or with an id of an earlier "
                "attempt) it starts again with `turn` and the text so far as one `delta`.",
            )
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                STREAM_EVENT, description=FOLLOW_DESCRIPTION
            ),
            **ERRORS,
            404: OpenApiResponse(
                io.ErrorOutput, description="not_found: the conversation has no such turn"
            ),
        },
        description="Re-attach to a turn's reply (after a reload or a dropped connection): "
        "the reply runs on the server whether or not a stream reads it. Never a model call.",
    )
    def get(self, request: Any, number: int) -> None:  # pragma: no cover - documentation only
        raise NotImplementedError


def documented_by[F: Callable[..., Any]](view: F, docs: type[APIView]) -> F:
    """Let drf-spectacular describe ``view`` with ``docs`` (it looks for ``cls``/``initkwargs``)."""
    view.cls = docs  # type: ignore[attr-defined]  # a function's attribute, read by drf-spectacular
    view.initkwargs = {}  # type: ignore[attr-defined]  # a function's attribute, read by drf-spectacular
    return view
