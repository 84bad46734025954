"""The API token appears in nothing the study produces once it ran on Prolific (issue 37, "the
token appears nowhere"): not in any file of a release built from the study, not in what a
participant's browser receives (the app page and every API answer of the steps they take),
not on the study monitor or its CSV tables, not in an evaluation report of that release.

The companion ``test_token_never_shown.py`` covers the database, the logs, the link's admin
pages and the review command. Here the study first goes the whole way (synced, approved,
bonuses paid, with faults and retries) so every place the token could have leaked into is
filled before it is searched."""

from __future__ import annotations

import gzip
import json
import tarfile
from io import BytesIO, StringIO
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from annotations.demo import ensure_demo_endpoints
from annotations.models import Study
from annotations.prolific.sync import sync_study
from annotations.qa.monitoring import TABLES
from annotations.releases.services import build_release, create_release
from tests.evaluation.conftest import evaluation_dirs, redis_prefix  # noqa: F401 - autouse
from tests.participant.client import DjangoTransport, ParticipantClient
from tests.prolific.conftest import PROLIFIC_STUDY, arrive, complete, review_and_pay

pytestmark = pytest.mark.django_db

RELEASE = ("attunebench", "1.0.0")


@pytest.fixture
def study_that_ran(linked_study, prolific_server, researcher) -> Study:
    """Two participants completed, one returned; synced, approved and paid, through a 429,
    a 500 after the work and a retried pay call: every path that handles the token ran."""
    link = linked_study.prolific
    for _ in range(2):
        complete(arrive(linked_study, prolific_server), prolific_server)
    returned = arrive(linked_study, prolific_server)
    prolific_server.set_status(returned.submission_id, "RETURNED")
    prolific_server.faults.add("list", "rate_limit")
    sync_study(link, actor=researcher)
    review_and_pay(link, prolific_server, researcher)
    assert any(call.path.endswith("/pay/") for call in prolific_server.calls)
    return linked_study


def _release_texts(folder: Path) -> list[str]:
    """Every file of the release as text, parquet tables also decoded row by row (their
    column data may be compressed), and the download archive unpacked."""
    texts = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        texts.append(path.read_bytes().decode("utf-8", "replace"))
        if path.suffix == ".parquet":
            texts.append(json.dumps(pq.read_table(path).to_pylist(), default=str))
    archives = list(folder.parent.glob("*.tar.gz"))
    assert archives, "the build writes the download archive beside the folder"
    for archive in archives:
        with tarfile.open(fileobj=BytesIO(gzip.decompress(archive.read_bytes()))) as tar:
            for member in tar.getmembers():
                if member.isfile():
                    extracted = tar.extractfile(member)
                    assert extracted is not None
                    texts.append(extracted.read().decode("utf-8", "replace"))
    return texts


def _build(study: Study):
    name, version = RELEASE
    release = create_release(name=name, version=version, studies=[study], actor_label="test")
    return build_release(release.pk)


def test_not_in_a_release_built_from_the_study(study_that_ran, token):
    release = _build(study_that_ran)
    assert release.counts["conversations"] == 2
    texts = _release_texts(Path(release.folder))
    assert any("conversation" in text for text in texts)  # the search reads real content
    for text in texts:
        assert token not in text


def test_not_in_what_a_participant_sees(study_that_ran, token):
    participant = ParticipantClient(DjangoTransport(), study_that_ran.slug)
    answers = [participant.start(study_id=PROLIFIC_STUDY, session_id="SUBMISSION1")]
    answers.append(participant.get("session"))
    answers.append(participant.get("instrument"))
    answers.append(participant.post("consent", {"consent_version": "1", "agree": True}))
    answers.append(participant.post("withdraw", {}))  # the exit page's codes and texts
    answers.append(participant.get("session"))
    assert [a.status for a in answers[:4]] == [201, 200, 200, 200], answers
    page = Client().get(
        reverse("participant-app", args=[study_that_ran.slug]),
        {"PROLIFIC_PID": participant.pid, "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": "S1"},
    )
    assert page.status_code == 200
    for text in (page.content.decode(), *(json.dumps(a.body) for a in answers)):
        assert token not in text
    for answer in answers:
        assert token not in json.dumps(answer.headers)


def test_not_on_the_study_monitor(study_that_ran, token, researcher, client):
    client.force_login(researcher)
    page = client.get(reverse("qa:monitoring", args=[study_that_ran.slug]))
    assert page.status_code == 200 and b"Places held, freed and remaining" in page.content
    texts = [page.content.decode()]
    for table in TABLES:
        csv = client.get(reverse("qa:monitoring_csv", args=[study_that_ran.slug, table]))
        assert csv.status_code == 200, table
        texts.append(csv.content.decode())
    for text in texts:
        assert token not in text


def test_not_in_an_evaluation_report_of_the_release(study_that_ran, token, tmp_path):
    _build(study_that_ran)
    ensure_demo_endpoints()
    out = tmp_path / "report"
    call_command(
        "evaluate",
        "--release",
        "@".join(RELEASE),
        "--model",
        "demo-listener",
        "--inline",
        "--out",
        str(out),
        stdout=StringIO(),
    )
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"report.html", "report.json"}
    for path in files:
        assert token not in path.read_bytes().decode("utf-8", "replace"), path
