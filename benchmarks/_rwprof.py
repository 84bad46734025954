"""CPU of an annotation submit as a service call and as a whole participant API request, side by
side in one run: what the HTTP layers around the service cost (Django's ASGI handler, the
middleware, DRF's view, the pool hop, the answer's rendering).

    .venv/bin/python benchmarks/request_whole.py [--participants 200] [--database-url URL]

Sets participants up as ``chat_load.py`` does; for each, two turns are stored through the
chat services (message and reply), and each turn's annotation is submitted either by
``annotation_flow.submit`` after the token's lookup, as ``message_steps.py`` times it, or
as a ``POST /api/study/turns/<n>/annotation`` through the platform's ASGI application in this
process (no server, no socket), alternating between participants. Prints the process CPU per
submit of each way (``time.process_time``: the pool thread's CPU included). Production
profile (DEBUG off), throttles on the in-process cache.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

from _setup import add_database_option, argument_parser, scratch_django
from chat_load import PRODUCTION_PROFILE, create_participants
from message_steps import reply_completion


import cProfile, pstats
PROF = cProfile.Profile()

def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--participants", type=int, default=200)
    add_database_option(parser)
    args = parser.parse_args()
    os.environ.update(PRODUCTION_PROFILE)
    scratch_django("attune-request-whole-", args.database_url, without_redis=True)

    from django.db import connection

    from annotations.participant_api.db import write
    from annotations.services import annotation_flow, chat
    from annotations.services.participant_sessions import participant_for_token
    from attune_collect.asgi import application
    from attune_collect.testing.asgi_calls import http_scope, serve

    _, tokens = create_participants("http://127.0.0.1:9/v1", args.participants, 2)
    completion = reply_completion()
    loop = asyncio.new_event_loop()

    def by_service(token: str, number: int, answers: dict) -> None:
        participant = participant_for_token(token)
        assert participant is not None
        data = annotation_flow.AnnotationInput(mood_tags=[], behaviour=answers)
        write(annotation_flow.submit, participant, number, data)

    def by_request(token: str, number: int, answers: dict) -> None:
        body = json.dumps({"mood_tags": [], "behaviour": answers}).encode()
        headers = {
            "Authorization": f"Participant {token}",
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
        }
        scope = http_scope("POST", f"/api/study/turns/{number}/annotation", headers=headers)
        sent = loop.run_until_complete(serve(application, scope, body=body))
        assert sent[0]["status"] == 200, sent

    ways = {"service call": by_service, "whole request": by_request}
    cpu = dict.fromkeys(ways, 0.0)
    count = dict.fromkeys(ways, 0)
    for turn in (1, 2):
        for index, token in enumerate(tokens):
            participant = participant_for_token(token)
            assert participant is not None
            plan = write(chat.accept_message, participant, "I feel anxious.", f"{token}-{turn}")
            result = write(chat.record_reply, plan.turn_id, completion)
            answers = {
                q: {"observed": "yes", "preferred": "yes"}
                for q in result.annotation.shown_behaviour_questions
            }
            way = list(ways)[(index + turn) % 2]
            started = time.process_time()
            (PROF.runcall if way == "whole request" else (lambda f, *a: f(*a)))(ways[way], token, plan.turn_number, answers)
            cpu[way] += time.process_time() - started
            count[way] += 1
    loop.close()
    print(
        f"database: {connection.vendor}; {len(tokens)} participants x 2 turns; "
        "CPU per annotation submit, ms"
    )
    for way in ways:
        print(f"  {way:<14} {cpu[way] / count[way] * 1000:7.3f}  ({count[way]} submits)")


if True:
    main()

st = pstats.Stats(PROF)
st.sort_stats("tottime").print_stats(45)
st.sort_stats("cumulative").print_stats(70)
