"""WhiteNoise, without making every asynchronous request synchronous.

``whitenoise.middleware.WhiteNoiseMiddleware`` is synchronous only. Under uvicorn, Django then
adapts the whole middleware chain around it: every request, the streaming chat included, is
handed to a thread and back before it reaches its view. Under the chat load benchmark
(200 open streams in one process) those hand-offs were the largest part of the time to the
first token (docs/benchmarks.md).

This subclass is both sync- and async-capable. Under WSGI it is WhiteNoise unchanged. Under
ASGI it looks the path up in WhiteNoise's in-memory table (no I/O) and only a static file is
served from a thread; every other request goes on to the next middleware without leaving the
event loop.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware


class AsyncCapableWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(get_response, *args, **kwargs)
        self._is_async = get_response is not None and iscoroutinefunction(get_response)
        if self._is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self._is_async:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:  # development: finding a file reads the disk
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:  # production: the table was built at start-up
            static_file = self.files.get(request.path_info)
        if static_file is None:
            return await self.get_response(request)
        # Opening and stat-ing the file is blocking I/O: keep it off the event loop.
        return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
