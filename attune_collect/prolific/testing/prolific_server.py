"""A local stand-in for Prolific's researcher API, for tests and the demo. Loopback only.

Real HTTP on 127.0.0.1 (the standard library's threading HTTP server in a background thread),
so the client's timeouts, status codes and broken connections are exercised as against
Prolific. It keeps studies, submissions (any status) and bulk bonuses in memory, and a record of
every call it received (``calls``), which is what tests count: each approval and each bulk
bonus paid exactly once.

    with run_prolific_server(token="t") as server:
        server.add_submission("study1", participant_id="a" * 24, status="AWAITING REVIEW")
        server.faults.add("pay", "server_error_after")  # pays, then answers 500
        ...  # ProlificClient("t", base_url=server.base_url)

Faults are consumed in arrival order by the first call of their kind (``list``, ``get``,
``transition``, ``create_bonus``, ``pay``, ``study_transition`` or ``any``):
``rate_limit`` (429 with Retry-After, nothing done), ``server_error`` (500, nothing done),
``server_error_after`` (done, then 500), ``stall`` (no answer until ``release_stalls()`` or the
server stops: the client's timeout fires; done only after), ``cut`` (the connection closed
with no answer, nothing done), ``cut_after`` (done, then closed).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import secrets
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["Call", "Faults", "ProlificTestServer", "run_prolific_server"]

FAULT_KINDS = frozenset(
    {"rate_limit", "server_error", "server_error_after", "stall", "cut", "cut_after"}
)
_ROUTES = (
    ("list", "GET", re.compile(r"^/api/v1/studies/([^/]+)/submissions/$")),
    ("get", "GET", re.compile(r"^/api/v1/submissions/([^/]+)/$")),
    ("transition", "POST", re.compile(r"^/api/v1/submissions/([^/]+)/transition/$")),
    ("create_bonus", "POST", re.compile(r"^/api/v1/submissions/bonus-payments/$")),
    ("pay", "POST", re.compile(r"^/api/v1/bulk-bonus-payments/([^/]+)/pay/$")),
    ("study_transition", "POST", re.compile(r"^/api/v1/studies/([^/]+)/transition/$")),
)


@dataclass(frozen=True)
class Call:
    """One request the server received (the Authorization header is not kept)."""

    kind: str
    method: str
    path: str
    body: dict[str, Any]
    status: int  # what it answered; 0 for a cut connection
    authorised: bool


class Faults:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[tuple[str, str, float | None]] = deque()

    def add(
        self, kind: str, fault: str, *, times: int = 1, retry_after: float | None = 0
    ) -> Faults:
        if fault not in FAULT_KINDS:
            raise ValueError(f"unknown fault {fault!r}")
        with self._lock:
            self._script.extend([(kind, fault, retry_after)] * times)
        return self

    def take(self, kind: str) -> tuple[str, float | None] | None:
        with self._lock:
            for index, (wanted, fault, retry_after) in enumerate(self._script):
                if wanted in (kind, "any"):
                    del self._script[index]
                    return fault, retry_after
        return None

    def clear(self) -> None:
        with self._lock:
            self._script.clear()


@dataclass
class _State:
    token: str
    page_size: int = 50
    studies: dict[str, str] = field(default_factory=dict)  # id -> status
    submissions: dict[str, dict[str, Any]] = field(default_factory=dict)
    bulk_bonuses: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)


class _Cut(Exception):
    """Close the connection without an answer."""


class ProlificTestServer:
    __test__ = False  # not a pytest test class

    def __init__(self, token: str, *, page_size: int = 50, port: int = 0) -> None:
        self.state = _State(token=token, page_size=page_size)
        self.faults = Faults()
        self.lock = threading.RLock()
        self._stall_released = threading.Event()
        self._ids = itertools.count(1)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass  # quiet: tests read ``calls``

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread: threading.Thread | None = None

    # -- set-up and inspection (thread-safe) --------------------------------------------------

    def add_study(self, study_id: str, status: str = "ACTIVE") -> None:
        with self.lock:
            self.state.studies[study_id] = status

    def add_submission(
        self,
        study_id: str,
        *,
        participant_id: str,
        status: str = "ACTIVE",
        submission_id: str | None = None,
        study_code: str = "",
    ) -> str:
        submission_id = submission_id or secrets.token_hex(12)
        with self.lock:
            self.state.studies.setdefault(study_id, "ACTIVE")
            self.state.submissions[submission_id] = {
                "id": submission_id,
                "study_id": study_id,
                "participant_id": participant_id,
                "status": status,
                "study_code": study_code,
                "started_at": "2026-01-01T00:00:00Z",
                "completed_at": None,
                "bonus_payments": [],
            }
        return submission_id

    def load(self, path: Path) -> int:
        """Add the studies and submissions of a JSON file (``{"studies": {id: status},
        "submissions": [{"study_id", "participant_id", "status", "id"?}]}``, as
        ``manage.py demo_prolific`` writes it); returns how many submissions."""
        data = json.loads(path.read_text(encoding="utf-8"))
        for study_id, status in (data.get("studies") or {}).items():
            self.add_study(str(study_id), str(status))
        submissions = data.get("submissions") or []
        for row in submissions:
            self.add_submission(
                str(row["study_id"]),
                participant_id=str(row["participant_id"]),
                status=str(row.get("status", "ACTIVE")),
                submission_id=row.get("id"),
            )
        return len(submissions)

    def set_status(self, submission_id: str, status: str) -> None:
        with self.lock:
            self.state.submissions[submission_id]["status"] = status

    def submission(self, submission_id: str) -> dict[str, Any]:
        with self.lock:
            return dict(self.state.submissions[submission_id])

    def study_status(self, study_id: str) -> str:
        with self.lock:
            return self.state.studies[study_id]

    @property
    def calls(self) -> list[Call]:
        with self.lock:
            return list(self.state.calls)

    def calls_of(self, kind: str) -> list[Call]:
        return [call for call in self.calls if call.kind == kind]

    def paid_bulk_bonuses(self) -> dict[str, int]:
        """Bulk bonus id -> how many times it was paid (more than once would pay twice)."""
        with self.lock:
            return {bid: b["paid"] for bid, b in self.state.bulk_bonuses.items() if b["paid"]}

    def release_stalls(self) -> None:
        self._stall_released.set()

    # -- running --------------------------------------------------------------------------------

    def start(self) -> ProlificTestServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.02},
            name=f"prolific-test-{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stall_released.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    # -- requests -------------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        split = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        kind, match = "unknown", None
        for name, verb, pattern in _ROUTES:
            if verb == method and (match := pattern.match(split.path)):
                kind = name
                break
        authorised = handler.headers.get("Authorization") == f"Token {self.state.token}"
        fault = self.faults.take(kind) if authorised and match else None
        status, answer, headers = 0, None, {}
        try:
            if not authorised:
                status, answer = 401, {"error": {"detail": "Invalid token."}}
            elif match is None:
                status, answer = 404, {"error": {"detail": "Not found."}}
            elif fault and fault[0] == "rate_limit":
                status, answer = 429, {"error": {"detail": "Request was throttled."}}
                headers["Retry-After"] = str(fault[1] or 0)
            elif fault and fault[0] in ("server_error", "cut"):
                if fault[0] == "cut":
                    raise _Cut
                status, answer = 500, {"error": {"detail": "Internal error."}}
            else:
                if fault and fault[0] == "stall":
                    self._stall_released.wait()
                status, answer = self._route(kind, match, body, parse_qs(split.query))
                if fault and fault[0] == "server_error_after":
                    status, answer = 500, {"error": {"detail": "Internal error."}}
                elif fault and fault[0] == "cut_after":
                    raise _Cut
        except _Cut:
            status = 0
        with self.lock:
            self.state.calls.append(Call(kind, method, split.path, body, status, authorised))
        if status == 0:
            handler.close_connection = True
            with suppress(OSError):
                handler.connection.shutdown(2)
            return
        payload = json.dumps(answer).encode()
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(payload)
        except OSError:
            pass  # the client gave up (its timeout) while the call stalled

    def _route(
        self, kind: str, match: re.Match[str], body: dict[str, Any], query: dict[str, list[str]]
    ) -> tuple[int, Any]:
        with self.lock:
            if kind == "list":
                return self._list(match.group(1), query)
            if kind == "get":
                row = self.state.submissions.get(match.group(1))
                return (200, dict(row)) if row else (404, {"error": {"detail": "Not found."}})
            if kind == "transition":
                return self._transition(match.group(1), body)
            if kind == "create_bonus":
                return self._create_bonus(body)
            if kind == "pay":
                return self._pay(match.group(1))
            return self._study_transition(match.group(1), body)

    def _list(self, study_id: str, query: dict[str, list[str]]) -> tuple[int, Any]:
        rows = [s for s in self.state.submissions.values() if s["study_id"] == study_id]
        offset = int((query.get("offset") or ["0"])[0])
        page = rows[offset : offset + self.state.page_size]
        following = offset + self.state.page_size
        next_link = (
            {"href": f"{self.base_url}/api/v1/studies/{study_id}/submissions/?offset={following}"}
            if following < len(rows)
            else {"href": None}
        )
        results = [dict(row) for row in page]
        return 200, {
            "results": results,
            "_links": {"next": next_link},
            "meta": {"count": len(rows)},
        }

    def _transition(self, submission_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        row = self.state.submissions.get(submission_id)
        if row is None:
            return 404, {"error": {"detail": "Not found."}}
        action = body.get("action")
        target = {"APPROVE": "APPROVED", "REJECT": "REJECTED"}.get(str(action))
        if target is None:
            return 400, {"error": {"detail": f"Unknown action {action!r}."}}
        if action == "REJECT" and (
            len(str(body.get("message", ""))) < 100 or not body.get("rejection_category")
        ):
            return 400, {"error": {"detail": "A rejection needs a message and a category."}}
        if row["status"] == target:
            return 200, dict(row)  # idempotent, as Prolific's
        if row["status"] != "AWAITING REVIEW":
            return 400, {"error": {"detail": f"Cannot transition from {row['status']}."}}
        row["status"] = target
        return 200, dict(row)

    def _create_bonus(self, body: dict[str, Any]) -> tuple[int, Any]:
        study_id = str(body.get("study_id", ""))
        lines: dict[str, int] = {}
        for line in str(body.get("csv_bonuses", "")).splitlines():
            pid, _, written = line.partition(",")
            known = any(
                s["participant_id"] == pid and s["study_id"] == study_id
                for s in self.state.submissions.values()
            )
            if not known:
                return 400, {"error": {"detail": f"Unknown participant {pid}."}}
            lines[pid] = int(round(float(written) * 100))
        bulk_id = f"bulk{next(self._ids):08d}"
        amount: int = sum(lines.values())
        self.state.bulk_bonuses[bulk_id] = {"study": study_id, "lines": lines, "paid": 0}
        fees = round(amount / 3, 2)
        return 201, {
            "id": bulk_id,
            "study": study_id,
            "amount": amount,
            "fees": fees,
            "total_amount": amount + fees,
            "vat": 0,
        }

    def _pay(self, bulk_id: str) -> tuple[int, Any]:
        bulk = self.state.bulk_bonuses.get(bulk_id)
        if bulk is None:
            return 404, {"error": {"detail": "Not found."}}
        bulk["paid"] += 1  # not idempotent, as Prolific's: each call pays again
        for pid, cents in bulk["lines"].items():
            for row in self.state.submissions.values():
                if row["participant_id"] == pid and row["study_id"] == bulk["study"]:
                    row["bonus_payments"].append(cents)
        return 202, "Successfully processed bonus payments."

    def _study_transition(self, study_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        if study_id not in self.state.studies:
            return 404, {"error": {"detail": "Not found."}}
        target = {"PAUSE": "PAUSED", "START": "ACTIVE", "STOP": "COMPLETED"}.get(
            str(body.get("action"))
        )
        if target is None:
            return 400, {"error": {"detail": "Unknown action."}}
        self.state.studies[study_id] = target
        return 200, {"id": study_id, "status": target}


def main(argv: list[str] | None = None) -> None:
    """Run the server in the foreground until interrupted (``make demo`` starts it beside the
    web server and the worker): ``python -m attune_collect.prolific.testing.prolific_server
    --port 8091 --load data/demo-prolific.json``. The token it accepts is read from the
    environment variable ``--token-env`` names, never from the command line (which ``ps``
    shows)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8091, help="on 127.0.0.1 (default 8091)")
    parser.add_argument("--token-env", default="DEMO_PROLIFIC_TOKEN")
    parser.add_argument("--load", type=Path, help="studies and submissions to start with (JSON)")
    args = parser.parse_args(argv)
    token = os.environ.get(args.token_env, "")
    if not token:
        parser.error(f"set {args.token_env}: the token the server accepts")
    server = ProlificTestServer(token, port=args.port)
    loaded = server.load(args.load) if args.load else 0
    print(f"Local Prolific test server on {server.base_url} ({loaded} submissions)", flush=True)
    try:
        server._httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server._httpd.server_close()


@contextmanager
def run_prolific_server(token: str, *, page_size: int = 50) -> Iterator[ProlificTestServer]:
    server = ProlificTestServer(token, page_size=page_size).start()
    try:
        yield server
    finally:
        server.stop()


if __name__ == "__main__":
    main()
