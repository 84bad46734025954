"""CPU per token of the chat's token relay, before and after issue 16's rewrite, in one run.

The relay is everything between the gateway's stream and the ASGI server's ``send``: the
keep-alive, encoding each ``delta`` event and sending it. Both chains relay the same fake
gateway streams (``TokenDelta`` events, each after one suspension, as a socket read would
make) to a ``send`` that does nothing, with many streams open at once on uvloop, as in the web
process:

- ``django``: the relay as it was: ``with_keepalive`` (a pump task and a queue, a timeout per
  event, reproduced below), ``DELTA.encode`` (the data serializer and ``json.dumps``) and a
  plain ``StreamingHttpResponse`` sent by Django's ``ASGIHandler.send_response``;
- ``direct``: the relay now: ``delta_event`` (orjson) and the ``SSEResponse`` sent by
  ``participant_api/sse_send.py`` (one body message per event, a watchdog for keep-alives).

The rounds alternate the two chains; the script prints each round's CPU per token and the
medians. No network, no database: it measures the relay alone, not the upstream's reads or
the gateway.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import _setup


async def old_with_keepalive(source: AsyncIterator[Any], interval_s: float) -> AsyncIterator[Any]:
    """The keep-alive relay before issue 16's rewrite (annotations/participant_api/keepalive.py
    at c85ac8b), kept here as the reference the new one is measured against."""
    queue: asyncio.Queue[tuple[object, BaseException | None]] = asyncio.Queue()
    end = object()

    async def pump() -> None:
        try:
            async for event in source:
                queue.put_nowait((event, None))
        except Exception as exc:
            queue.put_nowait((end, exc))
        else:
            queue.put_nowait((end, None))

    reader = asyncio.create_task(pump())
    try:
        while True:
            try:
                async with asyncio.timeout(interval_s):
                    event, error = await queue.get()
            except TimeoutError:
                yield None
                continue
            if error is not None:
                raise error
            if event is end:
                return
            yield event
    finally:
        if not reader.done():
            reader.cancel()
        with suppress(asyncio.CancelledError):
            await reader


async def fake_gateway(tokens: int) -> AsyncIterator[Any]:
    from attune_collect.llm import TokenDelta

    for index in range(tokens):
        await asyncio.sleep(0)  # a read of the upstream's socket suspends the stream
        yield TokenDelta(f" word{index}")


async def old_events(tokens: int) -> AsyncIterator[bytes]:
    from annotations.participant_api.keepalive import KEEPALIVE_COMMENT
    from annotations.participant_api.stream_events import DELTA

    async for event in old_with_keepalive(fake_gateway(tokens), 15.0):
        if event is None:
            yield KEEPALIVE_COMMENT
        else:
            yield DELTA.encode(event)


async def new_events(tokens: int) -> AsyncIterator[bytes]:
    from annotations.participant_api.sse import delta_event
    from attune_collect.llm import TokenDelta

    async for event in fake_gateway(tokens):
        if isinstance(event, TokenDelta):
            yield delta_event(event.text)


async def one_stream(chain: str, tokens: int, sent: list[int]) -> None:
    from django.core.handlers.asgi import ASGIHandler
    from django.http import StreamingHttpResponse

    from annotations.participant_api.sse import sse_response
    from annotations.participant_api.sse_send import send_sse

    async def send(message: dict[str, Any]) -> None:
        sent[0] += len(message.get("body", b""))

    if chain == "django":
        response = StreamingHttpResponse(old_events(tokens), content_type="text/event-stream")
        handler = object.__new__(ASGIHandler)  # send_response needs no middleware loaded
        await handler.send_response(response, send)
    else:
        await send_sse(sse_response(new_events(tokens)), send)


async def one_round(chain: str, streams: int, tokens: int) -> tuple[float, int]:
    sent = [0]
    started = time.process_time()
    await asyncio.gather(*(one_stream(chain, tokens, sent) for _ in range(streams)))
    return time.process_time() - started, sent[0]


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--streams", type=int, default=200, help="open at once")
    parser.add_argument("--tokens", type=int, default=60, help="per stream")
    parser.add_argument("--rounds", type=int, default=5, help="per chain, alternating")
    args = parser.parse_args()
    _setup.setup_django(Path(tempfile.mkdtemp(prefix="attune-relay-")), None, without_redis=True)
    import uvloop

    per_token: dict[str, list[float]] = {"django": [], "direct": []}
    sizes: dict[str, int] = {}
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(one_round("django", 10, args.tokens))  # warm both up (imports, serializers)
        runner.run(one_round("direct", 10, args.tokens))
        for round_number in range(args.rounds):
            for chain in ("django", "direct"):
                cpu_s, sizes[chain] = runner.run(one_round(chain, args.streams, args.tokens))
                per_token[chain].append(cpu_s / (args.streams * args.tokens) * 1e6)
                print(
                    f"round {round_number + 1} {chain:>6}: {per_token[chain][-1]:6.1f} µs CPU per token"
                )
    assert sizes["django"] == sizes["direct"], sizes  # the same bytes went out
    before, after = (statistics.median(per_token[chain]) for chain in ("django", "direct"))
    print(
        f"median: django {before:.1f} µs, direct {after:.1f} µs per token (x{after / before:.2f})"
    )
    print(
        f"per message of {args.tokens} tokens: {before * args.tokens / 1000:.2f} ms -> "
        f"{after * args.tokens / 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
