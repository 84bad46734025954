"""The start limit counts the address the deployment can vouch for: a client that writes a new
X-Forwarded-For on every request is still one client (issue 36: 10,000 starts from one machine,
each "a new address"). Run on the default cache and on Redis (REDIS_URL): both must hold."""

import dataclasses
import uuid

import pytest
from rest_framework.test import APIClient

from annotations.models import Participant
from annotations.participant_api.throttling import DEFAULT_RATES

pytestmark = pytest.mark.django_db

STARTS = 150
LIMIT = int(DEFAULT_RATES["participant_start"].split("/")[0])  # the configured rate: 60/min
PROXY = "10.0.0.7"
CLIENT = "203.0.113.7"


def start(study, *, remote: str, forwarded: str) -> int:
    reply = APIClient(REMOTE_ADDR=remote).post(
        f"/api/study/{study.slug}/start",
        {"prolific_pid": uuid.uuid4().hex[:24]},
        format="json",
        HTTP_X_FORWARDED_FOR=forwarded,
    )
    return reply.status_code


def admitted(statuses: list[int]) -> int:
    assert set(statuses) <= {201, 429}, statuses
    return statuses.count(201)


def test_a_forged_header_makes_no_new_address(chat_study):
    statuses = [
        start(chat_study, remote=CLIENT, forwarded=f"198.51.100.{i % 250}, 192.0.2.{i % 200}")
        for i in range(STARTS)
    ]
    assert admitted(statuses) == LIMIT
    assert Participant.objects.filter(study=chat_study).count() == LIMIT


def test_behind_a_trusted_proxy_the_address_it_appended_is_counted(chat_study, settings):
    settings.ATTUNE = dataclasses.replace(settings.ATTUNE, trusted_proxies=(PROXY,))
    # The client forges the left of the header; the proxy appends the address it received from.
    statuses = [
        start(chat_study, remote=PROXY, forwarded=f"198.51.100.{i % 250}, {CLIENT}")
        for i in range(STARTS)
    ]
    assert admitted(statuses) == LIMIT
    # The proxy's own address is not what is counted: another client behind it still starts.
    assert start(chat_study, remote=PROXY, forwarded="203.0.113.8") == 201
