"""Model assignment: balanced over the pool (fewest conversations per unit of weight, ties at
random), recorded on the conversation, never shown to the participant."""

import random
from collections import Counter

import pytest

from annotations.models import Conversation
from annotations.services.assignment import Candidate, pick_balanced
from tests.factories import make_endpoint, make_participant

pytestmark = pytest.mark.django_db


def test_the_least_loaded_endpoint_wins_and_ties_are_random():
    candidates = [Candidate(1, 1, 3), Candidate(2, 1, 2), Candidate(3, 1, 2)]
    picks = Counter(pick_balanced(candidates, random.Random(seed)) for seed in range(200))
    assert set(picks) == {2, 3}  # never the busier one; both tied ones get picked
    assert min(picks.values()) > 60


def test_weights_are_respected():
    # 4 conversations on a weight-2 endpoint is the same load as 2 on a weight-1 endpoint.
    assert pick_balanced([Candidate(1, 2, 4), Candidate(2, 1, 3)]) == 1


def test_consecutive_participants_spread_over_the_pool_by_weight(
    make_chat_study, participant_client
):
    heavy, light = make_endpoint(weight=2), make_endpoint(weight=1)
    study = make_chat_study()
    study.model_pool.set([heavy, light])
    for _ in range(9):
        client = participant_client(study)
        client.start()
        assert client.post("consent", {"consent_version": "2", "agree": True}).status == 200
    counts = Counter(
        Conversation.objects.filter(study=study).values_list("model_endpoint_id", flat=True)
    )
    assert counts == {heavy.pk: 6, light.pk: 3}


def test_preview_conversations_do_not_count(make_chat_study):
    from annotations.services.assignment import candidates_for

    first, second = make_endpoint(), make_endpoint()
    study = make_chat_study()
    study.model_pool.set([first, second])
    preview = make_participant(study, is_preview=True)
    Conversation.objects.create(
        study=study, participant=preview, external_id="pv", model_endpoint=first
    )
    loads = {c.endpoint_id: c.conversations for c in candidates_for(study, make_participant(study))}
    assert loads == {first.pk: 0, second.pk: 0}


def test_inactive_endpoints_are_never_assigned_and_an_empty_pool_says_so(
    make_chat_study, participant_client
):
    study = make_chat_study()
    study.model_pool.update(active=False)
    client = participant_client(study)
    client.start()
    reply = client.post("consent", {"consent_version": "2", "agree": True})
    assert reply.status == 503 and reply.error["code"] == "study_unavailable"


def test_the_participant_never_sees_the_model(participant_client, answered_turn):
    client = participant_client()
    client.onboard()
    answered_turn(client)
    conversation = Conversation.objects.get(participant__prolific_pid=client.pid)
    endpoint = conversation.model_endpoint
    seen = " ".join(
        str(client.get(path).body)
        for path in ("session", "turns/1", "turns/1/annotation", "instrument")
    )
    for secret in (endpoint.alias, endpoint.litellm_model, endpoint.system_prompt[:40]):
        assert secret not in seen
