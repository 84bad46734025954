"""The "improved" reply is written in the background by the study's improver model (a Celery
task: ids in, idempotent) while the participant annotates; the API never waits for it (how
long the comparison waits for it: test_improved_reply_timeout.py)."""

import pytest

from annotations.models import ImprovedStatus, TurnAnnotation
from annotations.services.improver import run_improver
from annotations.tasks import improve_reply

pytestmark = pytest.mark.django_db


@pytest.fixture
def turn_of(participant_client, answered_turn, improver_queue):
    def make(study=None):
        client = participant_client(study)
        client.onboard()
        answered_turn(client, reply="You should just calm down.", improve=False)
        return client, improver_queue[-1] if improver_queue else None

    return make


def test_the_reply_step_only_enqueues_the_improver(turn_of):
    client, turn_id = turn_of()
    step = client.get("turns/1/annotation").body
    assert step["comparison"]["status"] == "pending" and step["comparison"]["responses"] is None
    assert TurnAnnotation.objects.get(turn_id=turn_id).llm_improved_reply is None


def test_the_task_writes_the_improved_reply_once(turn_of):
    client, turn_id = turn_of()
    assert improve_reply(turn_id) == "ready"
    annotation = TurnAnnotation.objects.get(turn_id=turn_id)
    assert annotation.improved_status == ImprovedStatus.READY
    assert "might help to" in annotation.llm_improved_reply  # the demo improver softened it
    assert annotation.improved_meta["model"] == "attune-demo/improver"
    assert improve_reply(turn_id) == "skipped"  # a redelivered task changes nothing
    comparison = client.get("turns/1/annotation").body["comparison"]
    assert comparison["status"] == "ready"
    shown = set(comparison["responses"].values())
    assert shown == {"You should just calm down.", annotation.llm_improved_reply}


def test_a_failed_improver_skips_the_comparison(turn_of, upstream_study, openai_server):
    client, turn_id = turn_of(upstream_study)
    openai_server.behaviour.status(400, message="bad request")  # not retryable
    assert run_improver(turn_id) == "failed"
    step = client.get("turns/1/annotation").body
    assert step["comparison"]["status"] == "failed"
    assert client.annotate(1).status == 200  # nothing to compare: the submit goes through


def test_a_retryable_improver_failure_is_retried_by_the_task(
    turn_of, upstream_study, openai_server
):
    _, turn_id = turn_of(upstream_study)
    openai_server.behaviour.server_error(times=1)
    result = improve_reply.apply(args=[turn_id])  # eager: retries run in this process
    assert result.get() == "ready"
    assert TurnAnnotation.objects.get(turn_id=turn_id).improved_status == ImprovedStatus.READY


def test_a_study_without_an_improver_has_no_comparison(make_chat_study, turn_of):
    study = make_chat_study()
    study.improver_endpoint = None
    study.save()
    client, _ = turn_of(study)
    step = client.get("turns/1/annotation").body
    assert step["comparison"] == {"status": "unavailable", "questions": [], "responses": None}
    assert client.annotate(1).status == 200
