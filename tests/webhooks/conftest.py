"""Fixtures for the webhook tests: a local receiver, an endpoint registered on it, and a way to
run the deliveries the code under test asked for (``sent_tasks`` keeps them off any broker)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from tests.factories import make_endpoint, make_staff, make_study
from webhooks import services
from webhooks.delivery import deliver
from webhooks.dispatch import DELIVER
from webhooks.testing.receiver import WebhookReceiver


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


@pytest.fixture(autouse=True)
def fast_retries(settings):
    """No real wait between attempts (the test runs the next message itself); short timeouts."""
    settings.ATTUNE = replace(
        settings.ATTUNE, webhook_backoff_s=0.001, webhook_timeout_s=5, webhook_max_attempts=4
    )


@pytest.fixture
def subscribe(receiver):
    """``subscribe(user, studies, events)``: an endpoint of ``user`` on the receiver, which
    verifies with its secret; returns the endpoint."""

    def register(user, studies, events):
        endpoint, secret = services.register_endpoint(
            user, url=receiver.url, study_ids=[s.pk for s in studies], events=events
        )
        receiver.secret = secret
        return endpoint

    return register


@pytest.fixture
def run_deliveries(sent_tasks, django_capture_on_commit_callbacks):
    """Run the delivery messages sent so far, and those they send (retries), in order, as a
    worker would; returns how many ran."""

    def run() -> int:
        ran = 0
        while sent_tasks[DELIVER]:
            delivery_id = sent_tasks[DELIVER].pop(0)
            with django_capture_on_commit_callbacks(execute=True):
                deliver(delivery_id)
            ran += 1
        return ran

    return run


@pytest.fixture
def lab(db):
    """Two studies (the first with a model to chat with) and a researcher limited to it."""
    first, second = make_study(title="First"), make_study(title="Second")
    first.model_pool.set([make_endpoint()])
    member = make_staff("researcher", studies={first: "researcher"})
    return first, second, member
