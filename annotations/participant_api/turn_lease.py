"""Keeps a streaming turn's lease (annotations/services/chat.py) while its stream lives.

The renewal runs beside the stream, not on its events: the gateway may wait a long time
without a token (an upstream's Retry-After, a slow first token), and the turn's owner is alive
all that while. A retry is refused until the lease lapses, which happens only when the owner's
process is gone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from annotations.participant_api.db import run_in_db_thread, write
from annotations.services import chat

logger = logging.getLogger(__name__)


@asynccontextmanager
async def lease_kept(plan: chat.ChatPlan) -> AsyncIterator[None]:
    """Renew the plan's lease every third of its length while the body runs."""
    task = asyncio.create_task(_renew_until_lost(plan, chat.turn_lease().total_seconds() / 3))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


async def _renew_until_lost(plan: chat.ChatPlan, interval_s: float) -> None:
    while True:
        await asyncio.sleep(interval_s)
        try:
            owned = await run_in_db_thread(write, chat.renew_lease, plan.turn_id, plan.claim)
        except Exception:  # a database hiccup: try again at the next beat
            logger.exception("could not renew the lease of turn %s", plan.turn_id)
            continue
        if not owned:
            return  # settled or taken over: nothing to keep (a reply that comes is still stored)
