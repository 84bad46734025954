"""The API token is read from the environment at each call and appears nowhere: not in the
database (links, submissions, decisions, batches, audit entries), not in a log line (also when
calls fail and are retried), not on the admin page, not in the command's output."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.core import serializers
from django.core.management import call_command
from django.urls import reverse

from annotations.models import (
    AuditEntry,
    BonusBatch,
    ProlificLink,
    ProlificSubmission,
    ReviewDecision,
)
from annotations.prolific.sync import sync_study
from tests.prolific.conftest import arrive, complete, review_and_pay

pytestmark = pytest.mark.django_db


def test_the_token_appears_nowhere(
    linked_study, prolific_server, token, researcher, client, caplog
):
    caplog.set_level(logging.DEBUG)
    link = linked_study.prolific
    complete(arrive(linked_study, prolific_server), prolific_server)
    prolific_server.faults.add("list", "rate_limit").add("list", "server_error")
    sync_study(link, actor=researcher)
    review_and_pay(link, prolific_server, researcher)
    client.force_login(researcher)
    page = client.get(reverse("admin:annotations_prolificlink_operate", args=[link.pk]))
    change = client.get(reverse("admin:annotations_prolificlink_change", args=[link.pk]))
    out = io.StringIO()
    call_command(
        "prolific_review", linked_study.slug, actor=researcher.username, dry_run=True, stdout=out
    )

    stored = serializers.serialize(
        "json",
        [
            *ProlificLink.objects.all(),
            *ProlificSubmission.objects.all(),
            *ReviewDecision.objects.all(),
            *BonusBatch.objects.all(),
            *AuditEntry.objects.all(),
        ],
    )
    assert AuditEntry.objects.filter(action__startswith="prolific.").exists()
    assert "WARNING" in caplog.text or "INFO" in caplog.text  # the retries were logged
    for text in (
        stored,
        caplog.text,
        page.content.decode(),
        change.content.decode(),
        out.getvalue(),
        json.dumps([c.body for c in prolific_server.calls]),
    ):
        assert token not in text
