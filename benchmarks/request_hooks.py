"""CPU per participant API request of the middleware chain: Django's adaptation (every hook of a
``MiddlewareMixin`` handed to a thread and back) against the participant API's handler (hooks
called on the event loop), side by side in one run; and that handler as it was at stop 29
(the request signals and the response's close still awaited through ``sync_to_async``, on the
loop's thread; every middleware), with the signals and close called directly (stop 30), and
today's, which also leaves out the middleware with nothing to do for the participant API
(``NOT_FOR_THE_PARTICIPANT_API``, stop 30).

    .venv/bin/python benchmarks/request_hooks.py [--requests 200] [--rounds 7]

Every handler serves the same request, on uvloop, ``--requests`` at once per round: a GET of
the session without a token (the JSON 401, from the view on the participant database pool,
without a query), so that no database work dilutes the figure; the 4xx log lines are off.
Django's handler runs its synchronous steps on the single request-steps thread of the web
process; each participant handler is served as the web process serves it
(``ParticipantAPIHandler.serve``: with Django's own receivers only, its steps on the loop).
Rounds alternate the handlers; the script prints each round's CPU per request (the whole
process: event loop and threads) and the medians. Production profile (DEBUG off).
"""

from __future__ import annotations

import asyncio
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import _setup


async def one_request(handler: Any, statuses: list[int]) -> None:
    from asgiref.sync import ThreadSensitiveContext

    from attune_collect.asgi_handler import ParticipantAPIHandler, _participant_steps

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/study/session",
        "raw_path": b"/api/study/session",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"accept", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent = False
    disconnect = asyncio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    if isinstance(handler, ParticipantAPIHandler):
        await handler.serve(scope, receive, send)
    else:
        async with ThreadSensitiveContext(executor=_participant_steps):
            await handler.handle(scope, receive, send)
    disconnect.set()


async def one_round(handler: Any, requests: int) -> tuple[float, list[int]]:
    statuses: list[int] = []
    cpu = time.process_time()
    await asyncio.gather(*(one_request(handler, statuses) for _ in range(requests)))
    return (time.process_time() - cpu) / requests * 1e6, statuses


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--requests", type=int, default=200, help="requests at once per round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.environ.update(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="request-hooks-benchmark-not-a-secret",
        ATTUNE_PSEUDONYM_SALT="request-hooks-benchmark-not-a-secret",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="false",
    )
    _setup.setup_django(Path(tempfile.mkdtemp(prefix="attune-hooks-")), None, without_redis=True)
    import uvloop

    logging.disable(logging.WARNING)  # django.request logs every 4xx

    from django.core.handlers.asgi import ASGIHandler

    from attune_collect import asgi_handler
    from attune_collect.asgi_handler import ParticipantAPIHandler, _SendsChatStreamsDirectly

    class EveryMiddleware(ParticipantAPIHandler):
        """Today's handler with the whole of settings.MIDDLEWARE (none left out)."""

        def load_middleware(self, is_async: bool = False) -> None:
            left_out = asgi_handler.NOT_FOR_THE_PARTICIPANT_API
            asgi_handler.NOT_FOR_THE_PARTICIPANT_API = frozenset()
            try:
                super().load_middleware(is_async)
            finally:
                asgi_handler.NOT_FOR_THE_PARTICIPANT_API = left_out

    class Stop29(EveryMiddleware):
        """Stop 29's handler: Django's ``handle`` around the hooks on the loop, its steps
        awaited through ``sync_to_async`` on the loop's thread, every middleware."""

        _handle_on_the_loop = ASGIHandler.handle

    handlers = {
        "django": _SendsChatStreamsDirectly(),
        "stop 29": Stop29(),
        "signals direct": EveryMiddleware(),
        "today": ParticipantAPIHandler(),
    }
    per_request: dict[str, list[float]] = {name: [] for name in handlers}
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        for handler in handlers.values():  # warm up (imports, URL resolver, the thread)
            runner.run(one_round(handler, 20))
        for number in range(args.rounds):
            figures = []
            for name, handler in handlers.items():
                micros, statuses = runner.run(one_round(handler, args.requests))
                assert statuses == [401] * args.requests, set(statuses)
                per_request[name].append(micros)
                figures.append(f"{name} {micros:.0f} µs")
            print(f"round {number + 1}: " + ", ".join(figures) + " per request")
    medians = {name: statistics.median(per_request[name]) for name in handlers}
    print(
        "median CPU per request: "
        + ", ".join(f"{name} {micros:.0f} µs" for name, micros in medians.items())
        + "; load average "
        + " ".join(f"{v:.2f}" for v in os.getloadavg())
    )


if __name__ == "__main__":
    main()
