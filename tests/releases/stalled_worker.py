"""Two build workers in one test: worker A builds in a thread of its own and stalls right after
a call the test names, so its lease can lapse and another worker can take the build over; then
A resumes. No sleeps: A waits on an event the test sets, and the test waits on A's."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection

from annotations.releases.services import build_release

WAIT_S = 60  # a bound that only a hung worker reaches; the test fails if it is
WORKER_A = "release-worker-a"


@dataclass
class StalledWorker:
    """Worker A, stalled: ``finish`` lets it go on and returns what it raised (None if nothing)."""

    thread: threading.Thread
    resume: threading.Event
    calls: list[str] = field(default_factory=list)  # the stalled call, once per time A made it
    raised: list[BaseException] = field(default_factory=list)

    def finish(self) -> BaseException | None:
        self.resume.set()
        self.thread.join(timeout=WAIT_S)
        assert not self.thread.is_alive(), "worker A never finished"
        return self.raised[0] if self.raised else None


def start_stalled_worker(monkeypatch, owner: object, name: str, release_id: int) -> StalledWorker:
    """Start worker A on ``build_release(release_id)``; return once A is stalled just after its
    first call of ``owner.name`` (the call has returned; A has not used its result yet)."""
    original: Callable = getattr(owner, name)
    stalled, resume = threading.Event(), threading.Event()

    def worker() -> None:
        try:
            build_release(release_id)
        except BaseException as exc:  # kept for the test, which asserts on it
            worker_a.raised.append(exc)
        finally:
            stalled.set()  # a worker that ended before the stall point must not hang the test
            connection.close()

    worker_a = StalledWorker(threading.Thread(target=worker, name=WORKER_A), resume)

    def stalling(*args, **kwargs):
        result = original(*args, **kwargs)
        if threading.current_thread().name == WORKER_A:
            worker_a.calls.append(name)
            if len(worker_a.calls) == 1:
                stalled.set()
                assert resume.wait(timeout=WAIT_S), "the test never let worker A resume"
        return result

    monkeypatch.setattr(owner, name, stalling)
    worker_a.thread.start()
    assert stalled.wait(timeout=WAIT_S), "worker A never reached its stall point"
    assert not worker_a.raised, f"worker A stopped before its stall point: {worker_a.raised}"
    return worker_a
