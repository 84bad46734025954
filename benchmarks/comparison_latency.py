"""Time from a reply's end to its A/B comparison being ready, on a real Celery worker.

    .venv/bin/python benchmarks/comparison_latency.py [--workers 10] [--warm 40]
        [--pool prefork] [--concurrency 2] [--database-url URL] [--redis-url URL]

When a participant's reply is stored (``chat.record_reply``), the annotation step asks a worker
for the "improved" reply that the comparison sets against it (annotations/tasks.py, written by
the study's improver model: here the offline demo provider). This script measures, per reply,
the time from the reply's end (the turn's ``finished_at``) to the improved reply stored (its
``annotations.annotation.improved`` audit entry), both clocks of this machine:

* cold: ``--workers`` times, a fresh worker is started (``--pool``, ``--concurrency``: the
  production worker's prefork pool of 2 by default) and, once it has run a heartbeat (it
  takes messages), ``--concurrency`` replies are stored at once: each pool process's first
  improved reply;
* warm: on the last worker, ``--warm`` replies one after the other.

It prints p50, p95 and the maximum of each, in seconds. The broker is the embedded one (files,
polled) unless ``--redis-url`` names a Redis database (production's broker); the database is
SQLite in a temp folder unless ``--database-url`` names a scratch PostgreSQL database
(flushed). To compare with another commit, run the same script from a worktree of it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from datetime import timedelta

from _setup import (
    ROOT,
    add_database_option,
    argument_parser,
    scratch_django,
    start_celery_worker,
)
from chat_load import PRODUCTION_PROFILE

REPLY = (
    "You should not worry so much about it. Everyone has bad days at work, and it will pass. "
    "Try to get some sleep and see how you feel tomorrow."
)
READY_TIMEOUT_S = 120.0
POLL_S = 0.02


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


def start_worker(name: str, pool: str, concurrency: int) -> subprocess.Popen:
    """A worker as production runs it, on this script's database and broker."""
    return start_celery_worker(ROOT, os.environ, name=name, pool=pool, concurrency=concurrency)


def stop_worker(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)  # a warm shutdown: its pool processes end with it
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_taking_messages(process: subprocess.Popen) -> None:
    """Until the worker has run a heartbeat (its consumer is up; nothing improver-related)."""
    from annotations.models import AuditEntry
    from attune_collect.dispatch import HEARTBEAT, send

    token = uuid.uuid4().hex
    send(HEARTBEAT, token)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not AuditEntry.objects.filter(action="system.worker.heartbeat", target_id=token).exists():
        if process.poll() is not None:
            raise SystemExit(f"the worker exited ({process.returncode}) before it was ready")
        if time.monotonic() > deadline:
            raise SystemExit("the worker ran no heartbeat in time")
        time.sleep(POLL_S)


def create_study():
    """A study whose comparison's second reply comes from the demo improver."""
    from annotations.demo import ensure_demo_endpoints
    from annotations.models import StudyStatus
    from annotations.services.studies import get_or_create_study

    endpoints = ensure_demo_endpoints()
    study = get_or_create_study(
        "comparison-latency",
        status=StudyStatus.RECRUITING,
        min_turns=1,
        max_turns=1,
        target_participants=100_000,
        topics=[],
        improver_endpoint=next(e for e in endpoints if e.model_name == "improver"),
    )
    study.model_pool.set([e for e in endpoints if e.model_name != "improver"][:1])
    return study


def participant_at_chat(study):
    """A new participant of the study with the chat open (one reply each)."""
    from annotations.models import PanasPhase
    from annotations.services import participants, surveys
    from attunebench.instrument import default_instrument

    started = participants.start_participant(study.slug, prolific_pid=uuid.uuid4().hex[:24])
    participant = started.participant
    participants.give_consent(participant, consent_version=study.consent_version, agree=True)
    participants.submit_profile(participant, age=30, traits=[], goals=[])
    surveys.submit_panas(
        participant, PanasPhase.PRE, dict.fromkeys(default_instrument().panas_ids, 3)
    )
    surveys.choose_topic(participant, "benchmark")
    return participant


def store_replies(study, count: int) -> list[int]:
    """``count`` participants' replies stored back to back, as streams end; their turn ids."""
    from annotations.participant_api.db import write
    from annotations.services import chat
    from attune_collect.llm import Completion

    completion = Completion(
        text=REPLY,
        finish_reason="stop",
        prompt_tokens=40,
        completion_tokens=40,
        cost_usd=0.0,
        latency_ms=2000.0,
        model="attune-demo/listener",
        attempts=1,
        time_to_first_token_ms=100.0,
    )
    plans = [
        write(
            chat.accept_message,
            participant_at_chat(study),
            "My manager criticised me in front of everyone and I feel ashamed.",
            uuid.uuid4().hex,
        )
        for _ in range(count)
    ]
    for plan in plans:  # each its own transaction: the improver is asked for at its commit
        write(chat.record_reply, plan.turn_id, completion)
    return [plan.turn_id for plan in plans]


def seconds_to_comparison(turn_ids: list[int]) -> list[float]:
    """Wait for the improved replies of these turns; each one's time from the reply's end."""
    from annotations.models import AuditEntry, ImprovedStatus, Turn, TurnAnnotation

    deadline = time.monotonic() + READY_TIMEOUT_S
    while TurnAnnotation.objects.filter(
        turn_id__in=turn_ids, improved_status=ImprovedStatus.PENDING
    ).exists():
        if time.monotonic() > deadline:
            raise SystemExit("improved replies still pending after the timeout")
        time.sleep(POLL_S)
    failed = TurnAnnotation.objects.filter(turn_id__in=turn_ids).exclude(
        improved_status=ImprovedStatus.READY
    )
    if failed.exists():
        raise SystemExit(f"improver failed: {list(failed.values('turn_id', 'improved_meta'))}")
    ended = dict(Turn.objects.filter(pk__in=turn_ids).values_list("pk", "finished_at"))
    annotations = dict(
        TurnAnnotation.objects.filter(turn_id__in=turn_ids).values_list("pk", "turn_id")
    )
    ready = {
        annotations[int(entry.target_id)]: entry.created_at
        for entry in AuditEntry.objects.filter(
            action="annotations.annotation.improved",
            target_id__in=[str(pk) for pk in annotations],
        )
    }
    return [(ready[turn_id] - ended[turn_id]) / timedelta(seconds=1) for turn_id in turn_ids]


def summary(label: str, values: list[float]) -> str:
    return (
        f"  {label:<5} n={len(values):<3} p50 {percentile(values, 0.5):6.2f} s   "
        f"p95 {percentile(values, 0.95):6.2f} s   max {max(values):6.2f} s"
    )


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--workers", type=int, default=10, help="fresh workers (cold rounds)")
    parser.add_argument("--warm", type=int, default=40, help="replies on a warm worker")
    parser.add_argument("--pool", default="prefork")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--redis-url", help="Redis as the broker (default: the embedded one)")
    add_database_option(parser)
    args = parser.parse_args()
    if args.redis_url:
        os.environ["REDIS_URL"] = args.redis_url
    os.environ.update(PRODUCTION_PROFILE)  # as production runs: no query log (its workers too)
    scratch_django("attune-comparison-", args.database_url, without_redis=not args.redis_url)

    from django.conf import settings
    from django.db import connection

    study = create_study()
    cold: list[float] = []
    warm: list[float] = []
    for round_number in range(args.workers):
        worker = start_worker(f"bench{round_number}", args.pool, args.concurrency)
        try:
            wait_until_taking_messages(worker)
            cold += seconds_to_comparison(store_replies(study, args.concurrency))
            if round_number == args.workers - 1:
                for _ in range(args.warm):
                    warm += seconds_to_comparison(store_replies(study, 1))
        finally:
            stop_worker(worker)
        print(f"worker {round_number + 1}/{args.workers}: cold {cold[-args.concurrency :]}")
    broker = settings.CELERY_BROKER_URL.split(":", 1)[0]
    print(
        f"database: {connection.vendor}; broker: {broker}; worker: {args.pool} "
        f"x{args.concurrency}; from a reply's end to its improved reply stored:"
    )
    print(summary("cold", cold))
    if warm:
        print(summary("warm", warm))


if __name__ == "__main__":
    main()
