"""The static-files middleware keeps asynchronous requests asynchronous.

WhiteNoise's own middleware is synchronous only, so Django made every request under uvicorn
(the streaming chat included) cross into a thread and back. The project's subclass is sync-
and async-capable: these tests check that the ASGI middleware chain is never adapted, and
that static files are still served under both ASGI and WSGI.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connection
from django.test import AsyncClient, Client, override_settings

ADMIN_CSS = "/static/admin/css/base.css"
# Served from the apps' static folders (finders), as in development: no collectstatic needed.
FIND_STATIC_FILES = {"WHITENOISE_AUTOREFRESH": True, "WHITENOISE_USE_FINDERS": True}


def test_the_asgi_middleware_chain_has_no_synchronous_link(caplog):
    # Django logs each adaptation at DEBUG level when settings.DEBUG is on.
    with override_settings(DEBUG=True), caplog.at_level(logging.DEBUG, logger="django.request"):
        handler = ASGIHandler()
    adaptations = [r.getMessage() for r in caplog.records if "adapted for" in r.getMessage()]
    assert adaptations == []
    assert iscoroutinefunction(handler._middleware_chain)


@pytest.mark.django_db
@override_settings(**FIND_STATIC_FILES)
async def test_a_static_file_is_served_under_asgi():
    response = await AsyncClient().get(ADMIN_CSS)
    assert response.status_code == 200
    assert b"".join(response.streaming_content)  # a file: a synchronous iterator


@pytest.fixture
async def close_view_thread_connection():
    """The health view (synchronous) runs on asgiref's thread for thread-sensitive work, whose
    database connection outlives the request under the test client (it keeps Django from
    closing connections when a request ends): closed on that thread, or PostgreSQL refuses to
    drop the test database at the end of the run ("being accessed by other users")."""
    yield
    await sync_to_async(lambda: connection.close())()  # that thread's connection, not ours


@pytest.mark.django_db
@override_settings(**FIND_STATIC_FILES)
async def test_other_requests_reach_their_view_under_asgi(close_view_thread_connection):
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 200


@pytest.mark.django_db
@override_settings(**FIND_STATIC_FILES)
def test_a_static_file_is_served_under_wsgi():
    response = Client().get(ADMIN_CSS)
    assert response.status_code == 200
    assert b"".join(response.streaming_content)
