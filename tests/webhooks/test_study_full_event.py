"""``study.full``: sent by the consent that takes a study's last place, once."""

import pytest

from annotations.services.participants import give_consent
from tests.factories import make_participant
from webhooks.event_types import EventType

pytestmark = pytest.mark.django_db


def test_the_last_place_sends_study_full_once(
    lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    first, _, member = lab
    first.target_participants = 2
    first.save()
    subscribe(member, [first], [EventType.STUDY_FULL])
    people = [make_participant(first, prolific_pid=f"PID-{n}") for n in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        give_consent(people[0], consent_version="1", agree=True)
    run_deliveries()
    assert receiver.received == []  # one place left
    with django_capture_on_commit_callbacks(execute=True):
        give_consent(people[1], consent_version="1", agree=True)
        give_consent(people[2], consent_version="1", agree=True)  # screened out: full already
    run_deliveries()
    (got,) = receiver.received
    assert got.verified and got.json["type"] == "study.full"
    assert got.json["data"] == {"study_id": first.pk, "study_ids": [first.pk]}
