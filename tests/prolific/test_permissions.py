"""Who may sync, review and pay: a researcher of the study. A viewer, a QA reviewer, an
outsider and a researcher limited to another study may not (no intent is recorded, nothing is
sent), and none of them may even open the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import ReviewDecision
from tests.factories import make_staff, make_study
from tests.prolific.conftest import arrive, complete

pytestmark = pytest.mark.django_db

ACTIONS = ("sync", "approve", "pay", "recruiting")


@pytest.fixture
def ready(linked_study, prolific_server):
    """A participant ready for approval (synced)."""
    from annotations.prolific.sync import sync_study

    complete(arrive(linked_study, prolific_server), prolific_server)
    sync_study(linked_study.prolific)
    return linked_study.prolific


def post(client, user, link, action):
    client.force_login(user)
    url = reverse(f"admin:annotations_prolificlink_{action}", args=[link.pk])
    return client.post(url, {"expected_total_cents": "0", "action": "PAUSE"})


@pytest.mark.parametrize("persona", ["viewer", "reviewer", "outsider"])
def test_others_may_not_act(
    persona, request, client, ready, sent_tasks, django_capture_on_commit_callbacks
):
    user = request.getfixturevalue(persona)
    for action in ACTIONS:
        with django_capture_on_commit_callbacks(execute=True):
            reply = post(client, user, ready, action)
        assert reply.status_code in (302, 403)
        if reply.status_code == 302:  # the admin sends a non-staff account to its login page
            assert "/login/" in reply["Location"]
    page = client.get(reverse("admin:annotations_prolificlink_operate", args=[ready.pk]))
    assert page.status_code in (302, 403)
    assert not ReviewDecision.objects.exists() and not sent_tasks


def test_a_researcher_of_another_study_may_not_act(client, ready, sent_tasks):
    elsewhere = make_staff("researcher", studies={make_study(): "researcher"})
    for action in ACTIONS:
        assert post(client, elsewhere, ready, action).status_code == 403
    assert not ReviewDecision.objects.exists() and not sent_tasks


def test_the_researcher_records_approvals_and_asks_for_them_to_be_sent(
    client, researcher, ready, sent_tasks, django_capture_on_commit_callbacks
):
    page_url = reverse("admin:annotations_prolificlink_operate", args=[ready.pk])
    client.force_login(researcher)
    assert client.get(page_url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, researcher, ready, "approve").status_code == 302
    decision = ReviewDecision.objects.get()
    assert decision.decided_by == researcher and decision.action == "APPROVE"
    assert sent_tasks["prolific.settle"] == [ready.pk]
