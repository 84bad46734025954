"""One call to Prolific's API, and the policy around it: retries with backoff on 429, 5xx,
timeouts and cut connections, honouring Retry-After (``attune_collect.llm.retry.RetryPolicy``,
the gateway's own), and the token kept out of every error text.

Which calls may be retried after an unclear outcome is decided per call: reads, and setting up
a bulk bonus (an unpaid one costs nothing), retry. Paying a bulk bonus is not idempotent (a
second call pays twice), and a submission's transition is sent once, so those are retried only
after a 429 or a refused connection (nothing was done) and otherwise raise
``UncertainOutcome``: the caller reconciles from Prolific's state before it tries again.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from attune_collect.llm.retry import RetryPolicy

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.prolific.com"
REDACTED = "[REDACTED]"

# Prolific's submission statuses (the submission object's ``status``).
ACTIVE = "ACTIVE"
AWAITING_REVIEW = "AWAITING REVIEW"
APPROVED = "APPROVED"
REJECTED = "REJECTED"
RETURNED = "RETURNED"
TIMED_OUT = "TIMED-OUT"
SCREENED_OUT = "SCREENED OUT"
PARTIALLY_APPROVED = "PARTIALLY APPROVED"
RESERVED = "RESERVED"
SUBMISSION_STATUSES = (
    RESERVED,
    ACTIVE,
    AWAITING_REVIEW,
    APPROVED,
    REJECTED,
    RETURNED,
    TIMED_OUT,
    SCREENED_OUT,
    PARTIALLY_APPROVED,
)
# Statuses that end a submission without a completed study: the participant's place is free.
FREEING_STATUSES = frozenset({RETURNED, TIMED_OUT, REJECTED})

# Prolific's ``rejection_category`` values for a REJECT transition.
REJECTION_CATEGORIES = (
    "TOO_QUICKLY",
    "TOO_SLOWLY",
    "FAILED_INSTRUCTIONS",
    "INCOMP_LONGITUDINAL",
    "FAILED_CHECK",
    "LOW_EFFORT",
    "MALINGERING",
    "NO_CODE",
    "BAD_CODE",
    "NO_DATA",
    "UNSUPP_DEVICE",
    "OTHER",
)
# Prolific refuses a rejection message shorter than this.
MIN_REJECTION_MESSAGE = 100


class ProlificError(Exception):
    """A call that failed for good (after its retries): ``status`` is the HTTP status, 0 for a
    timeout or a cut connection."""

    def __init__(self, message: str, *, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class UncertainOutcome(ProlificError):
    """A call that is not idempotent may or may not have taken effect (a 5xx, a timeout, a cut
    connection after it was sent): reconcile from Prolific's state before sending it again."""


@dataclass(frozen=True)
class Submission:
    id: str
    participant_id: str
    status: str
    study_code: str = ""
    started_at: str | None = None
    completed_at: str | None = None
    bonus_payments: tuple[int, ...] = ()  # cents already paid on the submission

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Submission:
        return cls(
            id=str(data["id"]),
            participant_id=str(data.get("participant_id") or data.get("participant") or ""),
            status=str(data.get("status", "")),
            study_code=str(data.get("study_code") or data.get("entered_code") or ""),
            started_at=data.get("started_at"),
            completed_at=data.get("completed_at"),
            bonus_payments=tuple(int(round(float(x))) for x in data.get("bonus_payments") or ()),
        )


@dataclass(frozen=True)
class BulkBonus:
    id: str
    amount_cents: int
    total_amount: float


@dataclass
class ClientPolicy:
    """How hard to try: attempts per call, each attempt's timeout, the backoff between."""

    max_attempts: int = 5
    timeout_s: float = 20.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)


Sleep = Callable[[float], None]


@dataclass(frozen=True)
class _Failure:
    status: int  # 0: no HTTP answer (timeout, cut connection)
    retry_after: float | None
    message: str
    retryable: bool
    sent: bool  # the request may have reached the server


class ProlificClient:
    """Calls Prolific's researcher API with ``Authorization: Token <token>``.

    The token is held only by this object: it is redacted from every message this client
    raises or logs, and ``repr`` never shows it."""

    def __init__(
        self,
        token: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        policy: ClientPolicy | None = None,
        sleep: Sleep = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        if not token:
            raise ProlificError("No Prolific API token is configured.")
        self._token = token
        self.base_url = base_url.rstrip("/")
        self.policy = policy or ClientPolicy()
        self._sleep = sleep
        self._rng = rng or random.Random()

    def __repr__(self) -> str:
        return f"ProlificClient(base_url={self.base_url!r})"

    # -- the endpoints --------------------------------------------------------------------------

    def submissions(self, study_id: str) -> Iterator[Submission]:
        """Every submission of a Prolific study, following the pages' ``_links.next``."""
        url: str | None = self._url(f"/api/v1/studies/{_quote(study_id)}/submissions/")
        while url:
            page = self._call("GET", url, None, idempotent=True)
            for row in page.get("results", []):
                yield Submission.from_json(row)
            url = ((page.get("_links") or {}).get("next") or {}).get("href") or None

    def submission(self, submission_id: str) -> Submission:
        data = self._call(
            "GET", self._url(f"/api/v1/submissions/{_quote(submission_id)}/"), None, idempotent=True
        )
        return Submission.from_json(data)

    def approve(self, submission_id: str) -> Submission:
        return self._transition(submission_id, {"action": "APPROVE"})

    def reject(self, submission_id: str, *, message: str, category: str) -> Submission:
        if category not in REJECTION_CATEGORIES:
            raise ProlificError(f"Unknown rejection category {category!r}.")
        if len(message) < MIN_REJECTION_MESSAGE:
            raise ProlificError(
                f"A rejection message must be at least {MIN_REJECTION_MESSAGE} characters."
            )
        body = {"action": "REJECT", "message": message, "rejection_category": category}
        return self._transition(submission_id, body)

    def create_bulk_bonus(self, study_id: str, lines: dict[str, int]) -> BulkBonus:
        """Set up (not pay) a bulk bonus: participant id -> amount in cents."""
        csv = "\n".join(f"{pid},{cents / 100:.2f}" for pid, cents in sorted(lines.items()))
        data = self._call(
            "POST",
            self._url("/api/v1/submissions/bonus-payments/"),
            {"study_id": study_id, "csv_bonuses": csv},
            idempotent=True,  # an unpaid bulk bonus costs nothing: a second one is harmless
        )
        return BulkBonus(
            id=str(data["id"]),
            amount_cents=int(round(float(data.get("amount", 0)))),
            total_amount=float(data.get("total_amount", 0)),
        )

    def pay_bulk_bonus(self, bulk_id: str) -> None:
        """Pay a bulk bonus. Not idempotent: raises UncertainOutcome when it may have paid."""
        self._call(
            "POST",
            self._url(f"/api/v1/bulk-bonus-payments/{_quote(bulk_id)}/pay/"),
            None,
            idempotent=False,
        )

    def transition_study(self, study_id: str, action: str) -> dict[str, Any]:
        if action not in ("PAUSE", "START", "STOP", "PUBLISH"):
            raise ProlificError(f"Unknown study action {action!r}.")
        return self._call(
            "POST",
            self._url(f"/api/v1/studies/{_quote(study_id)}/transition/"),
            {"action": action},
            idempotent=True,
        )

    # -- one call, with its retries -------------------------------------------------------------

    def _transition(self, submission_id: str, body: dict[str, Any]) -> Submission:
        data = self._call(
            "POST",
            self._url(f"/api/v1/submissions/{_quote(submission_id)}/transition/"),
            body,
            # Prolific ignores a repeated transition, but a decision is sent once: after an
            # unclear outcome the caller reads the submission's status before sending again.
            idempotent=False,
        )
        return Submission.from_json(data)

    def _url(self, path: str) -> str:
        return self.base_url + path

    def _call(self, method: str, url: str, body: dict[str, Any] | None, *, idempotent: bool) -> Any:
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._attempt(method, url, body)
            except _Retry as signal:
                failure = signal.failure
            may_retry = failure.retryable and (idempotent or not failure.sent)
            if not may_retry or attempt >= self.policy.max_attempts:
                kind = UncertainOutcome if (failure.sent and not idempotent) else ProlificError
                raise kind(self._redact(failure.message), status=failure.status) from None
            delay = self.policy.retry.delay(attempt, failure.retry_after, self._rng)
            logger.info(
                "Prolific %s %s: %s; attempt %d again in %.2fs",
                method,
                _path_of(url),
                self._redact(failure.message),
                attempt + 1,
                delay,
            )
            self._sleep(delay)

    def _attempt(self, method: str, url: str, body: dict[str, Any] | None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Token {self._token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.policy.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            status = error.code
            retry_after = _retry_after(error.headers.get("Retry-After"))
            text = error.read()[:300].decode("utf-8", "replace")
            # A 429 is refused before any work; a 5xx may have done it.
            raise _Retry(
                _Failure(
                    status=status,
                    retry_after=retry_after,
                    message=f"HTTP {status} from Prolific: {text}",
                    retryable=status == 429 or status >= 500,
                    sent=status != 429,
                )
            ) from None
        except TimeoutError as error:
            raise _Retry(_Failure(0, None, f"timed out: {error}", True, True)) from None
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as error:
            reason = getattr(error, "reason", error)
            refused = isinstance(reason, ConnectionRefusedError)
            raise _Retry(
                _Failure(0, None, f"connection failed: {reason}", True, sent=not refused)
            ) from None
        if not raw:
            return {}
        try:
            return json.loads(raw)
        except ValueError:
            return {"detail": raw[:300].decode("utf-8", "replace")}

    def _redact(self, text: str) -> str:
        return text.replace(self._token, REDACTED)


class _Retry(Exception):
    def __init__(self, failure: _Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        return None


def _quote(part: str) -> str:
    return urllib.parse.quote(part, safe="")


def _path_of(url: str) -> str:
    return urllib.parse.urlsplit(url).path
