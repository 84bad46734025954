"""/healthz answers for load balancers and compose health checks."""

import pytest


@pytest.mark.django_db
def test_health_reports_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
