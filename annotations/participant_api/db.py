"""Database access from the participant API without a thread and a connection per request.

Under uvicorn, Django runs a synchronous view in a thread of its own that ends with the request,
so its database connection could never be reused. The participant API therefore runs all its
synchronous work on a small, fixed pool of threads (``run_in_db_thread``): the streaming chat's
short steps before and after each stream, and the DRF endpoints themselves (``on_db_pool``).
Each pool thread keeps its connection between steps, so hundreds of participants use at most
``DB_THREADS`` connections per web process and pay no connection set-up per request.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager, suppress
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpResponse

# Enough for the short steps of hundreds of streams (each takes a few milliseconds) while
# staying far below PostgreSQL's connection limit with several web processes.
DB_THREADS = 8

_executor = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="attune-participant-db")
_sqlite_writer = threading.Lock()


@contextmanager
def one_writer_at_a_time() -> Iterator[None]:
    """On SQLite, let this process's participant writes take turns on a Python lock.

    SQLite admits one writer at a time anyway, but a writer that finds the database locked
    waits in SQLite's busy handler, which sleeps in steps of up to 100 ms: under load a few
    writes waited over half a second (measured). A lock wakes the next writer at once. Hold
    it only around the write (``write``): everything inside queues every other participant.
    PostgreSQL writes in parallel: no lock there.
    """
    if connection.vendor != "sqlite":
        yield
        return
    with _sqlite_writer:
        yield


def write[T](function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a service that writes, taking SQLite's one writer turn just for the call (reads and
    serialising the answer stay outside: the turn is the bottleneck of the embedded setup)."""
    with one_writer_at_a_time():
        return function(*args, **kwargs)


def _pooled[T](function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    if connection.errors_occurred:
        # The last step hit a database error (a restarted server...): keep the connection only
        # if it still works. Otherwise a pool thread keeps its connection for good.
        connection.close_if_unusable_or_obsolete()
    return function(*args, **kwargs)


async def run_in_db_thread[T](function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a synchronous database step on the pool (never on the event loop).

    A plain executor call, not asgiref's ``sync_to_async``, which copies the request's context
    variables into the thread and the thread's changes back after every call: 34 us of a hop's
    139 us of CPU (``benchmarks/request_steps.py``), three hops per chat message. Nothing on the
    pool needs the request's context: a step gets what it works on as arguments, Django's
    database connections are per thread anyway, and its cache handler then keeps one backend
    object per pool thread rather than building one per request.
    """
    call = functools.partial(_pooled, function, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_executor, call)


def on_db_pool(view: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A synchronous view as an async one whose body runs on the pool, response rendered there.

    Under ASGI (uvicorn) the view runs on a pool thread. A request from Django's synchronous
    test client runs on the caller's thread instead, as Django would run the view, so it shares
    the test's transaction. The response is rendered on the thread and handed back as a plain
    ``HttpResponse``: Django would otherwise render a DRF response in a thread of its own again.
    """

    def rendered(request: Any, *args: Any, **kwargs: Any) -> Any:
        return _plain(view(request, *args, **kwargs))

    @functools.wraps(view)
    async def pooled(request: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(request, ASGIRequest):
            return await run_in_db_thread(rendered, request, *args, **kwargs)
        return await sync_to_async(rendered, thread_sensitive=True)(request, *args, **kwargs)

    return pooled


def _plain(response: Any) -> Any:
    render = getattr(response, "render", None)
    if render is None:
        return response
    render()
    plain = HttpResponse(response.content, status=response.status_code)
    for header, value in response.items():
        plain[header] = value
    plain.cookies = response.cookies
    return plain


def close_pool_connections(timeout: float = 10.0) -> None:
    """Close the connection of every pool thread (tests, before their database is dropped).

    One job per thread: each waits at a barrier until all are running, so no thread takes two.
    """
    barrier = threading.Barrier(DB_THREADS, timeout=timeout)

    def close() -> None:
        with suppress(threading.BrokenBarrierError):  # a busy thread: close the others anyway
            barrier.wait()
        connection.close()

    wait([_executor.submit(close) for _ in range(DB_THREADS)], timeout=timeout * 2)
