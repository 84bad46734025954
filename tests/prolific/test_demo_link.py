"""`make demo`'s Prolific: the demo study linked to the local test server (manage.py
demo_prolific, then the server started with --load), so a researcher can sync, review and pay
offline. The same path as the demo, run here: the command, the server loaded from its file,
then what the admin's buttons call."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotations.demo import seed_demo
from annotations.models import ConversationState, Participant, ProlificLink
from annotations.prolific.bonuses import bonus_table, intend_bonuses, pay_bonuses
from annotations.prolific.demo import DEMO_PROLIFIC_STUDY_ID, DEMO_TOKEN_ENV
from annotations.prolific.review import intend_approvals, send_decisions
from annotations.prolific.sync import sync_study
from attune_collect.prolific.testing.prolific_server import run_prolific_server

pytestmark = pytest.mark.django_db

CONVERSATIONS = 20


@pytest.fixture
def demo_token(monkeypatch) -> str:
    monkeypatch.setenv(DEMO_TOKEN_ENV, "demo-token")
    return "demo-token"


def test_the_demo_study_syncs_reviews_and_pays_against_the_local_server(
    demo_token, tmp_path, django_user_model
):
    report = seed_demo(CONVERSATIONS, 1)
    assert report.created == CONVERSATIONS
    out = tmp_path / "demo-prolific.json"
    with run_prolific_server(demo_token) as server:
        call_command("demo_prolific", api_base=server.base_url, out=out)
        assert server.load(out) == CONVERSATIONS
        link = ProlificLink.objects.get(study=report.study)
        assert (link.prolific_study_id, link.token_env) == (DEMO_PROLIFIC_STUDY_ID, DEMO_TOKEN_ENV)
        pids = set(
            Participant.objects.filter(study=report.study).values_list("prolific_pid", flat=True)
        )
        assert len(pids) == CONVERSATIONS and all(len(pid) == 24 for pid in pids)

        first = sync_study(link)
        assert first.seen == CONVERSATIONS
        assert first.by_status == {"AWAITING REVIEW": 16, "RETURNED": 2, "TIMED-OUT": 2}
        assert first.places_freed == 4
        assert not sync_study(link).made_changes  # the second sync changes nothing

        researcher = django_user_model.objects.create_user("demo-ra")
        assert intend_approvals(link, actor=researcher) == 16
        assert send_decisions(link).sent == 16
        rows = bonus_table(link)
        assert len(rows) == 16 and all(row.amount_cents > 0 for row in rows)
        intend_bonuses(
            link, actor=researcher, expected_total_cents=sum(r.amount_cents for r in rows)
        )
        assert pay_bonuses(link).paid == 1
        assert list(server.paid_bulk_bonuses().values()) == [1]
        assert len(server.calls_of("transition")) == 16

    # A second run (the next `make demo`) keeps the ids and writes the same submissions.
    data = json.loads(out.read_text())
    call_command("demo_prolific", api_base="http://127.0.0.1:8091", out=out)
    assert json.loads(out.read_text())["submissions"] == data["submissions"]
    freed = Participant.objects.filter(study=report.study, place_freed_at__isnull=False)
    # Freed places of completed synthetic conversations: their conversations stay completed.
    assert {c.state for p in freed for c in p.conversations.all()} == {ConversationState.COMPLETED}


def test_the_demo_link_points_only_at_a_loopback_server(tmp_path):
    seed_demo(1, 1)
    with pytest.raises(CommandError, match="loopback"):
        call_command("demo_prolific", api_base="https://api.prolific.com", out=tmp_path / "x")
    assert not ProlificLink.objects.exists()
