"""A local webhook receiver for tests (loopback only): it records what it receives, checks
each request's signature with the secret it is given, and can answer 500 a number of times.

    with WebhookReceiver() as receiver:
        receiver.secret = secret          # verifies against it
        receiver.fail_next(2)             # the next two requests get 500
        ... deliver to receiver.url ...
        receiver.received[0].verified     # True when the signature matched

``hold`` keeps each request from being answered until ``release`` (a threading.Event): a test
can have a send in flight while it tries something else, with no sleep.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from webhooks import signing


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    verified: bool
    status: int

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class _State:
    secret: str | None = None
    failures_left: int = 0
    fail_status: int = 500
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    hold: threading.Event | None = None
    arrived: threading.Event = field(default_factory=threading.Event)


class WebhookReceiver:
    def __init__(self) -> None:
        self._record = _State()
        state = self._record

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                verified = False
                if state.secret is not None:
                    try:
                        signing.verify(state.secret, headers, body)
                        verified = True
                    except signing.VerificationError:
                        verified = False
                state.arrived.set()
                if state.hold is not None:
                    state.hold.wait(10)
                with state.lock:
                    status = 200
                    if state.failures_left > 0:
                        state.failures_left -= 1
                        status = state.fail_status
                    state.received.append(Received(headers, body, verified, status))
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status == 200 else b"failing on purpose")

            def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/hook"

    @property
    def secret(self) -> str | None:
        return self._record.secret

    @secret.setter
    def secret(self, value: str | None) -> None:
        self._record.secret = value

    @property
    def received(self) -> list[Received]:
        with self._record.lock:
            return list(self._record.received)

    @property
    def arrived(self) -> threading.Event:
        """Set when a request has arrived (before it is answered)."""
        return self._record.arrived

    def fail_next(self, times: int, status: int = 500) -> None:
        with self._record.lock:
            self._record.failures_left, self._record.fail_status = times, status

    def hold(self) -> threading.Event:
        """Answer no request until the returned event is set."""
        self._record.hold = threading.Event()
        return self._record.hold

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._record.hold is not None:
            self._record.hold.set()
        self._server.shutdown()
        self._server.server_close()
