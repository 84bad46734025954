"""Open streams hold no database connection: the chat writes before and after each stream on a
small pool of threads, so many participants waiting for replies use a handful of connections
(200 streams once exhausted PostgreSQL's 100)."""

import dataclasses
import threading
import time

import pytest
from django.db import connection

from annotations.participant_api.db import DB_THREADS

pytestmark = pytest.mark.django_db(transaction=True)
STREAMS = 30
# Besides the chat's database threads, the server process's connection pool (PostgreSQL) keeps
# the connection the onboarding requests used, one at a time, open for reuse.
IDLE_POOLED = 1


def database_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_thirty_open_streams_use_at_most_the_pool(
    upstream_study, live_participant, openai_server, settings
):
    if connection.vendor != "postgresql":
        pytest.skip("counts server-side connections (PostgreSQL)")
    # Thirty participants from one address (127.0.0.1): more than an address may hold by default.
    settings.ATTUNE = dataclasses.replace(settings.ATTUNE, max_streams_per_address=STREAMS)
    upstream_study.target_participants = STREAMS + 5
    upstream_study.save()
    clients = [live_participant(upstream_study) for _ in range(STREAMS)]
    for client in clients:
        client.onboard()
    openai_server.behaviour.token_delay_s = 0.5  # every reply stays open for seconds
    results = {}
    threads = [
        threading.Thread(target=lambda c=c: results.setdefault(c.pid, c.send("hi")))
        for c in clients
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while openai_server.behaviour.in_flight < STREAMS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert openai_server.behaviour.in_flight == STREAMS  # all thirty are streaming now
    assert database_connections() <= DB_THREADS + IDLE_POOLED < STREAMS
    for thread in threads:
        thread.join(timeout=60)
    assert all(result.names[-1] == "done" for result in results.values())
