"""The direct transport: OpenAI's chat-completions protocol over one shared HTTP client.

Built on httpx2, the HTTP client the OpenAI SDK itself runs on, without the SDK's layers:
`benchmarks/eval_throughput.py`'s probe measured the client CPU per call of this transport
against the OpenAI SDK (`AsyncOpenAI`, shared client, its retries off) and bare httpx2 in one
run (docs/benchmarks.md), and the choice follows those figures.

HTTP clients per event loop (a client's connection pool belongs to the loop that opened its
connections), so in the web process and in an engine worker they are the process's, keeping
their connections alive across calls. Their pools are unbounded: the gateway's concurrency
limit decides how many calls are in flight. The loop's requests take its ``POOL_SHARDS``
clients in turn: httpcore's pool scans every one of its connections (with a syscall per idle
one) each time a request starts or ends, so one pool of 192 connections made that scan about
30% of an engine run's CPU (py-spy, docs/benchmarks.md); shards of a few dozen make it small. Retries are the gateway's; this module makes
exactly one HTTP request per attempt and reports failures as ``TransportFailure`` with the
gateway's error kinds.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import ssl
import threading
import weakref
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx2
import orjson

from .errors import SECRETS, kind_for_status
from .prices import default_price_book
from .transport import CallRequest, Piece, Reply, TransportFailure, provider_of, wire_model

OPENAI_API_BASE = "https://api.openai.com/v1"
_KEEPALIVE_S = 60.0
POOL_SHARDS = 8
_MAX_ERROR_BODY = 2000


class DirectTransport:
    name = "direct"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Shards] = (
            weakref.WeakKeyDictionary()
        )

    def ready(self) -> None:
        ssl_context()

    # -- the two calls ---------------------------------------------------------------------

    async def complete(self, request: CallRequest) -> Reply:
        url, headers, body = _http_request(request)
        try:
            response = await self._client().post(
                url, content=body, headers=headers, timeout=request.timeout_s
            )
        except httpx2.HTTPError as exc:
            raise _transport_failure(exc) from None
        if response.status_code >= 400:
            raise _status_failure(response.status_code, response.content, response.headers)
        data = _json_or_fail(response.content, "the response body is not JSON")
        choices = data.get("choices") or []
        choice = choices[0] if choices and isinstance(choices[0], dict) else {}
        message = choice.get("message") or {}
        prompt_tokens, completion_tokens = _usage(data.get("usage"))
        return Reply(
            text=message.get("content") or "",
            finish_reason=choice.get("finish_reason"),
            prompt_tokens=prompt_tokens or 0,
            completion_tokens=completion_tokens or 0,
            model=data.get("model"),
        )

    async def stream(self, request: CallRequest) -> AsyncIterator[Piece]:
        url, headers, body = _http_request(request)
        try:
            async with self._client().stream(
                "POST", url, content=body, headers=headers, timeout=request.timeout_s
            ) as response:
                if response.status_code >= 400:
                    raise _status_failure(
                        response.status_code, await response.aread(), response.headers
                    )
                async for piece in _pieces(response):
                    yield piece
        except httpx2.HTTPError as exc:
            raise _transport_failure(exc) from None

    # -- the shared client -----------------------------------------------------------------

    def _client(self) -> httpx2.AsyncClient:
        loop = asyncio.get_running_loop()
        shards = self._clients.get(loop)
        if shards is None:
            with self._lock:
                shards = self._clients.get(loop)
                if shards is None:
                    shards = self._clients[loop] = _Shards()
        return shards.next()

    async def aclose(self) -> None:
        """Close this loop's clients (tests and benchmarks that end their loop cleanly)."""
        shards = self._clients.pop(asyncio.get_running_loop(), None)
        if shards is not None:
            for client in shards.clients:
                await client.aclose()


class _Shards:
    """``POOL_SHARDS`` clients of one event loop, taken in turn (only that loop uses them)."""

    def __init__(self) -> None:
        self.clients = [_new_client() for _ in range(POOL_SHARDS)]
        self._turn = 0

    def next(self) -> httpx2.AsyncClient:
        self._turn = (self._turn + 1) % len(self.clients)
        return self.clients[self._turn]


def _new_client() -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        verify=ssl_context(),
        limits=httpx2.Limits(
            max_connections=None, max_keepalive_connections=None, keepalive_expiry=_KEEPALIVE_S
        ),
        timeout=None,  # every request passes its own
        follow_redirects=False,
    )


_ssl_lock = threading.Lock()
_ssl_context: ssl.SSLContext | None = None


def ssl_context() -> ssl.SSLContext:
    """The process's TLS context. Loading the CA bundle takes 0.2 to 0.5 s here, which httpx
    would pay for every client; ``prepare_direct_transport`` pays it once, before any call."""
    global _ssl_context
    if _ssl_context is None:
        with _ssl_lock:
            if _ssl_context is None:
                _ssl_context = ssl.create_default_context()
    return _ssl_context


# Imported by httpx2 and anyio on the first client or call, not when they are imported.
_LAZY_IMPORTS = ("httpcore2", "anyio._backends._asyncio")


def prepare_direct_transport() -> None:
    """Do the one-off work of the first call now (web process start-up, test sessions)."""
    ssl_context()
    default_price_book().warm()
    # httpx2 imports its connection pool, and anyio its asyncio backend, on the first client
    # or call: 20 to 40 ms of import that would otherwise stop every stream of the process on
    # the first chat message after start-up (seen with py-spy in benchmarks/chat_load.py).
    for module in _LAZY_IMPORTS:
        importlib.import_module(module)


def _http_request(request: CallRequest) -> tuple[str, dict[str, str], bytes]:
    endpoint = request.endpoint
    base = endpoint.api_base or _default_api_base()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    api_key = request.api_key
    if api_key is None and provider_of(endpoint.model) == "openai":
        api_key = os.environ.get("OPENAI_API_KEY") or None  # what litellm and the SDK read
        if api_key:
            SECRETS.add(api_key)
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    payload: dict[str, Any] = {
        **request.params,
        "model": wire_model(endpoint.model),
        "messages": request.messages,
    }
    if request.stream:
        payload["stream"] = True
        payload.setdefault("stream_options", {"include_usage": True})
    return f"{base.rstrip('/')}/chat/completions", headers, orjson.dumps(payload)


def _default_api_base() -> str:
    return os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_BASE") or OPENAI_API_BASE


async def _pieces(response: httpx2.Response) -> AsyncIterator[Piece]:
    """Server-sent events to pieces: one JSON chunk per ``data:`` line, until ``[DONE]``."""
    pending = b""
    async for data in response.aiter_bytes():
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if not line.startswith(b"data:"):
                continue  # blank separators, comments, event names
            payload = line[5:].strip()
            if payload == b"[DONE]":
                return
            if payload:
                yield _piece(_json_or_fail(payload, "a stream event is not JSON"))


def _piece(chunk: dict[str, Any]) -> Piece:
    error = chunk.get("error")
    if error:  # some servers report a failure inside a 200 stream
        raise TransportFailure("upstream_error", f"the stream reported an error: {_text(error)}")
    prompt_tokens, completion_tokens = _usage(chunk.get("usage"))
    choices = chunk.get("choices")
    if not choices:
        return Piece("", None, prompt_tokens, completion_tokens, chunk.get("model"))
    choice = choices[0]
    delta = choice.get("delta") or {}
    return Piece(
        delta.get("content") or "",
        choice.get("finish_reason"),
        prompt_tokens,
        completion_tokens,
        chunk.get("model"),
    )


def _usage(usage: Any) -> tuple[int | None, int | None]:
    if not isinstance(usage, dict):
        return None, None
    return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)


def _json_or_fail(content: bytes, what: str) -> dict[str, Any]:
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError:
        raise TransportFailure("upstream_error", f"{what}: {_text(content)}") from None
    if not isinstance(data, dict):
        raise TransportFailure("upstream_error", f"{what} object: {_text(content)}")
    return data


def _status_failure(status: int, content: bytes, headers: Mapping[str, str]) -> TransportFailure:
    try:
        error = orjson.loads(content).get("error")
        message = error.get("message") if isinstance(error, dict) else error
    except (orjson.JSONDecodeError, AttributeError):
        message = None
    return TransportFailure(
        kind_for_status(status) or "upstream_error",
        f"HTTP {status}: {_text(message or content)}",
        status_code=status,
        response_headers=dict(headers),
    )


def _transport_failure(exc: httpx2.HTTPError) -> TransportFailure:
    if isinstance(exc, httpx2.TimeoutException):
        return TransportFailure("timeout", f"no response within the timeout ({type(exc).__name__})")
    detail = str(exc) or type(exc).__name__
    return TransportFailure("connection", f"connection error: {detail}")


def _text(value: Any) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text[:_MAX_ERROR_BODY]
