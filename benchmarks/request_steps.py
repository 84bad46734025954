"""CPU of the participant API's per-message steps changed at stop 17, each against what it
replaced, side by side in one run.

    .venv/bin/python benchmarks/request_steps.py [--calls 1000] [--rounds 5]
        [--database-url URL] [--redis-url URL]

Seeds 150 demo conversations (``annotations/demo.py``), takes up to 20 of those with 12 turns,
gives each of their participants a session token, then times each pair of ways to do one step,
in alternating rounds of ``--calls`` calls (process CPU per call; the medians of the rounds are
printed):

- the session token's lookup (every participant request): ``first()``, which sorts by the
  model's ordering, against ``get()`` (the hash is unique);
- a throttle's read and write in the cache (every participant request; only with
  ``--redis-url``, a scratch Redis database): Django's ``RedisCacheClient``, which builds a
  ``redis.Redis`` for every operation, against ``SharedRedisCacheClient`` (attune_collect/cache.py);
- an annotation submit's body checks (the shape read by ``known_fields`` and ``check_types``):
  a new serializer instance per body against the shared one (``json_limits.shared_instance``);
- a whole annotation body (36 answers) validated: on a new serializer per body
  (``is_valid()``) against ``parse_body`` on the shared instance (stop 29);
- an annotation step's answer: ``AnnotationStepOutput(step).data`` against ``represent``;
- a message's earlier turns (``chat.accept_message``): joined with their annotation steps
  against the ``answered_at`` column alone;
- a database step's hop from the event loop to the pool and back (three per chat message):
  asgiref's ``sync_to_async`` against a plain executor call (``db.run_in_db_thread``, stop 30);
- a task sent (the improver's, on every reply; only with ``--redis-url``, a Celery app with that
  scratch Redis database as broker and result backend, as production configures them): its
  result subscribed to and let go, Celery's default, against ``ignore_result`` (stop 30).

One process, no load around it: these are the steps' own costs. Under load (``chat_load.py``)
every step costs more, as the interpreter and both cores are shared.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from _setup import add_database_option, argument_parser, scratch_django

CONVERSATIONS = 150  # about a tenth of the demo's conversations reach 12 turns


def cpu_per_call(step: Callable[[int], Any], calls: int) -> float:
    step(0)  # warm: the first call may compile or connect
    started = time.process_time()
    for i in range(calls):
        step(i)
    return (time.process_time() - started) / calls * 1000.0


def compare(
    name: str, before: Callable[[int], Any], after: Callable[[int], Any], args: Any
) -> None:
    before_ms, after_ms = [], []
    for _ in range(args.rounds):
        before_ms.append(cpu_per_call(before, args.calls))
        after_ms.append(cpu_per_call(after, args.calls))
    b, a = statistics.median(before_ms), statistics.median(after_ms)
    print(f"{name:<56} {b:6.3f} ms -> {a:6.3f} ms  x{a / b:.2f}  ({b - a:.3f} ms less)")


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--redis-url", help="a scratch Redis database for the cache pair")
    add_database_option(parser)
    args = parser.parse_args()
    scratch_django("attune-request-steps-", args.database_url, without_redis=True)

    from django.core.cache.backends.redis import RedisCacheClient
    from django.db import connection
    from django.db.models import F

    from annotations.demo import seed_demo
    from annotations.models import Conversation, ParticipantSession, TurnAnnotation
    from annotations.participant_api import serializers as io
    from annotations.participant_api.json_limits import (
        check_types,
        checked_body,
        known_fields,
        parse_body,
        represent,
        shared_instance,
    )
    from annotations.services.participant_sessions import hash_token, issue_token
    from attune_collect.cache import SharedRedisCacheClient

    seed_demo(CONVERSATIONS, seed=1)
    conversations = list(
        Conversation.objects.filter(turns__number=12).select_related("participant")[:20]
    )
    hashes = [hash_token(issue_token(c.participant)) for c in conversations]
    steps = list(
        TurnAnnotation.objects.filter(turn__conversation__in=conversations).select_related(
            "turn__conversation__study"
        )[:50]
    )
    body = {
        "mood_tags": [{"emotion": "nervous", "intensity": 3}],
        "behaviour": {f"q{i}": {"observed": "yes", "preferred": "no"} for i in range(6)},
        "edited_reply": "A reply as I would have wanted it.",
        "timings": {"read": 4.2, "answer": 30.5},
    }
    print(
        f"database: {connection.vendor}; {len(conversations)} conversations of 12 turns; "
        f"{args.rounds} rounds of {args.calls} calls each, CPU per call, medians"
    )

    def session(i: int) -> Any:
        return ParticipantSession.objects.select_related("participant__study").filter(
            token_hash=hashes[i % len(hashes)], revoked_at__isnull=True
        )

    compare(
        "session token lookup: first() -> get()",
        lambda i: session(i).first(),
        lambda i: session(i).get(),
        args,
    )
    if args.redis_url:
        django_client = RedisCacheClient([args.redis_url])
        shared_client = SharedRedisCacheClient([args.redis_url])

        def throttle_with(client: RedisCacheClient) -> Callable[[int], Any]:
            def step(i: int) -> None:
                history = client.get(f"throttle-{i % 50}", [])
                client.set(f"throttle-{i % 50}", [time.time(), *history][:5], 60)

            return step

        compare(
            "throttle read + write: Django's client -> shared",
            throttle_with(django_client),
            throttle_with(shared_client),
            args,
        )

    def shape_checks(shape: Callable[[], Any]) -> Callable[[int], Any]:
        def step(i: int) -> None:
            data = known_fields(shape(), body)
            check_types(shape(), data)

        return step

    compare(
        "annotation body's shape checks: new -> shared",
        shape_checks(io.AnnotationInput),
        shape_checks(lambda: shared_instance(io.AnnotationInput)),
        args,
    )
    # A whole submit's body as the load client sends it (36 answers), validated the DRF way
    # (a new serializer per body: is_valid() on it) and by parse_body (the shared instance).
    body_36 = {
        **body,
        "behaviour": {f"q{i}": {"observed": "yes", "preferred": "yes"} for i in range(36)},
    }

    def validated_on_a_new_serializer(i: int) -> Any:
        serializer = io.AnnotationInput(data=checked_body(io.AnnotationInput, body_36))
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    compare(
        "annotation body (36 answers) validated: new -> shared",
        validated_on_a_new_serializer,
        lambda i: parse_body(io.AnnotationInput, body_36),
        args,
    )
    compare(
        "annotation step's answer: .data -> represent",
        lambda i: io.AnnotationStepOutput(steps[i % len(steps)]).data,
        lambda i: represent(io.AnnotationStepOutput, steps[i % len(steps)]),
        args,
    )
    compare(
        "a message's 12 earlier turns: with steps -> answered_at",
        lambda i: list(
            conversations[i % len(conversations)]
            .turns.select_related("annotation")
            .order_by("number")
        ),
        lambda i: list(
            conversations[i % len(conversations)]
            .turns.annotate(answered_at=F("annotation__submitted_at"))
            .order_by("number")
        ),
        args,
    )
    compare_pool_hops(args)
    if args.redis_url:
        compare_task_sends(args.redis_url, args)


def compare_pool_hops(args: Any) -> None:
    import asyncio

    from asgiref.sync import sync_to_async

    from annotations.participant_api import db

    loop = asyncio.new_event_loop()

    def step(i: int) -> int:
        return i

    compare(
        "a step's hop to the pool: sync_to_async -> executor",
        lambda i: loop.run_until_complete(
            sync_to_async(db._pooled, thread_sensitive=False, executor=db._executor)(step, i)
        ),
        lambda i: loop.run_until_complete(db.run_in_db_thread(step, i)),
        args,
    )
    loop.close()


def compare_task_sends(redis_url: str, args: Any) -> None:
    import redis
    from celery import Celery

    app = Celery("request-steps", broker=redis_url, backend=redis_url, set_as_current=False)
    queue = "request-steps-discard"  # nothing consumes it; deleted below

    def send(ignore_result: bool) -> Callable[[int], Any]:
        def step(i: int) -> None:
            app.send_task(
                "annotations.improve_reply", args=[i], queue=queue, ignore_result=ignore_result
            )

        return step

    try:
        compare("a task sent: result subscribed -> ignored", send(False), send(True), args)
    finally:
        server = redis.Redis.from_url(redis_url)
        server.delete(queue)
        server.close()
        app.close()


if __name__ == "__main__":
    main()
