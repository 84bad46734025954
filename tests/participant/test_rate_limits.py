"""Rate limits on participant endpoints (DRF throttles on the cache): counted per participant
once a session exists, per address before; a 429 says when to come back."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    return set_rates


def test_a_participant_over_the_limit_gets_429_with_retry_after(participant_client, rates):
    rates(participant="3/min")
    client = participant_client()
    client.start()
    replies = [client.get("session") for _ in range(4)]
    assert [r.status for r in replies] == [200, 200, 200, 429]
    assert replies[-1].error["code"] == "rate_limited"
    assert int(replies[-1].headers["Retry-After"]) > 0


def test_limits_are_per_participant_not_per_address(participant_client, rates):
    rates(participant="2/min")
    first, second = participant_client(), participant_client()
    first.start()
    second.start()
    for _ in range(2):
        first.get("session")
    assert first.get("session").status == 429
    assert second.get("session").status == 200  # same address, other participant


def test_starts_are_limited_per_address(participant_client, rates):
    rates(participant_start="2/min")
    statuses = [participant_client().start().status for _ in range(3)]
    assert statuses == [201, 201, 429]
