"""End to end with a real Celery worker: a reply's improved alternate is written by the worker
(not by the web request) while the participant annotates."""

import time

import pytest

from annotations.models import ImprovedStatus, TurnAnnotation
from attune_collect.celery import app as celery_app
from tests.conftest import REAL_SEND_TASK
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_worker_writes_the_improved_reply(chat_study, live_participant, monkeypatch):
    monkeypatch.setattr(celery_app, "send_task", REAL_SEND_TASK)  # this test sends for real
    client = live_participant(chat_study)
    client.onboard()
    with celery_worker(name="improver"):
        done = client.send("You should not feel so upset about it, my friend said.")
        assert done.data("done")["annotation"]["comparison"]["status"] == "pending"
        deadline = time.monotonic() + 60
        comparison = None
        while time.monotonic() < deadline:
            comparison = client.get("turns/1/annotation").body["comparison"]
            if comparison["status"] != "pending":
                break
            time.sleep(0.2)
    assert comparison is not None and comparison["status"] == "ready", comparison
    annotation = TurnAnnotation.objects.get()
    assert annotation.improved_status == ImprovedStatus.READY
    assert set(comparison["responses"].values()) == {
        annotation.turn.model_reply,
        annotation.llm_improved_reply,
    }
    assert client.annotate(1).status == 200
