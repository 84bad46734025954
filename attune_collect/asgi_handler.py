"""Django's ASGI handler, with one long-lived thread for the participant API's synchronous
steps, and the chat stream sent directly.

Django wraps every ASGI request in asgiref's ``ThreadSensitiveContext``: the request's
synchronous steps (the request signals' receivers, each hook of each ``MiddlewareMixin``
middleware, the response's ``close``) run on a single-thread executor made for that request,
and when the request ends a second new thread joins it. Both threads are started from the
event loop's thread, and ``Thread.start()`` waits until the new thread runs: with the database
pool's threads busy and the cores shared, that wait stopped every stream of the process
(sampled with py-spy during ``benchmarks/chat_load.py`` on PostgreSQL). Participant API
requests (``/api/study/``) give asgiref one shared executor instead (its public
``ThreadSensitiveContext(executor=...)``): the same steps, in the same order, on a thread
started once. Their views do no database work on it (``participant_api/db.py`` has its own
pool) and they authenticate by header, so no session is read or saved there. Every other
request (admin, QA, staff pages) keeps Django's behaviour.

A chat stream (``SSEResponse``) is sent by ``participant_api/sse_send.py``: the same start
message, its events one body message each, and the keep-alive comments, without the generator
layers Django puts around every chunk of a streaming response (the token relay was the
largest part of a message's CPU). The side-by-side figures that keep both are in
docs/benchmarks.md ("Streaming chat under load").
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

from annotations.participant_api.sse import SSEResponse
from annotations.participant_api.sse_send import send_sse

PARTICIPANT_API_PREFIX = "/api/study/"

# One call at a time, as asgiref requires of a thread-sensitive executor.
participant_steps = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attune-request-steps")


class AttuneASGIHandler(ASGIHandler):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PARTICIPANT_API_PREFIX):
            async with ThreadSensitiveContext(executor=participant_steps):
                await self.handle(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    async def send_response(self, response: Any, send: Any) -> None:
        if isinstance(response, SSEResponse) and response.events_unwrapped:
            await send_sse(response, send)
            return
        await super().send_response(response, send)
