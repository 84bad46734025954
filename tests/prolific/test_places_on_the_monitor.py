"""The monitor and the link's page show places held, freed (by reason) and remaining."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.prolific.sync import sync_study
from annotations.qa.monitoring import places
from tests.prolific.conftest import arrive

pytestmark = pytest.mark.django_db


def test_freed_places_are_counted_by_reason(linked_study, prolific_server, researcher, client):
    arrivals = [arrive(linked_study, prolific_server) for _ in range(4)]
    prolific_server.set_status(arrivals[0].submission_id, "RETURNED")
    prolific_server.set_status(arrivals[1].submission_id, "TIMED-OUT")
    sync_study(linked_study.prolific)
    table = places(linked_study)
    row = dict(zip(table.columns, table.rows[0], strict=True))
    assert row["held"] == 2 and row["remaining"] == 18
    assert row["freed: RETURNED"] == 1 and row["freed: TIMED-OUT"] == 1
    client.force_login(researcher)
    page = client.get(reverse("qa:monitoring", args=[linked_study.slug]))
    assert page.status_code == 200 and b"Places held, freed and remaining" in page.content
