"""Quotas per stratum of the profile's traits (annotations/services/quotas.py), checked when
the profile is submitted: an at-most quota screens out the N+1th of its stratum, an at-least
quota keeps the last places for its stratum, a freed place reopens its stratum's, the monitor
shows each stratum's places, ``quota.reached`` is sent once per quota, and two profiles racing
for a stratum's last place: exactly one gets it."""

import threading

import pytest
from django.db import transaction
from django.utils import timezone

from annotations.models import Participant, ReturningLinkPolicy, Study
from annotations.qa.monitoring import quota_places
from annotations.services import quotas as quota_service
from annotations.services.participants import submit_profile
from tests.participant.client import DjangoTransport, ParticipantClient
from tests.threads import in_a_thread, until_another_waits_for_a_lock

AT_MOST_ONE_DIAGNOSED = [{"id": "diagnosed", "trait": "diagnosis:", "at_most": 1}]
AT_LEAST_TWO_UNDIAGNOSED = [
    {"id": "undiagnosed", "trait": "diagnosis:", "without": True, "at_least": 2}
]


def consented(participant_client, study):
    client = participant_client(study)
    assert client.start().status == 201
    assert client.post("consent", {"consent_version": "2", "agree": True}).body["step"] == "profile"
    return client


def profile(client, diagnosis: str | None = None) -> str:
    body = {"age": 30} | ({"diagnosis": diagnosis} if diagnosis else {})
    reply = client.post("profile", body)
    assert reply.status == 200, reply.body
    return reply.body["step"]


@pytest.mark.django_db
class TestAtMost:
    def test_the_next_one_of_the_stratum_is_screened_out_with_the_code(
        self, make_chat_study, participant_client
    ):
        study = make_chat_study(target_participants=10, quotas=AT_MOST_ONE_DIAGNOSED)
        assert profile(consented(participant_client, study), "adhd") == "pre_panas"
        late = consented(participant_client, study)
        reply = late.post("profile", {"age": 30, "diagnosis": "depression"})
        assert reply.body["step"] == "screened_out"
        assert reply.body["screenout"]["code"] == "SCR33N"
        participant = Participant.objects.get(prolific_pid=late.pid)
        assert participant.screenout_reason == "quota_full"
        assert participant.profile_submitted_at is None
        # Outside the stratum, the study still takes people.
        assert profile(consented(participant_client, study)) == "pre_panas"

    def test_a_freed_place_reopens_the_stratum(self, make_chat_study, participant_client):
        study = make_chat_study(target_participants=10, quotas=AT_MOST_ONE_DIAGNOSED)
        first = consented(participant_client, study)
        profile(first, "adhd")
        Participant.objects.filter(prolific_pid=first.pid).update(
            place_freed_at=timezone.now(), place_freed_reason="RETURNED"
        )
        assert profile(consented(participant_client, study), "adhd") == "pre_panas"

    def test_a_fresh_session_of_the_same_person_is_not_a_newcomer(
        self, make_chat_study, participant_client
    ):
        study = make_chat_study(
            target_participants=10,
            quotas=AT_MOST_ONE_DIAGNOSED,
            returning_link_policy=ReturningLinkPolicy.FRESH,
        )
        first = consented(participant_client, study)
        profile(first, "adhd")
        again = ParticipantClient(DjangoTransport(), study.slug, first.pid)
        assert again.start(session_id="OTHER").status == 201
        again.post("consent", {"consent_version": "2", "agree": True})
        assert profile(again, "adhd") == "pre_panas"


@pytest.mark.django_db
def test_an_at_least_quota_keeps_the_last_places_for_its_stratum(
    make_chat_study, participant_client
):
    study = make_chat_study(target_participants=3, quotas=AT_LEAST_TWO_UNDIAGNOSED)
    assert profile(consented(participant_client, study), "adhd") == "pre_panas"
    # Two places left, both kept for the undiagnosed: a second diagnosed one is screened out.
    assert profile(consented(participant_client, study), "adhd") == "screened_out"
    assert profile(consented(participant_client, study)) == "pre_panas"
    assert profile(consented(participant_client, study)) == "pre_panas"


@pytest.mark.django_db
def test_the_monitor_shows_each_stratums_places(make_chat_study, participant_client):
    study = make_chat_study(
        target_participants=10, quotas=AT_MOST_ONE_DIAGNOSED + AT_LEAST_TWO_UNDIAGNOSED
    )
    freed = consented(participant_client, study)
    profile(freed, "adhd")
    Participant.objects.filter(prolific_pid=freed.pid).update(
        place_freed_at=timezone.now(), place_freed_reason="TIMED-OUT"
    )
    profile(consented(participant_client, study), "adhd")
    profile(consented(participant_client, study))
    table = quota_places(study)
    assert table.rows == [
        ("diagnosed", "at most 1 with diagnosis:", 1, 1, 0),
        ("undiagnosed", "at least 2 without diagnosis:", 1, 0, 1),
    ]


@pytest.mark.django_db
def test_quota_reached_is_sent_once_per_quota(make_chat_study, participant_client, monkeypatch):
    sent: list[tuple] = []
    monkeypatch.setattr(quota_service, "emit", lambda *args: sent.append(args))
    study = make_chat_study(target_participants=10, quotas=AT_MOST_ONE_DIAGNOSED)
    first = consented(participant_client, study)
    profile(first, "adhd")
    assert len(sent) == 1
    event_type, study_id, ids = sent[0]
    assert str(event_type) == "quota.reached" and ids == {"study_id": study.pk, "quota_id": 0}
    # Freed and filled again: the same quota is not announced twice.
    Participant.objects.filter(prolific_pid=first.pid).update(
        place_freed_at=timezone.now(), place_freed_reason="RETURNED"
    )
    profile(consented(participant_client, study), "adhd")
    assert len(sent) == 1
    assert Study.objects.get(pk=study.pk).quotas_reached == ["diagnosed"]


@pytest.mark.django_db(transaction=True)
def test_two_profiles_racing_for_the_last_place_of_a_stratum(make_chat_study, participant_client):
    study = make_chat_study(target_participants=10, quotas=AT_MOST_ONE_DIAGNOSED)
    racers = [
        Participant.objects.get(prolific_pid=consented(participant_client, study).pid)
        for _ in range(2)
    ]
    both_ready = threading.Barrier(2)

    def submit(participant: Participant) -> None:
        both_ready.wait()
        submit_profile(participant, age=30, diagnosis="adhd")

    with transaction.atomic():
        Study.objects.select_for_update().get(pk=study.pk)  # both wait behind this lock
        workers = [in_a_thread(lambda p=p: submit(p)) for p in racers]
        until_another_waits_for_a_lock()
    for worker in workers:
        worker.join()
    outcomes = sorted(
        (p.profile_submitted_at is None, p.screenout_reason)
        for p in Participant.objects.filter(pk__in=[r.pk for r in racers])
    )
    assert outcomes == [(False, ""), (True, "quota_full")]
