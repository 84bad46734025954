"""Participant API requests start no thread: Django's per-request executor (and the thread that
joins it) would be started from the event loop, which waits for each new thread to run."""

import threading

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_participant_requests_start_no_thread(upstream_study, live_participant, monkeypatch):
    client = live_participant(upstream_study)
    client.onboard()  # the first requests start the pools' threads, once per process
    client.get("session")
    started: list[str] = []
    real_start = threading.Thread.start

    def counting_start(thread: threading.Thread) -> None:
        started.append(thread.name)
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", counting_start)

    result = client.send("hello")
    for _ in range(5):
        assert client.get("session").status == 200
    assert client.get("turns/1/annotation").status == 200

    assert result.names[-1] == "done"
    assert started == []
