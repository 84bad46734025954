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
from attune_collect.client_address import client_address, rate_limit_key
from attune_collect.llm import GatewayError, Queued, StreamDone, TokenDelta, default_gateway
from attune_collect.llm._litellm import load_litellm  # the gateway imports it lazily

from .sse import delta_event, sse_response
from .stream_events import DELTA, DONE, ERROR, QUEUED, TURN
from .stream_limits import (
    StreamPlace,
    StreamTicket,
    close_stream,
    keep_renewed,
    open_stream,
)
from .turn_lease import lease_kept

logger = logging.getLogger(__name__)
DISCONNECTED = "the participant's connection closed before the reply was complete"


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
    ticket = place.ticket
    assert ticket is not None  # _prepare holds one whenever it returns a plan
    # The response's close gives the place back if the stream never ran (the client left
    # between the view and the first event); after the stream it finds it given back.
    return sse_response(stream_reply(outcome, ticket), on_close=ticket.close)


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
) -> chat.ChatPlan | HttpResponse:
    """Phase 1 (sync, in a thread): everything that may refuse the request, and the write.
    The stream's place (stream_limits.py) is taken before the write and given back if the
    request is refused, so a refused request stores nothing."""
    token = token_from_header(request.META.get("HTTP_AUTHORIZATION", ""))
    participant = participant_for_token(token) if token else None
    if participant is None:
        response = JsonResponse(error_body("unauthenticated", INVALID_SESSION), status=401)
        response["WWW-Authenticate"] = 'Participant realm="study"'
        return response
    # What the throttle counts by: the participant API's principal, as its DRF views have it.
    request.user = ParticipantPrincipal(participant)  # type: ignore[assignment]
    throttle: BaseThrottle = MessageRateThrottle()
    # A plain Django view (it streams): the throttle reads only the user and the address.
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]
        return rate_limited_response(throttle.wait())
    try:
        held = place.hold(open_stream(participant.pk, rate_limit_key(client_address(request))))
    except FlowError as error:
        return _stream_refused(error)
    if not held:  # the client left meanwhile: store nothing (no one reads this answer)
        return JsonResponse(error_body("disconnected", DISCONNECTED), status=499)
    try:
        return action(participant, request)
    except FlowError as error:
        place.abandon()
        return flow_error_response(error)
    except ValidationError as invalid:
        place.abandon()
        return JsonResponse(validation_body(invalid.detail), status=400)
    except BaseException:
        place.abandon()
        raise


def _stream_refused(error: FlowError) -> HttpResponse:
    response = flow_error_response(error)
    if "retry_after" in error.data:
        response["Retry-After"] = str(error.data["retry_after"])
    return response


async def stream_reply(
    plan: chat.ChatPlan, ticket: StreamTicket | None = None
) -> AsyncGenerator[bytes]:
    """Phases 2 and 3: relay the model's stream, then store how it ended; the stream's place
    (``ticket``, when it holds one) goes back after its last event."""
    if ticket is None:
        async for event in _reply_events(plan, None):
            yield event
        return
    keep_renewed(ticket)
    try:
        async for event in _reply_events(plan, ticket.address):
            yield event
    finally:
        await close_stream(ticket)


async def _reply_events(plan: chat.ChatPlan, address: str | None) -> AsyncGenerator[bytes]:
    yield TURN.encode(
        {
            "turn": {
                "number": plan.turn_number,
                "status": TurnStatus.STREAMING,
                "user_message": plan.user_message,
            },
            "support": plan.support,
        }
    )
    if plan.replay is not None:  # a repeated submit of an answered message: the same turn again
        yield DELTA.encode({"text": plan.replay})
        yield await _last_event(plan, _done_event, plan.turn_id)
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
                    yield delta_event(event.text)  # DELTA.encode's bytes, cheaper
                elif isinstance(event, StreamDone):
                    completion = event.completion
                elif isinstance(event, Queued):
                    yield QUEUED.encode({"reason": "model_busy"})
    except GatewayError as error:
        yield await _failed(plan, error.message, attempts=error.attempts, reason=error.kind)
        return
    except asyncio.CancelledError:
        # The participant left mid-reply: leave a retryable turn, then let the cancel go on.
        await run_in_db_thread(
            write,
            chat.record_failure,
            plan.turn_id,
            DISCONNECTED,
            claim=plan.claim,
            kind="disconnected",
        )
        raise
    except Exception:
        logger.exception("streaming turn %s failed unexpectedly", plan.turn_id)
        yield await _failed(plan, "internal error while streaming", attempts=0, reason="internal")
        return
    if completion is None:
        yield await _failed(
            plan, "the stream ended without a result", attempts=0, reason="internal"
        )
        return
    yield await _last_event(plan, _store_reply, plan, completion)


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
    return ERROR.encode(
        {
            "turn": {"number": plan.turn_number, "status": TurnStatus.FAILED},
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


def _not_kept(plan: chat.ChatPlan) -> bytes:
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
