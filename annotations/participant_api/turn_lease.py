"""Keeps a streaming turn's lease (annotations/services/chat.py) while its stream lives.

The renewal runs beside the stream, not on its events: the gateway may wait a long time
without a token (an upstream's Retry-After, a slow first token), and the turn's owner is alive
all that while. A retry is refused until the lease lapses, which happens only when the owner's
process is gone.

The open streams of one event loop (of one web process) are renewed together, every third of
the lease, in one step on the database pool for all of them (``chat.renew_leases``: two
statements). Each stream renewing its own lease took two database steps per 20 s reply, one
every 50 ms at 200 open streams; together it is one every 10 s. A stream registered just after
a beat waits at most one beat for its first renewal, as it did alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from annotations.participant_api.db import run_in_db_thread, write
from annotations.services import chat

logger = logging.getLogger(__name__)


@asynccontextmanager
async def lease_kept(plan: chat.ChatPlan) -> AsyncIterator[None]:
    """Renew the plan's lease, with every other open stream's, while the body runs."""
    leases = _leases_of_this_loop()
    leases.keep(plan.turn_id, plan.claim)
    try:
        yield
    finally:
        leases.let_go(plan.turn_id, plan.claim)


class _Leases:
    """The turns whose leases this event loop keeps (turn id -> claim), and the task that
    renews them; the task ends when none is left."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.claims: dict[int, int] = {}
        self.task: asyncio.Task[None] | None = None

    def keep(self, turn_id: int, claim: int) -> None:
        self.claims[turn_id] = claim
        if self.task is None or self.task.done():  # done: cancelled before it ever ran
            interval_s = chat.turn_lease().total_seconds() / 3
            self.task = self.loop.create_task(self._renew_while_any(interval_s))

    def let_go(self, turn_id: int, claim: int) -> None:
        if self.claims.get(turn_id) == claim:
            del self.claims[turn_id]

    async def _renew_while_any(self, interval_s: float) -> None:
        try:
            while self.claims:
                await asyncio.sleep(interval_s)
                beat = dict(self.claims)
                if not beat:
                    break
                try:
                    owned = await run_in_db_thread(write, chat.renew_leases, beat)
                except Exception:  # a database hiccup: try again at the next beat
                    logger.exception("could not renew the leases of %d streaming turns", len(beat))
                    continue
                for turn_id, claim in beat.items():
                    if turn_id not in owned:
                        # Settled or taken over: nothing to keep (a reply that comes is still
                        # stored, chat.record_reply).
                        self.let_go(turn_id, claim)
        finally:
            # No await from the last look at the claims to here: a stream that registers later
            # finds no keeper and starts a new one.
            if _keepers.get(self.loop) is self:
                del _keepers[self.loop]


_keepers: dict[asyncio.AbstractEventLoop, _Leases] = {}


def _leases_of_this_loop() -> _Leases:
    loop = asyncio.get_running_loop()
    leases = _keepers.get(loop)
    if leases is None:
        leases = _keepers[loop] = _Leases(loop)
    return leases
