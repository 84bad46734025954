"""A receiver holding another secret cannot verify the deliveries (and one holding the
endpoint's can): the signature binds the body to the endpoint's secret."""

import pytest

from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.signing import new_secret

pytestmark = pytest.mark.django_db


def test_a_wrong_secret_fails_verification(
    lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    first, _, member = lab
    subscribe(member, [first], [EventType.QA_QUEUE_EMPTY])
    receiver.secret = new_secret()  # not the endpoint's
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.QA_QUEUE_EMPTY, first.pk, {"study_id": first.pk})
    run_deliveries()
    (got,) = receiver.received
    assert not got.verified
