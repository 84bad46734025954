"""CPU of the participant API's hot reads through the ORM against the same reads compiled once
per connection (``attune_collect/compiled_query.py``), side by side in one run.

    .venv/bin/python benchmarks/compiled_queries.py [--calls 1000] [--rounds 5]
        [--database-url URL]

Seeds 150 demo conversations (``annotations/demo.py``), takes up to 20 of those with 12 turns,
gives each of their participants a session token, then times each read both ways in alternating
rounds of ``--calls`` calls (process CPU per call, medians of the rounds; ``request_steps.py``'s
method). Each pair is checked to read the same rows first. Locking reads run inside a
transaction, as they do in the chat:

- the session token's lookup (every participant request);
- the participant's latest conversation, with its model (every message) and locked (every
  message and annotation submit);
- a message's earlier turns with when each was answered (every message);
- the annotation step of a turn, locked (every annotation submit);
- the turn a reply settles, with its conversation and study, locked (every reply).

One process, no load around it: under load (``chat_load.py``) every read costs more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _setup import add_database_option, argument_parser, scratch_django
from request_steps import compare

CONVERSATIONS = 150  # about a tenth of the demo's conversations reach 12 turns


def main() -> None:
    parser = argument_parser(__doc__)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    add_database_option(parser)
    args = parser.parse_args()
    scratch_django("attune-compiled-queries-", args.database_url, without_redis=True)

    from django.db import connection, transaction
    from django.db.models import F

    from annotations.demo import seed_demo
    from annotations.models import Conversation, ParticipantSession, Turn, TurnAnnotation
    from annotations.services import annotation_flow, chat
    from annotations.services.participant_sessions import _LIVE_SESSION, hash_token, issue_token
    from annotations.services.participants import _LATEST_CONVERSATION

    seed_demo(CONVERSATIONS, seed=1)
    conversations = list(
        Conversation.objects.filter(turns__number=12).select_related("participant")[:20]
    )
    hashes = [hash_token(issue_token(c.participant)) for c in conversations]
    participants = [c.participant_id for c in conversations]
    conversation_ids = [c.pk for c in conversations]
    turns = list(Turn.objects.filter(conversation__in=conversations).values_list("pk", flat=True))
    print(
        f"database: {connection.vendor}; {len(conversations)} conversations of 12 turns; "
        f"{args.rounds} rounds of {args.calls} calls each, CPU per call, medians"
    )

    def pick(values: list[Any], i: int) -> Any:
        return values[i % len(values)]

    Read = Callable[[int], Any]

    def same(orm: Read, compiled: Read) -> tuple[Read, Read]:
        """Both ways read the same rows (checked once, before timing)."""
        for i in range(len(conversations)):
            a, b = orm(i), compiled(i)
            a_keys = [x.pk for x in a] if isinstance(a, list) else a.pk
            b_keys = [x.pk for x in b] if isinstance(b, list) else b.pk
            assert a_keys == b_keys, (a_keys, b_keys)
        return orm, compiled

    compare(
        "session token lookup (3 models, 55 columns)",
        *same(
            lambda i: ParticipantSession.objects.select_related("participant__study").get(
                token_hash=pick(hashes, i), revoked_at__isnull=True
            ),
            lambda i: _LIVE_SESSION.first(pick(hashes, i)),
        ),
        args,
    )
    with transaction.atomic():  # the locking reads, as in the chat's transactions
        compare(
            "latest conversation with its model, locked",
            *same(
                lambda i: (
                    Conversation.objects.filter(participant_id=pick(participants, i))
                    .order_by("-pk")
                    .select_related("model_endpoint", "model_config")
                    .select_for_update(of=("self",))
                    .first()
                ),
                lambda i: _LATEST_CONVERSATION[(True, True, False)].first(pick(participants, i)),
            ),
            args,
        )
        compare(
            "12 earlier turns, with when each was answered",
            *same(
                lambda i: list(
                    Turn.objects.filter(conversation_id=pick(conversation_ids, i))
                    .annotate(answered_at=F("annotation__submitted_at"))
                    .order_by("number")
                ),
                lambda i: chat._TURNS_ANSWERED.all(pick(conversation_ids, i)),
            ),
            args,
        )
        compare(
            "annotation step of a turn, locked",
            *same(
                lambda i: (
                    TurnAnnotation.objects.select_related("turn")
                    .select_for_update(of=("self",))
                    .get(turn__conversation_id=pick(conversation_ids, i), turn__number=1 + i % 12)
                ),
                lambda i: annotation_flow._STEP_OF_TURN[True].first(
                    pick(conversation_ids, i), 1 + i % 12
                ),
            ),
            args,
        )
        compare(
            "turn a reply settles (turn, conversation, study), locked",
            *same(
                lambda i: (
                    Turn.objects.select_for_update(of=("self",))
                    .select_related("conversation__study")
                    .get(pk=pick(turns, i))
                ),
                lambda i: chat._TURN_TO_SETTLE.first(pick(turns, i)),
            ),
            args,
        )


if __name__ == "__main__":
    main()
