"""A study admits so many starts a minute from all addresses together: a bot with many
addresses cannot fill it faster. A start refused for its address spends none of that budget."""

import dataclasses

import pytest

from tests.participant.starts import start_from

pytestmark = pytest.mark.django_db


@pytest.fixture
def budget(settings):
    def set_budget(per_minute: int) -> None:
        settings.ATTUNE = dataclasses.replace(settings.ATTUNE, study_starts_per_minute=per_minute)

    return set_budget


def test_starts_from_many_addresses_stop_at_the_study_budget(chat_study, make_chat_study, budget):
    budget(3)
    statuses = [start_from(chat_study.slug, f"198.51.100.{i}").status for i in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    refused = start_from(chat_study.slug, "198.51.100.99")
    assert refused.error["code"] == "rate_limited"
    other = make_chat_study()
    assert start_from(other.slug, "198.51.100.99").status == 201  # each study its own budget


def test_a_start_refused_for_its_address_spends_no_budget(chat_study, budget, settings):
    budget(2)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"participant_start": "1/min"},
    }
    statuses = [start_from(chat_study.slug, "203.0.113.7").status for _ in range(4)]
    assert statuses == [201, 429, 429, 429]
    assert start_from(chat_study.slug, "203.0.113.8").status == 201  # the budget's second
