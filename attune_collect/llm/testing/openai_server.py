"""A local OpenAI-compatible chat server for tests and load benchmarks.

Real HTTP on 127.0.0.1 (a raw ASGI app under uvicorn, in a background thread with its own event
loop), so litellm, httpx and the gateway are exercised exactly as against a provider: status
codes, headers, server-sent events and broken connections. Nothing here talks to the internet.

    with run_test_server() as server:
        server.behaviour.rate_limit(retry_after=2).server_error()
        ...  # call model "openai/test-model" with api_base=server.base_url

Faults are a script consumed in arrival order, one per chat request; once the script is empty
every request gets the default reply.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import uvicorn

__all__ = ["Behaviour", "Fault", "TestServer", "default_reply", "run_test_server"]

ReplyFunction = Callable[[dict[str, Any]], str]
FaultKind = Literal[
    "ok", "rate_limit", "server_error", "stall", "cut_stream", "bad_json", "bad_body", "status"
]

_TOKEN_PATTERN = re.compile(r"\S+\s*")
# What bad_json() answers: the kind of almost-JSON a careless model writes.
BAD_JSON_REPLY = "Sure! {emotion: scared,, intensity: "
# What bad_body() sends as the HTTP body (or as a stream event's data): not JSON at all, as a
# broken proxy or an overloaded server's HTML error page would be.
BAD_BODY = "<html><body>502 Bad Gateway</body></html>"
_Send = Callable[[dict[str, Any]], Awaitable[None]]
_Receive = Callable[[], Awaitable[dict[str, Any]]]


def default_reply(body: dict[str, Any]) -> str:
    """A short, deterministic reply that quotes the last user message."""
    last_user = next(
        (m for m in reversed(body.get("messages", [])) if m.get("role") == "user"),
        {"content": ""},
    )
    words = str(last_user.get("content", "")).split()[:12]
    return "Test server reply to: " + " ".join(words)


def split_tokens(text: str) -> list[str]:
    """Word-sized chunks that concatenate back to the text (leading whitespace kept)."""
    head = text[: len(text) - len(text.lstrip())]
    tokens = _TOKEN_PATTERN.findall(text)
    if head and tokens:
        tokens[0] = head + tokens[0]
    return tokens or ([text] if text else [])


@dataclass(frozen=True)
class Fault:
    """One scripted reaction to one chat request."""

    kind: FaultKind
    retry_after: float | None = None
    seconds: float = 0.0
    after_tokens: int = 0
    status: int = 500
    message: str = "Scripted upstream failure"


class Behaviour:
    """What the server does; tests change it while the server runs (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[Fault] = deque()
        self._generation = 0  # bumped by reset(): requests from before it no longer count
        self.requests: list[dict[str, Any]] = []  # chat request bodies, in arrival order
        self.request_headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.latency_s = 0.0  # before the first byte of every chat answer
        self.token_delay_s = 0.0  # between streamed tokens
        self.reply: ReplyFunction = default_reply
        self.model_name: str | None = None  # None: echo the requested model
        # hold(): answers wait before their first byte until release() (a barrier, no sleeps)
        self._held = False
        self._holding: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    # -- holding answers ----------------------------------------------------------------------

    def hold(self) -> Behaviour:
        """Every chat request from now on is admitted (``in_flight`` counts it) and then
        waits, saying nothing, until ``release()``: streams held open as long as a test needs."""
        with self._lock:
            self._held = True
        return self

    def release(self) -> None:
        """Let every held request (and every later one) answer."""
        with self._lock:
            self._held = False
            holding, self._holding = self._holding, []
        for loop, released in holding:
            loop.call_soon_threadsafe(released.set)

    def _held_until(self) -> asyncio.Event | None:
        """The event a request waits for while answers are held (None: answer now)."""
        with self._lock:
            if not self._held:
                return None
            released = asyncio.Event()
            self._holding.append((asyncio.get_running_loop(), released))
            return released

    # -- the fault script (each method returns self so calls chain) --------------------------

    def script(self, *faults: Fault) -> Behaviour:
        with self._lock:
            self._script.extend(faults)
        return self

    def ok(self, times: int = 1) -> Behaviour:
        """A normal answer: useful to place a fault after N good requests."""
        return self.script(*[Fault("ok")] * times)

    def rate_limit(self, retry_after: float | None = 1.0, times: int = 1) -> Behaviour:
        """429 with a Retry-After header (seconds; omitted when None)."""
        return self.script(*[Fault("rate_limit", retry_after=retry_after)] * times)

    def server_error(self, times: int = 1, status: int = 500) -> Behaviour:
        return self.script(*[Fault("server_error", status=status)] * times)

    def status(
        self, status: int, times: int = 1, message: str = "Scripted upstream failure"
    ) -> Behaviour:
        """Any error status with an OpenAI-style error body (401, 400, 503...)."""
        return self.script(*[Fault("status", status=status, message=message)] * times)

    def stall(self, seconds: float, times: int = 1) -> Behaviour:
        """Say nothing for `seconds`, then answer normally; a client that gives up first
        (a timeout) ends the request early."""
        return self.script(*[Fault("stall", seconds=seconds)] * times)

    def cut_stream(self, after_tokens: int, times: int = 1) -> Behaviour:
        """Send `after_tokens` chunks, then drop the connection without [DONE]."""
        return self.script(*[Fault("cut_stream", after_tokens=after_tokens)] * times)

    def bad_json(self, times: int = 1) -> Behaviour:
        """A normal 200 answer whose message content is not valid JSON."""
        return self.script(*[Fault("bad_json")] * times)

    def bad_body(self, times: int = 1) -> Behaviour:
        """A 200 answer whose body is not JSON (a streamed answer: a first event that is not)."""
        return self.script(*[Fault("bad_body")] * times)

    def reset(self) -> None:
        """Back to defaults with empty logs, so one server can serve many tests."""
        with self._lock:
            self._generation += 1
            self._script.clear()
            self.requests.clear()
            self.request_headers.clear()
            self.in_flight = 0
            self.max_in_flight = 0
            self.latency_s = 0.0
            self.token_delay_s = 0.0
            self.reply = default_reply
            self.model_name = None
        self.release()

    # -- used by the server -----------------------------------------------------------------

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    @property
    def pending_faults(self) -> int:
        with self._lock:
            return len(self._script)

    def _admit(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[Fault, int]:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            fault = self._script.popleft() if self._script else Fault("ok")
            return fault, self._generation

    def _release(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self.in_flight -= 1


class _DeliberateDisconnect(Exception):
    """Raised inside the app to make uvicorn drop the connection mid-response."""


class _HideDeliberateDisconnects(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, _DeliberateDisconnect)


class _ChatApp:
    """The raw ASGI application: small enough to read, fast enough for hundreds of streams."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self._ids = itertools.count(1)
        # One event per open chat request, set when its client leaves or the server stops,
        # so stalls and latencies never outlive the test that asked for them.
        self._aborts: set[asyncio.Event] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def abort_all(self) -> None:
        """Wake every pausing request (called from the test thread via the server loop)."""
        for abort in list(self._aborts):
            abort.set()

    async def __call__(self, scope: dict[str, Any], receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":  # lifespan is off; websockets are not served
            return
        self.loop = self.loop or asyncio.get_running_loop()
        path, method = scope["path"].rstrip("/"), scope["method"]
        if method == "GET" and path == "/v1/models":
            model = {"id": "test-model", "object": "model", "created": 0, "owned_by": "attune"}
            await _send_json(send, 200, {"object": "list", "data": [model]})
        elif method == "POST" and path == "/v1/chat/completions":
            body = await _read_json(receive)
            if body is None:
                await _send_error(send, 400, "request body is not JSON", "invalid_request_error")
                return
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            fault, generation = self.behaviour._admit(body, headers)
            abort = asyncio.Event()
            self._aborts.add(abort)
            watcher = asyncio.create_task(_set_on_disconnect(receive, abort))
            try:
                await self._chat(body, fault, send, abort)
            finally:
                watcher.cancel()
                self._aborts.discard(abort)
                self.behaviour._release(generation)
        else:
            await _send_error(send, 404, f"no route for {method} {path}", "not_found_error")

    async def _chat(
        self, body: dict[str, Any], fault: Fault, send: _Send, abort: asyncio.Event
    ) -> None:
        if fault.kind == "rate_limit":
            headers = (
                [] if fault.retry_after is None else [("retry-after", f"{fault.retry_after:g}")]
            )
            await _send_error(send, 429, "Rate limit reached", "rate_limit_error", headers)
            return
        if fault.kind in ("server_error", "status"):
            await _send_error(send, fault.status, fault.message, "server_error")
            return
        if fault.kind == "stall":
            await _pause(fault.seconds, abort)
        released = self.behaviour._held_until()
        if released is not None:
            await _held(released, abort)
        await _pause(self.behaviour.latency_s, abort)
        if fault.kind == "bad_body":
            await _send_bad_body(send, streaming=bool(body.get("stream")))
            return

        text = BAD_JSON_REPLY if fault.kind == "bad_json" else self.behaviour.reply(body)
        tokens = split_tokens(text)
        model = self.behaviour.model_name or str(body.get("model", "test-model"))
        reply_id = f"chatcmpl-test-{next(self._ids)}"
        usage = {
            "prompt_tokens": _count_prompt_tokens(body),
            "completion_tokens": len(tokens),
            "total_tokens": _count_prompt_tokens(body) + len(tokens),
        }
        if body.get("stream"):
            cut_after = fault.after_tokens if fault.kind == "cut_stream" else None
            await self._stream(send, reply_id, model, tokens, usage, body, cut_after, abort)
        else:
            if fault.kind == "cut_stream":
                await _start(send, 200, "application/json", [("content-length", "4096")])
                await send({"type": "http.response.body", "body": b'{"id": "', "more_body": True})
                raise _DeliberateDisconnect
            await _pause(self.behaviour.token_delay_s * len(tokens), abort)
            await _send_json(send, 200, _completion_body(reply_id, model, text, usage))

    async def _stream(
        self,
        send: _Send,
        reply_id: str,
        model: str,
        tokens: list[str],
        usage: dict[str, int],
        body: dict[str, Any],
        cut_after: int | None,
        abort: asyncio.Event,
    ) -> None:
        await _start(send, 200, "text/event-stream", [("cache-control", "no-cache")])
        created = int(time.time())

        async def event(payload: dict[str, Any] | str) -> None:
            data = payload if isinstance(payload, str) else json.dumps(payload)
            await send(
                {
                    "type": "http.response.body",
                    "body": f"data: {data}\n\n".encode(),
                    "more_body": True,
                }
            )

        def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return {
                "id": reply_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [choice],
            }

        for index, token in enumerate(tokens):
            if cut_after is not None and index >= cut_after:
                raise _DeliberateDisconnect
            if index:
                await _pause(self.behaviour.token_delay_s, abort)
            delta = {"role": "assistant", "content": token} if index == 0 else {"content": token}
            await event(chunk(delta, None))
        if cut_after is not None:  # the reply was shorter than the cut point: cut at the end
            raise _DeliberateDisconnect
        await event(chunk({}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage_chunk = chunk({}, None) | {"choices": [], "usage": usage}
            await event(usage_chunk)
        await event("[DONE]")
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _set_on_disconnect(receive: _Receive, abort: asyncio.Event) -> None:
    """The request body is already read, so the next message is the client leaving."""
    while (await receive())["type"] != "http.disconnect":
        pass
    abort.set()


async def _pause(seconds: float, abort: asyncio.Event) -> None:
    """Sleep, unless the client leaves or the server stops first: then drop the request."""
    if seconds <= 0:
        return
    try:
        await asyncio.wait_for(abort.wait(), timeout=seconds)
    except TimeoutError:
        return
    raise _DeliberateDisconnect


async def _held(released: asyncio.Event, abort: asyncio.Event) -> None:
    """Wait for the release, unless the client leaves or the server stops first."""
    release = asyncio.ensure_future(released.wait())
    aborted = asyncio.ensure_future(abort.wait())
    try:
        await asyncio.wait([release, aborted], return_when=asyncio.FIRST_COMPLETED)
    finally:
        release.cancel()
        aborted.cancel()
    if abort.is_set():
        raise _DeliberateDisconnect


async def _send_bad_body(send: _Send, *, streaming: bool) -> None:
    if streaming:
        await _start(send, 200, "text/event-stream", [("cache-control", "no-cache")])
        data = f"data: {BAD_BODY}\n\n".encode()
    else:
        data = BAD_BODY.encode()
        await _start(send, 200, "application/json", [("content-length", str(len(data)))])
    await send({"type": "http.response.body", "body": data, "more_body": False})


def _count_prompt_tokens(body: dict[str, Any]) -> int:
    return sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))


def _completion_body(reply_id: str, model: str, text: str, usage: dict[str, int]) -> dict[str, Any]:
    return {
        "id": reply_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": usage,
    }


async def _read_json(receive: _Receive) -> dict[str, Any] | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    try:
        body = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


async def _start(
    send: _Send, status: int, content_type: str, extra: list[tuple[str, str]] | None = None
) -> None:
    headers = [("content-type", content_type), *(extra or [])]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(k.encode(), v.encode()) for k, v in headers],
        }
    )


async def _send_json(
    send: _Send, status: int, payload: dict[str, Any], extra: list[tuple[str, str]] | None = None
) -> None:
    data = json.dumps(payload).encode()
    await _start(
        send, status, "application/json", [("content-length", str(len(data))), *(extra or [])]
    )
    await send({"type": "http.response.body", "body": data, "more_body": False})


async def _send_error(
    send: _Send,
    status: int,
    message: str,
    error_type: str,
    extra: list[tuple[str, str]] | None = None,
) -> None:
    error = {"message": message, "type": error_type, "param": None, "code": str(status)}
    await _send_json(send, status, {"error": error}, extra)


class TestServer:
    """A running server: `base_url` ends in /v1, ready for `api_base`."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, behaviour: Behaviour | None = None) -> None:
        self.behaviour = behaviour or Behaviour()
        self._app = _ChatApp(self.behaviour)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted sockets inherit this on Linux. Without it every keep-alive response paid
        # a 40 ms Nagle / delayed-ACK stall (headers and body are separate writes).
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket.bind(("127.0.0.1", 0))  # port 0: the OS picks a free port, no races
        self.port: int = self._socket.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        config = uvicorn.Config(
            self._app,
            log_config=None,  # leave the host's logging alone
            access_log=False,
            lifespan="off",
            backlog=4096,  # load benchmarks open hundreds of connections at once
            timeout_keep_alive=30,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._log_filter = _HideDeliberateDisconnects()

    @property
    def request_count(self) -> int:
        return self.behaviour.request_count

    def start(self) -> TestServer:
        logging.getLogger("uvicorn.error").addFilter(self._log_filter)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._socket]},
            name=f"openai-test-server-{self.port}",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the OpenAI test server did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        self._server.should_exit = True
        if self._app.loop is not None:
            self._app.loop.call_soon_threadsafe(self._app.abort_all)
        self._thread.join(timeout=10)
        self._thread = None
        self._socket.close()
        logging.getLogger("uvicorn.error").removeFilter(self._log_filter)


@contextmanager
def run_test_server(
    reply: ReplyFunction | None = None,
    *,
    latency_s: float = 0.0,
    token_delay_s: float = 0.0,
) -> Iterator[TestServer]:
    """Start a server on a free 127.0.0.1 port for the duration of the block."""
    server = TestServer()
    if reply is not None:
        server.behaviour.reply = reply
    server.behaviour.latency_s = latency_s
    server.behaviour.token_delay_s = token_delay_s
    server.start()
    try:
        yield server
    finally:
        server.stop()
