"""The webhooks' task, sent by name after commit (see ``attune_collect/dispatch.py``)."""

from __future__ import annotations

from attune_collect.dispatch import send, send_on_commit

DELIVER = "webhooks.deliver"  # webhooks/tasks.py


def deliver_on_commit(delivery_id: int) -> None:
    """Ask a worker to deliver once the transaction that created the delivery commits."""
    send_on_commit(DELIVER, delivery_id)


def deliver_later(delivery_id: int, countdown: float) -> None:
    """The next attempt after a failed one, ``countdown`` seconds from now (the sweep sends it
    again if this message is lost)."""
    send(DELIVER, delivery_id, countdown=countdown)
