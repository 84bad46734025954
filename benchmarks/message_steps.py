"""CPU of a chat message's database steps, in one process, without the web server around them.

    .venv/bin/python benchmarks/message_steps.py [--participants 200] [--turns 2]
        [--database-url URL] [--profile N]

A message makes three database steps on the participant API's pool (issue 16): the message
(the session token's lookup, ``chat.accept_message``), the reply (``chat.record_reply``) and
the annotation submit (the token's lookup again, ``annotation_flow.submit``), each in its own
transaction, as the web process runs them. This script sets participants up as
``chat_load.py`` does, then runs those steps for every participant and turn, one message at a
time, and prints the process CPU per message of each step and in all (``time.process_time``).
``chat_load.py`` measures the whole web process under load; this one the database steps
alone, so that a change to them can be measured in seconds, side by side with the commit before
(a second worktree). Django runs in the production profile (``DEBUG`` off: no query log), as
``chat_load.py`` runs the platform. ``--profile N`` prints the N functions with the most own
CPU time (cProfile, which slows every call: read its shares, not its times).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import time
from collections.abc import Callable
from typing import Any

from _setup import add_database_option, argument_parser, scratch_django
from chat_load import PRODUCTION_PROFILE, create_participants

REPLY = " ".join(f"word{i}" for i in range(60))


def reply_completion() -> Any:
    """The reply every message gets, as chat_load.py's upstream sends it: 60 words, 20 s."""
    from attune_collect.llm import Completion

    return Completion(
        text=REPLY,
        finish_reason="stop",
        prompt_tokens=40,
        completion_tokens=60,
        cost_usd=0.0001,
        latency_ms=20000.0,
        model="gpt-4o-mini",
        attempts=1,
        time_to_first_token_ms=2000.0,
    )


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--participants", type=int, default=200)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    add_database_option(parser)
    args = parser.parse_args()
    os.environ.update(PRODUCTION_PROFILE)  # as chat_load.py runs the platform: no query log
    scratch_django("attune-message-steps-", args.database_url, without_redis=True)

    from django.db import connection

    from annotations.participant_api.db import write
    from annotations.services import annotation_flow, chat
    from annotations.services.participant_sessions import participant_for_token

    _, tokens = create_participants("http://127.0.0.1:9/v1", args.participants, args.turns)
    cpu = {"message": 0.0, "reply": 0.0, "annotation": 0.0}
    completion = reply_completion()

    def timed(step: str, function: Callable[[], Any]) -> Any:
        started = time.process_time()
        result = function()
        cpu[step] += time.process_time() - started
        return result

    def one_message(token: str, turn: int) -> None:
        def message() -> chat.ChatPlan:
            participant = participant_for_token(token)
            assert participant is not None
            return write(chat.accept_message, participant, "I feel anxious.", f"{token}-{turn}")

        plan = timed("message", message)
        result = timed("reply", lambda: write(chat.record_reply, plan.turn_id, completion))
        answers = {
            q: {"observed": "yes", "preferred": "yes"}
            for q in result.annotation.shown_behaviour_questions
        }

        def annotation() -> None:
            participant = participant_for_token(token)
            assert participant is not None
            data = annotation_flow.AnnotationInput(mood_tags=[], behaviour=answers)
            write(annotation_flow.submit, participant, plan.turn_number, data)

        timed("annotation", annotation)

    profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waits
    if profiler:
        profiler.enable()
    for turn in range(1, args.turns + 1):
        for token in tokens:
            one_message(token, turn)
    if profiler:
        profiler.disable()
    messages = len(tokens) * args.turns
    print(
        f"database: {connection.vendor}; {len(tokens)} participants x {args.turns} turns; "
        "CPU per message, ms" + (" (under cProfile)" if profiler else "")
    )
    for step, seconds in cpu.items():
        print(f"  {step:<11} {seconds / messages * 1000:7.3f}")
    print(f"  {'all':<11} {sum(cpu.values()) / messages * 1000:7.3f}")
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
