"""The direct transport: OpenAI's chat-completions protocol over one shared HTTP client.

Built on aiohttp, whose HTTP parser is compiled, without an SDK's layers:
`benchmarks/eval_throughput.py`'s probe measured the client CPU per call of bare aiohttp,
bare httpx2 (the client the OpenAI SDK runs on, which this transport used before) and the
OpenAI SDK (`AsyncOpenAI`, shared client, its retries off) in one run, and the choice follows
those figures (docs/benchmarks.md, "Evaluation engine throughput": 0.25 ms per call against
1.53 and 3.62). A streamed reply costs the same per chunk: httpx2 parses every chunk of the body in pure Python
(h11), which was the largest single part of relaying a chat reply.

One client session per event loop (a session's connections belong to the loop that opened
them), so in the web process and in an engine worker it is the process's, keeping its
connections alive across calls. Its pool is unbounded: the gateway's concurrency limit decides
how many calls are in flight. Retries are the gateway's; this module makes exactly one HTTP
request per attempt and reports failures as ``TransportFailure`` with the gateway's error kinds.
"""

from __future__ import annotations

import asyncio
import os
import ssl
import threading
import urllib.request
import weakref
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import orjson

from .errors import SECRETS, kind_for_status
from .prices import default_price_book
from .transport import CallRequest, Piece, Reply, TransportFailure, provider_of, wire_model

OPENAI_API_BASE = "https://api.openai.com/v1"
_KEEPALIVE_S = 60.0
_MAX_ERROR_BODY = 2000


class DirectTransport:
    name = "direct"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # A session holds its loop, so a weak mapping would never let go of either: the
        # sessions of loops that have ended are dropped when the next loop makes its own, and
        # when the transport itself goes (collected, or the process exits).
        self._sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}
        weakref.finalize(self, _let_go_of_all, self._sessions, self._lock)

    def ready(self) -> None:
        ssl_context()

    # -- the two calls ---------------------------------------------------------------------

    async def complete(self, request: CallRequest) -> Reply:
        url, headers, body = _http_request(request)
        try:
            async with self._session().post(
                url, data=body, headers=headers, timeout=_timeout(request.timeout_s)
            ) as response:
                content = await response.read()
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _transport_failure(exc) from None
        if response.status >= 400:
            raise _status_failure(response.status, content, response.headers)
        data = _json_or_fail(content, "the response body is not JSON")
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
            async with self._session().post(
                url, data=body, headers=headers, timeout=_timeout(request.timeout_s)
            ) as response:
                if response.status >= 400:
                    raise _status_failure(response.status, await response.read(), response.headers)
                async for piece in _pieces(response.content):
                    yield piece
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _transport_failure(exc) from None

    # -- the shared client -----------------------------------------------------------------

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None or session.closed:
            with self._lock:
                session = self._sessions.get(loop)
                if session is None or session.closed:
                    _forget_ended_loops(self._sessions)
                    session = self._sessions[loop] = _new_session()
        return session

    def forget_ended_loops(self) -> None:
        """What the transport does when the next loop starts (tests)."""
        with self._lock:
            _forget_ended_loops(self._sessions)

    async def aclose(self) -> None:
        """Close this loop's session (tests and benchmarks that end their loop cleanly)."""
        with self._lock:
            session = self._sessions.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()


def _forget_ended_loops(sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession]) -> None:
    """Let go of the sessions of loops that have ended (``asyncio.run`` per Celery task, per
    engine run, per test). Their connections ended with the loop; aiohttp would log each
    session as an error ("Unclosed client session") when it is collected. The caller holds
    the sessions' lock: loops of other threads come and go."""
    for loop in [loop for loop in sessions if loop.is_closed()]:
        _let_go(sessions.pop(loop))


def _let_go_of_all(
    sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession], lock: threading.Lock
) -> None:
    """The transport is going (collected, or the process exits): nothing can use its sessions,
    whether their loops have ended or not."""
    with lock:
        while sessions:
            _let_go(sessions.popitem()[1])


def _let_go(session: aiohttp.ClientSession) -> None:
    """Close a session without awaiting its loop (``close()`` is a coroutine of that loop,
    which may have ended): the connector's synchronous half closes its connections, or only
    marks it closed once its loop is."""
    connector = session.connector
    session.detach()
    if connector is not None:
        connector._close()


def _new_session() -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(
        limit=0,  # the gateway limits the calls in flight
        keepalive_timeout=_KEEPALIVE_S,
        ssl=ssl_context(),
    )
    # A proxy from the environment (HTTPS_PROXY, NO_PROXY...) is honoured, as httpx does, but
    # only looked for per request where one is set: aiohttp's trust_env reads the environment
    # and ~/.netrc again for every request.
    return aiohttp.ClientSession(
        connector=connector, trust_env=bool(urllib.request.getproxies()), raise_for_status=False
    )


def _timeout(seconds: float) -> aiohttp.ClientTimeout:
    """Connecting only. The gateway bounds the rest itself: a whole completion, and each wait
    for a stream's next piece. A read timeout here too would reset one more timer for every
    chunk of every stream (about 2% of the chat's CPU in a profile)."""
    return aiohttp.ClientTimeout(total=None, connect=seconds)


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


def prepare_direct_transport() -> None:
    """Do the one-off work of the first call now (web process start-up, test sessions)."""
    ssl_context()
    default_price_book().warm()


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


async def _pieces(body: aiohttp.StreamReader) -> AsyncIterator[Piece]:
    """Server-sent events to pieces: one JSON chunk per ``data:`` line, until ``[DONE]``."""
    pending = b""
    async for data in body.iter_any():
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


def _transport_failure(exc: aiohttp.ClientError | TimeoutError) -> TransportFailure:
    if isinstance(exc, TimeoutError):  # aiohttp's own timeouts subclass it
        return TransportFailure("timeout", f"no response within the timeout ({type(exc).__name__})")
    detail = str(exc) or type(exc).__name__
    return TransportFailure("connection", f"connection error: {detail}")


def _text(value: Any) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text[:_MAX_ERROR_BODY]
