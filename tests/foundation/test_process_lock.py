"""process_lock: a second holder of the same purpose and number waits for the first, on
PostgreSQL (an advisory lock) and SQLite (a file lock); another number does not wait; the lock
goes with its block, also when the block raises."""

from __future__ import annotations

import threading

import pytest

from attune_collect.process_lock import process_lock
from tests.threads import in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)  # each thread its own connection
WAIT_S = 10.0  # bounds every wait of these tests
OVERLAP_S = 0.3  # how long the second holder is given to get in while it must not


def hold_until(number: int, holding: threading.Event, release: threading.Event) -> None:
    with process_lock("test", number):
        holding.set()
        release.wait(WAIT_S)


def enter(number: int) -> tuple[threading.Thread, threading.Event]:
    """A thread that takes the lock of ``number`` and lets go; the event: it got in."""
    got_in = threading.Event()

    def take() -> None:
        with process_lock("test", number):
            got_in.set()

    return in_a_thread(take), got_in


def test_the_same_number_waits_for_the_holder():
    holding, release = threading.Event(), threading.Event()
    first = in_a_thread(lambda: hold_until(7, holding, release))
    assert holding.wait(WAIT_S)
    second, second_in = enter(7)
    assert not second_in.wait(OVERLAP_S)  # held by the first
    release.set()
    assert second_in.wait(WAIT_S)  # in once the first let go
    first.join(WAIT_S)
    second.join(WAIT_S)


def test_another_number_does_not_wait():
    holding, release = threading.Event(), threading.Event()
    first = in_a_thread(lambda: hold_until(7, holding, release))
    assert holding.wait(WAIT_S)
    try:
        other, other_in = enter(8)  # another of SQLite's lock files too
        assert other_in.wait(WAIT_S)
    finally:
        release.set()
    first.join(WAIT_S)
    other.join(WAIT_S)


def test_a_block_that_raises_lets_go():
    with pytest.raises(RuntimeError), process_lock("test", 9):
        raise RuntimeError("the block failed")
    again, got_in = enter(9)
    again.join(WAIT_S)
    assert got_in.is_set()
