"""Every refused start is counted per study and reason (in the cache: a flood of refusals writes
no rows) and the study's monitor shows them by day, as a chart, a table and a CSV."""

import dataclasses

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from annotations.qa.monitoring import monitoring_tables
from tests.participant.starts import new_pid, start_from

pytestmark = pytest.mark.django_db


def test_refusals_are_counted_per_reason_and_shown(make_chat_study, settings, client, researcher):
    study = make_chat_study(target_participants=1)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"participant_start": "4/min"},
    }
    settings.ATTUNE = dataclasses.replace(settings.ATTUNE, study_starts_per_minute=5)
    assert start_from(study.slug, pid="not-from-prolific").status == 400  # malformed_id
    pid = new_pid()
    first = start_from(study.slug, pid=pid)
    assert first.status == 201
    token = first.body["token"]
    consented = APIClient(REMOTE_ADDR="203.0.113.7").post(
        "/api/study/consent",
        {"consent_version": "2", "agree": True},
        format="json",
        HTTP_AUTHORIZATION=f"Participant {token}",
    )
    assert consented.status_code == 200
    assert start_from(study.slug, pid=pid).status == 403  # repeated_id (already_started)
    assert start_from(study.slug).status == 403  # study_full
    assert start_from(study.slug).status == 429  # the 5th call of 203.0.113.7: address_limit
    assert start_from(study.slug, "198.51.100.1").status == 403  # the budget's 5th: study_full
    assert start_from(study.slug, "198.51.100.2").status == 429  # study_budget
    start_from("no-such-study")  # counts nowhere

    table = monitoring_tables(study)["refused_starts"]
    day = timezone.localdate().isoformat()
    row = dict(zip(table.columns, table.rows[0], strict=True))
    assert len(table.rows) == 1 and row["day"] == day
    assert row == {
        "day": day,
        "address_limit": 1,
        "study_budget": 1,
        "malformed_id": 1,
        "repeated_id": 1,
        "study_full": 2,
        "total": 6,
    }

    client.force_login(researcher)
    page = client.get(reverse("qa:monitoring", args=[study.slug])).text
    assert "Starts refused by day" in page and 'id="qa-refused_starts"' in page
    csv = client.get(reverse("qa:monitoring_csv", args=[study.slug, "refused_starts"]))
    assert csv.content.decode().splitlines()[1] == f"{day},1,1,1,1,2,6"
