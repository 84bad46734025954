"""The events of the chat stream, defined once: the stream builds each event from these
definitions (``streaming.py`` calls ``StreamEvent.encode``) and the OpenAPI schema documents
the same definitions (``stream_schema.py``), so the two cannot drift apart.

An event is its name (the ``event:`` line) and the serializer of its data (the ``data:`` line,
one line of JSON). In the schema each event is a component ``{"event": <name>, "data": ...}``,
the shape OpenAPI gives a Server-Sent Event: ``event`` a constant, ``data`` a string whose
``contentSchema`` is the data serializer's component. The ``text/event-stream`` response's
``schema`` describes one event (OpenAPI 3.1; 3.2 would call it ``itemSchema``): a ``oneOf`` of
them discriminated by ``event``. The keep-alive comment (``keepalive.py``) is no
event: SSE readers skip comment lines, and the response's description says when it comes.

The order: ``turn`` (the message is stored), ``queued`` (only when the model is busy),
``delta`` (many; concatenate them), then ``done`` or ``error``.
"""

from __future__ import annotations

from typing import Any, get_args

from rest_framework import serializers

from annotations.models import TurnStatus
from annotations.participant_api.json_limits import represent
from annotations.participant_api.serializers import (
    AnnotationStepOutput,
    SupportOutput,
    TurnOutput,
)
from annotations.participant_api.sse import sse_event
from attune_collect.llm.types import ErrorKind

# Why a reply failed: the gateway's error kinds, "internal" (a fault of the platform), or
# "withdrawn" (the participant withdrew while it streamed: nothing was kept, no retry).
FAILURE_REASONS = (*get_args(ErrorKind), "internal", "withdrawn")


class StreamingTurn(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField([TurnStatus.STREAMING.value])
    user_message = serializers.CharField()


class StreamTurnData(serializers.Serializer):
    turn = StreamingTurn(help_text="The stored message; its reply follows.")
    support = SupportOutput(
        allow_null=True,
        help_text="Set when the message signalled risk: "
        "show the resources prominently; the chat goes on.",
    )


class StreamDeltaData(serializers.Serializer):
    text = serializers.CharField(help_text="The next piece of the reply.")


class StreamQueuedData(serializers.Serializer):
    reason = serializers.ChoiceField(
        ["model_busy"],
        help_text="model_busy: every slot of the model is taken; the reply waits its turn.",
    )


class StreamDoneData(serializers.Serializer):
    turn = TurnOutput(help_text="The turn as stored, with the whole reply.")
    annotation = AnnotationStepOutput(
        allow_null=True,
        help_text="The annotation step of the reply (null only for a turn that has none).",
    )


class FailedTurn(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField([TurnStatus.FAILED.value])


class StreamError(serializers.Serializer):
    reason = serializers.ChoiceField(
        FAILURE_REASONS,
        help_text="What went wrong, for the app's logs; the message is what to show.",
    )
    message = serializers.CharField()
    retryable = serializers.BooleanField(help_text="POST /api/study/turns/{number}/retry.")


class StreamErrorData(serializers.Serializer):
    turn = FailedTurn(help_text="The message is stored; its reply failed.")
    error = StreamError()


class EventNameField(serializers.Field):
    """The ``event:`` line of one kind of event (the schema states it as a constant)."""

    def __init__(self, event_name: str, **kwargs: Any) -> None:
        self.event_name = event_name
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return self.event_name


class EventDataField(serializers.Field):
    """The ``data:`` line: one line of JSON, shaped by ``data`` (the schema's contentSchema)."""

    def __init__(self, data: type[serializers.Serializer], **kwargs: Any) -> None:
        self.data = data
        super().__init__(**kwargs)


class StreamEvent:
    """One kind of event: its name and the serializer of its data."""

    def __init__(self, name: str, data: type[serializers.Serializer], description: str) -> None:
        self.name = name
        self.data = data
        self.description = description

    def encode(self, payload: Any) -> bytes:
        """The event as sent; ``payload`` is what the data serializer reads (objects or dicts).
        One serializer instance serves every event of its kind: binding a new one per delta
        would cost about 90 µs, reusing it about 5."""
        return sse_event(self.name, represent(self.data, payload))

    def envelope(self) -> type[serializers.Serializer]:
        """The schema's component of the event: ``{"event": <name>, "data": <data>}``."""
        fields = {
            "id": serializers.CharField(
                required=False,
                help_text="The `id:` line (`<claim>:<offset>`; `queued` has none): "
                "send it back as `Last-Event-ID` to resume after this event.",
            ),
            "event": EventNameField(self.name, help_text="The `event:` line."),
            "data": EventDataField(self.data, help_text="The `data:` line: JSON."),
        }
        name = self.data.__name__.removesuffix("Data") + "Event"
        attrs = {"__doc__": self.description, "__module__": __name__, **fields}
        return type(name, (serializers.Serializer,), attrs)


TURN = StreamEvent(
    "turn",
    StreamTurnData,
    "First: the message is stored (support resources come with it when it signalled risk).",
)
QUEUED = StreamEvent(
    "queued",
    StreamQueuedData,
    "Only when the model is busy, before the reply's first piece: the reply waits for the "
    "model (show that it is waiting, not a silent spinner).",
)
DELTA = StreamEvent("delta", StreamDeltaData, "A piece of the reply; many, to concatenate.")
DONE = StreamEvent(
    "done", StreamDoneData, "Last, on success: the stored turn and its annotation step."
)
ERROR = StreamEvent(
    "error",
    StreamErrorData,
    "Last, on failure: the reply could not be "
    "written; the message is kept and the turn can be retried.",
)
EVENTS = (TURN, QUEUED, DELTA, DONE, ERROR)
