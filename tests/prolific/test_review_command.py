"""``manage.py prolific_review``: ``--dry-run`` shows who would be approved and the bonus table
and sends nothing; a full run syncs, approves and pays once; a viewer may not run it."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotations.prolific.sync import sync_study
from tests.prolific.conftest import arrive, complete

pytestmark = pytest.mark.django_db


def run(study, actor, **options) -> str:
    out = io.StringIO()
    call_command("prolific_review", study.slug, actor=actor.username, stdout=out, **options)
    return out.getvalue()


def test_dry_run_then_run(linked_study, prolific_server, researcher):
    for _ in range(2):
        complete(arrive(linked_study, prolific_server), prolific_server)
    sync_study(linked_study.prolific)
    calls_before = len(prolific_server.calls)
    shown = run(linked_study, researcher, dry_run=True)
    assert "would approve 2 submissions" in shown
    assert len(prolific_server.calls) == calls_before  # nothing sent, nothing read
    run(linked_study, researcher, pay=True)
    shown = run(linked_study, researcher, dry_run=True, pay=True)
    assert "would approve 0" in shown and "total bonus owed: 0 cents" in shown
    assert len(prolific_server.calls_of("transition")) == 2
    assert list(prolific_server.paid_bulk_bonuses().values()) == [1]


def test_a_viewer_may_not_run_it(linked_study, viewer, prolific_server):
    with pytest.raises(CommandError):
        run(linked_study, viewer)
    assert not prolific_server.calls
