"""Browsers ask for /favicon.ico on every page: it is there (no 404 on each load)."""

import pytest


@pytest.mark.django_db
def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert "max-age=86400" in response["Cache-Control"]
