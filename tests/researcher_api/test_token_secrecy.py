"""A token's value is shown once (the admin's message after issuing) and is nowhere else:
not in any database row (a full dump), not in the audit log, not in any log line, also when
requests with it (or with a wrong one) fail."""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from annotations.models import AuditEntry
from researcher_api.models import ApiToken
from tests.researcher_api.conftest import api

pytestmark = pytest.mark.django_db

ADD = "/admin/researcher_api/apitoken/add/"


def test_the_value_is_shown_once_and_stored_nowhere(personas, sides, client, caplog):
    caplog.set_level(logging.DEBUG)
    researcher = personas["researcher"]
    client.force_login(researcher)
    expires = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S")
    response = client.post(
        ADD,
        {
            "name": "nightly script",
            "studies": [sides["own"].study.pk],
            "scope": "write",
            "expires_at_0": expires[:10],
            "expires_at_1": expires[11:],
        },
        follow=True,
    )
    shown = [str(m) for m in response.context["messages"]]
    (message,) = [m for m in shown if "att_" in m]
    value = message.split(": ")[-1].strip()
    token = ApiToken.objects.get()
    assert token.user == researcher and value.startswith(f"att_{token.prefix}_")

    # Used, well and badly: a read, a refused write, a wrong value of the same shape.
    assert api(value).get("/api/v1/studies/demo/").status_code == 200
    assert api(value).post("/api/v1/studies/other-study/pause/").status_code == 404
    assert api(value[:-2] + "xx").get("/api/v1/studies/").status_code == 401
    # The admin's list of tokens does not show it again.
    listed = client.get("/admin/researcher_api/apitoken/")
    assert token.prefix in listed.text and value not in listed.text

    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert value not in dump.getvalue()
    assert token.prefix in dump.getvalue()  # the dump did hold the token's row
    secret_part = value.rsplit("_", 1)[-1]
    assert secret_part not in dump.getvalue()
    assert not any(value in str(e.data) for e in AuditEntry.objects.all())
    assert AuditEntry.objects.filter(action="researcher_api.token.issue").exists()
    logged = "\n".join(r.getMessage() for r in caplog.records) + caplog.text
    assert secret_part not in logged
