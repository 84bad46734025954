"""Django's ASGI handler, without a new thread per participant API request, and with the chat
stream sent directly.

Django wraps every ASGI request in asgiref's ``ThreadSensitiveContext``: the request's
synchronous steps (the request signals' receivers, each hook of each ``MiddlewareMixin``
middleware, the response's ``close``) run on a single-thread executor made for that request,
and when the request ends a second new thread joins it. Both threads are started from the
event loop's thread, and ``Thread.start()`` waits until the new thread runs: with other threads
busy (the database pool's, more of them on PostgreSQL, which writes in parallel) and the cores
shared, that wait stopped every stream of the process. Sampled with py-spy during
``benchmarks/chat_load.py`` on PostgreSQL, the event loop sat in ``Thread.start`` under
``ThreadSensitiveContext.__aexit__`` (docs/benchmarks.md).

The participant API (``/api/study/``) does no database work in those steps: its DRF views and
its chat run their database work on their own thread pool (``participant_api/db.py``) and it
authenticates by header, so no session is read or saved by the middleware. Its requests are
served by a handler of their own (``ParticipantAPIHandler``) that calls the middleware's hooks
on the event loop: each ``MiddlewareMixin`` hook costs a round trip to a thread otherwise
(about 15 per request, 50 to 80 us each, all queued on one thread behind every other stream's),
and the hooks of the configured middleware only read and set headers and cookies. The request
signals' receivers and the response's ``close`` (which sends ``request_finished``) are called
directly on the loop (``ParticipantAPIHandler.serve``) while every receiver connected is one
of Django's own (``LOOP_SAFE_RECEIVERS``: they reset the thread's query log, close the
thread's stale database connections, of which the loop's thread has none, close the context's
caches, which does nothing for Redis or the in-process cache, and reset the URLconf) and no middleware has a ``process_exception`` hook:
otherwise they run on one long-lived thread shared by these requests, as a receiver of unknown
cost must. Each hop to that thread cost about 130 us of CPU and a wait in its queue, three per
request, the first on the way to the model's first token. Every other request (admin, QA,
staff pages, whose middleware may use the session in the database) keeps Django's behaviour.

A chat stream (``SSEResponse``) is sent by ``participant_api/sse_send.py``: the same start
message, its events one body message each, and the keep-alive comments, without the generator
layers Django puts around every chunk of a streaming response (issue 16: the token relay was
the largest part of a message's CPU).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import closing
from typing import Any

from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction
from django.conf import settings
from django.core import signals
from django.core.cache import close_caches
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed, RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import reset_urlconf
from django.core.handlers.exception import convert_exception_to_response
from django.db import close_old_connections, reset_queries
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponseBase
from django.urls import set_script_prefix
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

from annotations.participant_api.sse import SSEResponse
from annotations.participant_api.sse_send import send_sse

PARTICIPANT_API_PREFIX = "/api/study/"

_participant_steps = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attune-request-steps")

# The request signals' receivers Django connects, none of which blocks on the loop's thread.
LOOP_SAFE_RECEIVERS = frozenset({reset_queries, close_old_connections, close_caches, reset_urlconf})

# Middleware of settings.MIDDLEWARE with nothing to do for a participant API request, left out of
# its chain (each cost a few microseconds per hook and per request object it builds): the API
# authenticates by header, so no session is read or saved and there is no Django user; its views
# are CSRF-exempt by design (no cookie carries the token); it shows no messages; and no path
# under /api/study/ is a static file. A participant API view that reads ``request.session`` or
# ``request.user`` fails at once (AttributeError). tests/participant/test_participant_middleware.py
# holds the answers to the same as with the whole list.
NOT_FOR_THE_PARTICIPANT_API = frozenset(
    {
        "attune_collect.static_files.AsyncCapableWhiteNoiseMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
    }
)


class _OnTheCallingThread(Executor):
    """Runs each call at once on the thread that submits it: the event loop's."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - the awaiting request gets it
            future.set_exception(error)
        return future


_on_the_loop_steps = _OnTheCallingThread()


def _loop_safe(signal: Signal, sender: type) -> bool:
    sync_receivers, async_receivers = signal._live_receivers(sender)
    return not async_receivers and all(r in LOOP_SAFE_RECEIVERS for r in sync_receivers)


class _SendsChatStreamsDirectly(ASGIHandler):
    async def send_response(self, response: Any, send: Any) -> None:
        if isinstance(response, SSEResponse) and response.events_unwrapped:
            await send_sse(response, send)
            return
        await super().send_response(response, send)


def _hooks_on_the_loop(middleware: type[MiddlewareMixin]) -> type[MiddlewareMixin]:
    """The middleware with its ``process_request``/``process_response`` called on the event
    loop (``MiddlewareMixin.__acall__`` hands each to a thread)."""

    async def call(self: MiddlewareMixin, request: HttpRequest) -> HttpResponseBase:
        response = self.process_request(request) if hasattr(self, "process_request") else None
        response = response or await self.get_response(request)  # type: ignore[misc]  # get_response is async here (the ASGI chain); stubs say sync
        if hasattr(self, "process_response"):
            response = self.process_response(request, response)
        return response

    return type(middleware.__name__, (middleware,), {"__call__": call})


def _on_the_loop(hook: Callable[..., Any]) -> Callable[..., Any]:
    """A synchronous ``process_view``/``process_template_response`` hook as a coroutine."""
    if iscoroutinefunction(hook):
        return hook

    async def call(*args: Any) -> Any:
        return hook(*args)

    return call


class ParticipantAPIHandler(_SendsChatStreamsDirectly):
    """The participant API's requests: settings.MIDDLEWARE in order but for
    ``NOT_FOR_THE_PARTICIPANT_API``, every hook on the loop.

    ``load_middleware`` differs from Django's (``BaseHandler.load_middleware`` in async mode)
    only in the middleware it leaves out and in how a synchronous hook is adapted.
    ``process_exception`` hooks stay synchronous: Django calls that stack on a thread, and only
    when a view raised.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Callable[..., Any]] = []
        self._template_response_middleware: list[Callable[..., Any]] = []
        self._exception_middleware: list[Callable[..., Any]] = []
        view_step = self._get_response_async  # type: ignore[attr-defined]  # not in django-stubs
        handler = convert_exception_to_response(view_step)
        for path in reversed(settings.MIDDLEWARE):
            if path in NOT_FOR_THE_PARTICIPANT_API:
                continue
            middleware = import_string(path)
            if issubclass(middleware, MiddlewareMixin):
                middleware = _hooks_on_the_loop(middleware)
            elif not getattr(middleware, "async_capable", False):
                raise ImproperlyConfigured(f"{path} must be async-capable or a MiddlewareMixin")
            try:
                instance = middleware(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, _on_the_loop(instance.process_view))
            if hasattr(instance, "process_template_response"):
                hook = _on_the_loop(instance.process_template_response)
                self._template_response_middleware.append(hook)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler

    def steps_executor(self) -> Executor:
        """Where this request's synchronous steps (request signals, the response's close) run:
        on the loop when nothing in them can block it, else on the shared steps thread."""
        sender = type(self)
        if (
            not self._exception_middleware
            and _loop_safe(signals.request_started, sender)
            and _loop_safe(signals.request_finished, sender)
        ):
            return _on_the_loop_steps
        return _participant_steps

    async def serve(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """A participant API request, its synchronous steps where ``steps_executor`` puts them
        (decided once per request): on the loop, called directly (``_handle_on_the_loop``), or
        on the shared steps thread by Django's own ``handle``."""
        executor = self.steps_executor()
        async with ThreadSensitiveContext(executor=executor):
            if executor is _on_the_loop_steps:
                await self._handle_on_the_loop(scope, receive, send)
            else:
                await self.handle(scope, receive, send)

    async def _handle_on_the_loop(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle``, step for step, but calling the request signals and
        the response's ``close`` directly: Django awaits each through ``sync_to_async``, which
        on the loop's own thread still builds a wrapper, copies the context in and back and
        chains a future per call (``benchmarks/request_hooks.py``)."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, error_response = self.create_request(scope, body_file)
            if request is None:  # Django's 400 or 413 answer instead
                assert error_response is not None
                await self.send_response(error_response, send)
                error_response.close()
                return
            response = await self._response_sent(request, receive, send)
            if response is None:  # the client went away first
                signals.request_finished.send(sender=self.__class__)
            else:
                response.close()  # sends request_finished

    async def _response_sent(
        self, request: HttpRequest, receive: Any, send: Any
    ) -> HttpResponseBase | None:
        """Get and send the response while listening for the client's disconnect, which
        cancels the view (a chat stream records the turn as disconnected), as Django does."""

        class RequestProcessed(Exception):
            pass

        response = None
        try:
            try:
                async with asyncio.TaskGroup() as tasks:
                    tasks.create_task(self.listen_for_disconnect(receive))
                    response = await self.run_get_response(request)
                    await self.send_response(response, send)
                    raise RequestProcessed
            except* (RequestProcessed, RequestAborted):
                pass
        except BaseExceptionGroup as exception_group:
            if len(exception_group.exceptions) == 1:
                raise exception_group.exceptions[0] from None  # the group only wrapped it
            raise
        return response


class AttuneASGIHandler(_SendsChatStreamsDirectly):
    def __init__(self) -> None:
        super().__init__()
        self.participant_api = ParticipantAPIHandler()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PARTICIPANT_API_PREFIX):
            await self.participant_api.serve(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
