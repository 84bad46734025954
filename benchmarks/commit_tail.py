"""CPU of a chat message's database steps with the writes that ride the COMMIT, and with the
same writes sent one by one, alternating in one process (``attune_collect/commit_tail.py``).

    .venv/bin/python benchmarks/commit_tail.py --database-url URL [--participants 300]
        [--rounds 5]

A message's three steps (``message_steps.py``: the message, the reply, the annotation submit)
keep the writes nothing in them reads back for their COMMITs on PostgreSQL (three audit
entries, two draft deletions, the reply's turn, the submit's answers and step). This script
sets participants up as ``chat_load.py`` does and runs every participant's two messages, each
participant either way (the writes kept, or each sent at once as before: ``rides_the_commit``
answering no), the ways alternating from participant to participant and from round to round,
and prints the process CPU per message of each way per round and the medians. PostgreSQL only:
elsewhere nothing is kept.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from typing import Any

from _setup import add_database_option, argument_parser, scratch_django
from chat_load import PRODUCTION_PROFILE, create_participants
from message_steps import reply_completion

WAYS = ("sent at once", "with the COMMIT")


@contextmanager
def writes_sent_at_once() -> Any:
    """``rides_the_commit`` answering no, where the writes ask it."""
    from attune_collect import commit_tail

    kept = commit_tail.rides_the_commit
    commit_tail.rides_the_commit = lambda connection: False
    try:
        yield
    finally:
        commit_tail.rides_the_commit = kept


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--participants", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    add_database_option(parser)
    args = parser.parse_args()
    if not args.database_url:
        raise SystemExit(
            "--database-url: a scratch PostgreSQL database (nothing is kept elsewhere)"
        )
    os.environ.update(PRODUCTION_PROFILE)  # as chat_load.py runs the platform: no query log
    scratch_django("attune-commit-tail-", args.database_url, without_redis=True)

    from annotations.participant_api.db import write
    from annotations.services import annotation_flow, chat
    from annotations.services.participant_sessions import participant_for_token

    completion = reply_completion()

    def one_message(token: str, turn: int) -> None:
        participant = participant_for_token(token)
        assert participant is not None
        plan = write(chat.accept_message, participant, "I feel anxious.", f"{token}-{turn}")
        result = write(chat.record_reply, plan.turn_id, completion)
        assert result is not None  # a new turn: its reply is stored
        answers = {
            q: {"observed": "yes", "preferred": "yes"}
            for q in result.annotation.shown_behaviour_questions
        }
        participant = participant_for_token(token)
        assert participant is not None
        data = annotation_flow.AnnotationInput(mood_tags=[], behaviour=answers)
        write(annotation_flow.submit, participant, plan.turn_number, data)

    def timed(way: str, run: Callable[[], None]) -> float:
        with writes_sent_at_once() if way == WAYS[0] else nullcontext():
            started = time.process_time()
            run()
            return time.process_time() - started

    _, everyone = create_participants("http://127.0.0.1:9/v1", args.participants * args.rounds, 2)
    per_round: dict[str, list[float]] = {way: [] for way in WAYS}
    print(f"PostgreSQL; {args.participants} participants x 2 turns per round; CPU per message, ms")
    for round_number in range(args.rounds):
        tokens = everyone[round_number * args.participants : (round_number + 1) * args.participants]
        cpu = dict.fromkeys(WAYS, 0.0)
        count = dict.fromkeys(WAYS, 0)
        for turn in (1, 2):
            for index, token in enumerate(tokens):
                way = WAYS[(index + round_number) % 2]
                cpu[way] += timed(way, lambda: one_message(token, turn))  # noqa: B023
                count[way] += 1
        figures = {way: cpu[way] / count[way] * 1000 for way in WAYS}
        for way in WAYS:
            per_round[way].append(figures[way])
        print(f"  round {round_number + 1}: " + ", ".join(f"{w} {figures[w]:.3f}" for w in WAYS))
    medians = {way: statistics.median(values) for way, values in per_round.items()}
    print("  medians: " + ", ".join(f"{w} {medians[w]:.3f}" for w in WAYS))
    print(f"  with the COMMIT / sent at once: {medians[WAYS[1]] / medians[WAYS[0]]:.3f}")


if __name__ == "__main__":
    main()
