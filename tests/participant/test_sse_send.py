"""The chat stream as the platform's ASGI handler sends it (participant_api/sse_send.py): each
event as one body message, keep-alive comments after every interval with nothing sent (never
interrupting the wait for the model's next token), sends that never overlap, and the start
message Django itself would send."""

import asyncio
from dataclasses import replace
from typing import Any

from django.core.handlers.asgi import ASGIHandler
from django.http import StreamingHttpResponse

from annotations.participant_api.keepalive import KEEPALIVE_COMMENT
from annotations.participant_api.sse import sse_response
from annotations.participant_api.sse_send import send_sse
from attune_collect.asgi_handler import AttuneASGIHandler


class Recorder:
    """An ASGI ``send`` that records what went out; ``drain_s`` makes each send wait (a client
    reading slowly) and the recorder fails a test if two sends overlap."""

    def __init__(self, drain_s: float = 0.0) -> None:
        self.messages: list[dict[str, Any]] = []
        self.drain_s = drain_s
        self.busy = False

    async def __call__(self, message: dict[str, Any]) -> None:
        assert not self.busy, "two sends overlapped"
        self.busy = True
        try:
            if self.drain_s:
                await asyncio.sleep(self.drain_s)
            self.messages.append(message)
        finally:
            self.busy = False

    @property
    def bodies(self) -> list[bytes]:
        return [m.get("body", b"") for m in self.messages if m["type"] == "http.response.body"]


class SlowSource:
    """Events after a silence; records whether its pending read was ever cancelled."""

    def __init__(self, silence_s: float, events: list[bytes]) -> None:
        self.silence_s = silence_s
        self.events = events
        self.cancelled = False

    async def __call__(self):
        try:
            await asyncio.sleep(self.silence_s)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        for event in self.events:
            yield event


async def test_a_silent_stream_gets_keepalives_then_its_events(settings):
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.05)
    source = SlowSource(0.28, [b"event: delta\ndata: {}\n\n"] * 3)
    send = Recorder()
    await send_sse(sse_response(source()), send)

    bodies = send.bodies
    assert bodies[-1] == b"" and send.messages[-1].get("more_body", False) is False
    first_event = bodies.index(b"event: delta\ndata: {}\n\n")
    assert 3 <= bodies[:first_event].count(KEEPALIVE_COMMENT) <= 6
    assert set(bodies[:first_event]) == {KEEPALIVE_COMMENT}
    assert bodies[first_event:-1] == [b"event: delta\ndata: {}\n\n"] * 3  # none between events
    assert not source.cancelled  # the keep-alive never interrupted the wait


async def test_a_stream_that_keeps_sending_gets_no_keepalive(settings):
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.1)

    async def steady():
        for _ in range(8):
            await asyncio.sleep(0.03)
            yield b"event: delta\ndata: {}\n\n"

    send = Recorder()
    await send_sse(sse_response(steady()), send)
    assert KEEPALIVE_COMMENT not in send.bodies
    assert len(send.bodies) == 9


async def test_sends_never_overlap_when_the_client_reads_slowly(settings):
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.02)
    source = SlowSource(0.1, [b"event: delta\ndata: {}\n\n"] * 5)
    send = Recorder(drain_s=0.03)  # each send outlasts the keep-alive interval
    await send_sse(sse_response(source()), send)  # the Recorder asserts no overlap
    assert send.bodies.count(b"event: delta\ndata: {}\n\n") == 5
    assert send.bodies[-1] == b""


async def test_the_start_message_is_the_one_django_sends():
    async def events():
        yield b"event: delta\ndata: {}\n\n"

    def response() -> StreamingHttpResponse:
        made = sse_response(events())
        made["Content-Security-Policy"] = "default-src 'self'"
        made["X-Content-Type-Options"] = "nosniff"
        made.set_cookie("seen", "1")
        return made

    ours, djangos = Recorder(), Recorder()
    await send_sse(response(), ours)
    await ASGIHandler.send_response(object.__new__(ASGIHandler), response(), djangos)
    assert ours.messages[0] == djangos.messages[0]
    assert ours.bodies == djangos.bodies


async def test_a_stream_a_middleware_rewrapped_goes_through_django(settings):
    settings.ATTUNE = replace(settings.ATTUNE, sse_keepalive_s=0.01)

    async def events():
        await asyncio.sleep(0.05)
        yield b"event: delta\ndata: {}\n\n"

    response = sse_response(events())
    original = response.streaming_content

    async def upper():
        async for part in original:
            yield part.upper()

    response.streaming_content = upper()  # as GZipMiddleware would
    send = Recorder()
    await AttuneASGIHandler.send_response(object.__new__(AttuneASGIHandler), response, send)
    assert send.bodies == [b"EVENT: DELTA\nDATA: {}\n\n", b""]  # its content, untouched
