"""The streaming chat: plain async Django views (DRF views are synchronous), served by uvicorn.

A request runs in three short phases so that no database connection is held while the model
talks (200 open streams once held 200 PostgreSQL connections):

1. on the database thread pool (``db.py``): authenticate, throttle, validate and store the
   message (``chat.accept_message``);
2. on the event loop, no database involved: relay the model's tokens from the LLM gateway as
   SSE events;
3. on the pool again: store the reply (``chat.record_reply``) or the failure.

Events, in order (``stream_events.py`` defines each one, for the stream and its schema alike):
``turn`` (the stored message, and support resources if it signalled risk), ``queued`` (only
when the model's endpoint is busy: the reply waits for a slot, in a queue fair across client
addresses), ``delta``
(``{"text": ...}``, many), then either ``done`` (the turn and its annotation step) or
``error`` (the turn failed; retry it with POST /api/study/turns/<n>/retry).

Every stream ends with one of the two, whatever fails after the ``turn`` event: an error
after the reply's commit (the improved reply's task is sent then; a broker error is only
logged, ``attune_collect/dispatch.py``) still ends with ``done``, since the turn is stored;
any other failure ends with ``error``, recorded on the turn when the database allows.

A participant has at most one stream open, an address at most ``ATTUNE_MAX_STREAMS_PER_ADDRESS``
(``stream_limits.py``): a stream takes its place before the message is stored.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import ValidationError
from rest_framework.throttling import BaseThrottle

from annotations.models import Participant, Turn, TurnStatus
from annotations.participant_api import serializers as io
from annotations.participant_api.auth import (
    INVALID_SESSION,
    ParticipantPrincipal,
    token_from_header,
)
from annotations.participant_api.db import run_in_db_thread, write
from annotations.participant_api.error_pages import TOO_LARGE
from annotations.participant_api.errors import (
    error_body,
    flow_error_response,
    rate_limited_response,
    validation_body,
)
from annotations.participant_api.json_limits import parse_body
from annotations.participant_api.throttling import MessageRateThrottle
from annotations.services import chat
from annotations.services.errors import FlowError
from annotations.services.participant_sessions import participant_for_token
from annotations.services.withdrawal import WITHDREW_MID_REPLY
from attune_collect.client_address import client_address, rate_limit_key
from attune_collect.llm import GatewayError, Queued, StreamDone, TokenDelta, default_gateway
from attune_collect.llm._litellm import load_litellm  # the gateway imports it lazily

from . import reply_runs
from .reply_mirror import redis_items, redis_url
from .sse import sse_response
from .stream_events import DONE, ERROR, QUEUED, TURN
from .stream_limits import StreamPlace, StreamTicket, open_stream
from .turn_lease import lease_kept

logger = logging.getLogger(__name__)
DISCONNECTED = "the participant's connection closed before the reply was complete"
STOPPED = "the reply's generation was stopped before it was complete"


@csrf_exempt  # authenticated by header, never by cookie: a cross-site form cannot send it
async def send_message(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    """POST /api/study/messages {"text", "idempotency_key"} -> an SSE stream."""
    if request.method != "POST":
        return _method_not_allowed()
    return await _stream_for(request, _accept)


@csrf_exempt
async def retry_turn(request: HttpRequest, number: int) -> HttpResponse | StreamingHttpResponse:
    """POST /api/study/turns/<number>/retry -> an SSE stream, like a new message."""
    if request.method != "POST":
        return _method_not_allowed()
    return await _stream_for(
        request, lambda participant, _: write(chat.retry_turn, participant, number)
    )


async def _stream_for(
    request: HttpRequest, action: Callable[[Participant, HttpRequest], chat.ChatPlan]
) -> HttpResponse | StreamingHttpResponse:
    place = StreamPlace()
    try:
        outcome = await run_in_db_thread(_prepare, request, action, place)
    except asyncio.CancelledError:  # the client left while the step ran: its place goes back
        place.abandon()
        raise
    if isinstance(outcome, HttpResponse):
        return outcome
    participant, plan = outcome
    ticket = place.ticket
    assert ticket is not None  # _prepare holds one whenever it returns a plan
    # The reply's run holds the place from here to the reply's end, whoever reads it.
    return sse_response(stream_reply(plan, ticket, participant.pk))


def _accept(participant: Participant, request: HttpRequest) -> chat.ChatPlan:
    try:
        payload = json.loads(request.body or b"{}")
    except RequestDataTooBig:
        raise FlowError("too_large", TOO_LARGE) from None
    except (ValueError, RecursionError):  # a body nested past the parser's limit is not JSON
        raise FlowError("invalid", "The request body is not JSON.") from None
    message = parse_body(io.MessageInput, payload)  # a ValidationError is a 400 (_prepare)
    return write(chat.accept_message, participant, **message)


def _prepare(
    request: HttpRequest,
    action: Callable[[Participant, HttpRequest], chat.ChatPlan],
    place: StreamPlace,
) -> tuple[Participant, chat.ChatPlan] | HttpResponse:
    """Phase 1 (sync, in a thread): everything that may refuse the request, and the write.
    The stream's place (stream_limits.py) is taken before the write and given back if the
    request is refused, so a refused request stores nothing."""
    participant = _participant_of(request)
    if isinstance(participant, HttpResponse):
        return participant
    # What the throttle counts by: the participant API's principal, as its DRF views have it.
    request.user = ParticipantPrincipal(participant)  # type: ignore[assignment]  # DRF's throttle reads request.user; a principal, no User
    throttle: BaseThrottle = MessageRateThrottle()
    # A plain Django view (it streams): the throttle reads only the user and the address.
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # a Django request: the throttle reads only user and address
        return rate_limited_response(throttle.wait())
    try:
        held = place.hold(open_stream(participant.pk, rate_limit_key(client_address(request))))
    except FlowError as error:
        return _stream_refused(error)
    if not held:  # the client left meanwhile: store nothing (no one reads this answer)
        return JsonResponse(error_body("disconnected", DISCONNECTED), status=499)
    try:
        return participant, action(participant, request)
    except FlowError as error:
        place.abandon()
        return flow_error_response(error)
    except ValidationError as invalid:
        place.abandon()
        return JsonResponse(validation_body(invalid.detail), status=400)
    except BaseException:
        place.abandon()
        raise


def _participant_of(request: HttpRequest) -> Participant | HttpResponse:
    token = token_from_header(request.META.get("HTTP_AUTHORIZATION", ""))
    participant = participant_for_token(token) if token else None
    if participant is None:
        response = JsonResponse(error_body("unauthenticated", INVALID_SESSION), status=401)
        response["WWW-Authenticate"] = 'Participant realm="study"'
        return response
    return participant


def _stream_refused(error: FlowError) -> HttpResponse:
    response = flow_error_response(error)
    if "retry_after" in error.data:
        response["Retry-After"] = str(error.data["retry_after"])
    return response


def stream_reply(
    plan: chat.ChatPlan, ticket: StreamTicket | None = None, participant_id: int = 0
) -> AsyncGenerator[bytes]:
    """Phases 2 and 3 in the reply's run (``reply_runs.py``), which relays the model's stream
    and stores how it ended whether or not this stream is still read; the stream's place
    (``ticket``, when it holds one) goes back after the run's last event. Returns the events
    of the run, from its start, for the stream that started it."""
    producer = _reply_events(plan, ticket.address if ticket is not None else None)
    run = reply_runs.start(plan, participant_id, producer, ticket, _stopped_event(plan))
    return reply_runs.as_events(reply_runs.local_items(run), plan.claim)


def _stopped_event(plan: chat.ChatPlan) -> Callable[[str | None], bytes]:
    def event(reason: str | None) -> bytes:
        if reason == "withdrawn":
            return _not_kept(plan)
        return _error_event(plan.turn_number, "internal")

    return event


def _turn_item(plan: chat.ChatPlan | chat.FollowPlan) -> reply_runs.Item:
    """The stream's first event: the turn being answered, and the support notice it earned."""
    return (
        "turn",
        TURN.encode(
            {
                "turn": {
                    "number": plan.turn_number,
                    "status": TurnStatus.STREAMING,
                    "user_message": plan.user_message,
                },
                "support": plan.support,
            }
        ),
    )


async def _reply_events(
    plan: chat.ChatPlan, address: str | None
) -> AsyncGenerator[reply_runs.Item]:
    """The run's items: the turn, the pieces of the reply, and the last event (stored first)."""
    yield _turn_item(plan)
    if plan.replay is not None:  # a repeated submit of an answered message: the same turn again
        yield "text", plan.replay
        yield "end", await _last_event(plan, _done_event, plan.turn_id)
        return
    completion = None
    # While the model is silent, the handler sends keep-alive comments (sse_send.py).
    # aclosing: a consumer that stops reading (not a cancel) still closes the model's stream.
    try:
        gateway = default_gateway()
        if gateway.needs_litellm(plan.endpoint):
            await _litellm_imported()
        async with (
            # Waiters for the endpoint's slots are served round-robin by address (FairSlots).
            aclosing(gateway.stream(plan.endpoint, plan.messages, queue_key=address)) as events,
            lease_kept(plan),  # this stream owns the turn while it lives
        ):
            async for event in events:
                if isinstance(event, TokenDelta):
                    yield "text", event.text
                elif isinstance(event, StreamDone):
                    completion = event.completion
                elif isinstance(event, Queued):
                    yield "queued", QUEUED.encode({"reason": "model_busy"})
    except GatewayError as error:
        yield "end", await _failed(plan, error.message, attempts=error.attempts, reason=error.kind)
        return
    except asyncio.CancelledError:
        # The run was stopped (a withdrawal: the turn is settled already, this changes nothing)
        # or the process is going away: leave a retryable turn, then let the cancel go on.
        await run_in_db_thread(
            write,
            chat.record_failure,
            plan.turn_id,
            STOPPED,
            claim=plan.claim,
            kind="stopped",
        )
        raise
    except Exception:
        logger.exception("streaming turn %s failed unexpectedly", plan.turn_id)
        yield (
            "end",
            await _failed(plan, "internal error while streaming", attempts=0, reason="internal"),
        )
        return
    if completion is None:
        yield (
            "end",
            await _failed(plan, "the stream ended without a result", attempts=0, reason="internal"),
        )
        return
    yield "end", await _last_event(plan, _store_reply, plan, completion)


async def _last_event(plan: chat.ChatPlan, step: Callable[..., bytes], *args: Any) -> bytes:
    """The stream's last event from a database step; if the step fails, ``done`` when the turn
    was stored all the same (the failure came after its commit), else ``error``."""
    try:
        return await run_in_db_thread(step, *args)
    except Exception:
        logger.exception("storing or reading turn %s failed", plan.turn_id)
    try:
        stored = await run_in_db_thread(_done_if_stored, plan.turn_id)
    except Exception:  # the database itself is away: the error event needs none
        logger.exception("reading turn %s failed", plan.turn_id)
        stored = None
    if stored is not None:
        return stored
    return await _failed(
        plan, "internal error while storing the reply", attempts=0, reason="internal"
    )


_litellm_loaded = False


async def _litellm_imported() -> None:
    """Import litellm in a thread the first time an endpoint needs it: imported on the event
    loop (as the gateway's first call would), its 3 to 5 s import would stop every other
    stream of the process. OpenAI-compatible endpoints never need it."""
    global _litellm_loaded
    if not _litellm_loaded:
        await asyncio.to_thread(load_litellm)
        _litellm_loaded = True


async def _failed(plan: chat.ChatPlan, message: str, *, attempts: int, reason: str) -> bytes:
    try:
        await run_in_db_thread(
            write,
            chat.record_failure,
            plan.turn_id,
            message,
            claim=plan.claim,
            attempts=attempts,
            kind=reason,
        )
    except Exception:  # not recorded: the turn's lease lapses, then it can be retried
        logger.exception("recording the failure of turn %s failed", plan.turn_id)
    # The stored message may name the endpoint: the participant gets only the reason's kind.
    return _error_event(plan.turn_number, reason)


def _error_event(turn_number: int, reason: str) -> bytes:
    return ERROR.encode(
        {
            "turn": {"number": turn_number, "status": TurnStatus.FAILED},
            "error": {"reason": reason, "message": io.FAILED_REPLY_MESSAGE, "retryable": True},
        }
    )


def _store_reply(plan: chat.ChatPlan, completion: Any) -> bytes:
    """The ``done`` event, built here on the pool: its serializers read the database."""
    result = write(chat.record_reply, plan.turn_id, completion)
    if result is not None:
        return DONE.encode({"turn": result.turn, "annotation": result.annotation})
    # Settled by something else meanwhile: what is stored, or nothing (the participant withdrew).
    return _done_if_stored(plan.turn_id) or _not_kept(plan)


def _not_kept(plan: chat.ChatPlan | chat.FollowPlan) -> bytes:
    return ERROR.encode(
        {
            "turn": {"number": plan.turn_number, "status": TurnStatus.FAILED},
            "error": {"reason": "withdrawn", "message": io.NOT_KEPT_MESSAGE, "retryable": False},
        }
    )


def _done_if_stored(turn_id: int) -> bytes | None:
    if Turn.objects.filter(pk=turn_id, status=TurnStatus.DONE).exists():
        return _done_event(turn_id)
    return None


def _done_event(turn_id: int) -> bytes:
    turn = Turn.objects.select_related("annotation").get(pk=turn_id)
    return DONE.encode({"turn": turn, "annotation": getattr(turn, "annotation", None)})


def _method_not_allowed() -> JsonResponse:
    response = JsonResponse(error_body("method_not_allowed", "Use POST."), status=405)
    response["Allow"] = "POST"
    return response


# -- re-attaching to a reply --------------------------------------------------------------


@csrf_exempt
async def follow_turn(request: HttpRequest, number: int) -> HttpResponse | StreamingHttpResponse:
    """GET /api/study/turns/<number>/stream -> the turn's reply as an SSE stream: the text so
    far and then the rest while it is generated (on this web process or another), the stored
    reply when it is done. ``Last-Event-ID`` (an id of this stream) resumes after that event.
    Never a model call, and no stream place: the reply's run holds that."""
    if request.method != "GET":
        response = JsonResponse(error_body("method_not_allowed", "Use GET."), status=405)
        response["Allow"] = "GET"
        return response
    outcome = await run_in_db_thread(_follow_plan, request, number)
    if isinstance(outcome, HttpResponse):
        return outcome
    resume = reply_runs.parse_event_id(request.headers.get("Last-Event-ID", ""))
    resume_at = resume[1] if resume is not None and resume[0] == outcome.claim else None
    return sse_response(_followed(outcome, resume_at))


def _follow_plan(request: HttpRequest, number: int) -> chat.FollowPlan | HttpResponse:
    participant = _participant_of(request)
    if isinstance(participant, HttpResponse):
        return participant
    try:
        return chat.turn_to_follow(participant, number)
    except FlowError as error:
        return flow_error_response(error)


async def _followed(plan: chat.FollowPlan, resume_at: int | None) -> AsyncGenerator[bytes]:
    if plan.status == TurnStatus.STREAMING:
        run = reply_runs.run_of(plan.turn_id, plan.claim)
        if run is not None:
            async for event in reply_runs.as_events(
                reply_runs.local_items(run), plan.claim, resume_at
            ):
                yield event
            return
        if redis_url():  # the run is on another web process
            ended = False
            items = redis_items(plan.turn_id, plan.claim, _still_streaming(plan))
            async for event in reply_runs.as_events(items, plan.claim, resume_at):
                ended = event.startswith(b"id: %d:end" % plan.claim)
                yield event
            if ended:
                return
        # Ended meanwhile (or its process is gone): as the database has it now.
        try:
            plan = await run_in_db_thread(_reread, plan)
        except Exception:
            logger.exception("reading turn %s failed", plan.turn_id)
    async for event in reply_runs.as_events(_settled_items(plan), plan.claim, resume_at):
        yield event


def _still_streaming(plan: chat.FollowPlan) -> Callable[[], Any]:
    async def alive() -> bool:
        now = await run_in_db_thread(_reread, plan)
        return now.status == TurnStatus.STREAMING and now.claim == plan.claim and now.owner_lives

    return alive


def _reread(plan: chat.FollowPlan) -> chat.FollowPlan:
    turn = Turn.objects.only("status", "stream_claim", "lease_expires_at", "error").get(
        pk=plan.turn_id
    )
    return chat.FollowPlan(
        **{
            **plan.__dict__,
            "status": turn.status,
            "claim": turn.stream_claim,
            "reply": Turn.objects.values_list("model_reply", flat=True).get(pk=plan.turn_id),
            "withdrawn": turn.error == WITHDREW_MID_REPLY,
            "owner_lives": chat.owner_lives(turn),
        }
    )


async def _settled_items(plan: chat.FollowPlan) -> AsyncGenerator[reply_runs.Item]:
    """A turn no run is writing: its stored reply, or why it has none."""
    yield _turn_item(plan)
    if plan.status == TurnStatus.DONE:
        yield "text", plan.reply
        yield "end", await run_in_db_thread(_done_event, plan.turn_id)
    elif plan.withdrawn:
        yield "end", _not_kept(plan)
    else:  # failed, or lost with its process: the app offers the retry
        yield "end", _error_event(plan.turn_number, "internal")
