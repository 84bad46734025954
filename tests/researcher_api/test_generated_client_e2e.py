"""The scripted workflow of docs/researcher-api.md, driven by the generated client
(clients/python/attune_researcher_client, as committed) against the platform under uvicorn with
a real Celery worker: create a study from the demo template, read the demo study's monitor,
build a release and download it (its SHA-256 checked against the header and the release), then
estimate and start an evaluation of a model on the local OpenAI-compatible test server (never a
real provider) and read its report. Slow: a worker process, a release build, an evaluation."""

from __future__ import annotations

import hashlib
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from annotations.demo import seed_demo
from annotations.qa.models import StudyMembership
from attune_collect.llm.testing import run_test_server
from tests.engine.conftest import server_json_reply
from tests.factories import make_test_server_endpoint
from tests.participant.conftest import asgi_server  # noqa: F401 - the fixture
from tests.releases.test_killed_worker import wait_for
from tests.researcher_api.conftest import mint
from tests.worker_process import celery_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"
KEY_ENV = "RESEARCHER_API_TEST_API_KEY"
PACKAGE = "attune_researcher_client"


def _module(name: str) -> ModuleType:
    """A module of the committed client (imported by name: it is no installed distribution)."""
    return importlib.import_module(f"{PACKAGE}.{name}" if name else PACKAGE)


def ok(response, status: int = 200):
    """The parsed answer of a call that must succeed (else the error body, in the failure)."""
    assert response.status_code == status, response.content
    return response.parsed


@pytest.fixture
def generated() -> Iterator[None]:
    sys.path.insert(0, str(CLIENTS))
    try:
        yield
    finally:
        sys.path.remove(str(CLIENTS))
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_the_scripted_workflow(generated, asgi_server, researcher, settings, monkeypatch):  # noqa: F811
    client = _module("")
    researcher_calls = "api.researcher."
    studies_create = _module(researcher_calls + "studies_create")
    studies_monitor = _module(researcher_calls + "studies_monitor")
    releases_build = _module(researcher_calls + "releases_build")
    releases_read = _module(researcher_calls + "releases_read")
    releases_download = _module(researcher_calls + "releases_download")
    evaluations_estimate = _module(researcher_calls + "evaluations_estimate")
    evaluations_start = _module(researcher_calls + "evaluations_start")
    evaluations_read = _module(researcher_calls + "evaluations_read")
    evaluations_report = _module(researcher_calls + "evaluations_report")
    models = _module("models")
    AuthenticatedClient = client.AuthenticatedClient
    ReleaseCreateInput, RunCreateInput = models.ReleaseCreateInput, models.RunCreateInput
    StudyCreateInput = models.StudyCreateInput
    ReleaseOutputStateEnum = models.ReleaseOutputStateEnum
    RunOutputStatusEnum = models.RunOutputStatusEnum
    StudyOutputStatusEnum = models.StudyOutputStatusEnum

    # The test polls as fast as it can; the rate limit has tests of its own.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"researcher_token": "100000/min"},
    }
    demo = seed_demo(4, seed=2, actor_label="test").study
    StudyMembership.objects.create(user=researcher, study=demo, role="researcher")
    monkeypatch.setenv(KEY_ENV, "sk-researcher-api-test")
    worker_env = {
        "ATTUNE_RELEASES_DIR": str(settings.ATTUNE.releases_dir),
        "ATTUNE_EVALUATIONS_DIR": str(settings.ATTUNE.evaluations_dir),
        KEY_ENV: "sk-researcher-api-test",
    }
    with run_test_server(server_json_reply) as server, celery_worker(worker_env, name="api"):
        endpoint = make_test_server_endpoint(server.base_url, KEY_ENV, created_for=demo)
        token = mint(researcher, [demo], "write")
        api = AuthenticatedClient(
            base_url=asgi_server, token=token, raise_on_unexpected_status=True
        )

        created = studies_create.sync(
            client=api, body=StudyCreateInput(slug="pilot-2027", title="Pilot", template="demo")
        )
        assert created.slug == "pilot-2027" and created.status == StudyOutputStatusEnum.DRAFT

        monitor = studies_monitor.sync("demo", client=api)
        funnel = next(t for t in monitor.tables if t.name == "funnel")
        assert sum(row[funnel.columns.index("started")] for row in funnel.rows) == 4

        body = ReleaseCreateInput(name="scripted", version="1.0.0", studies=["demo"])
        body.subsample_sizes = [2]
        built = releases_build.sync_detailed(client=api, body=body)
        assert built.status_code == 202, built.content
        release = built.parsed

        def frozen_release():
            read = releases_read.sync_detailed(release.id, client=api)
            assert read.status_code == 200, read.content
            return read.parsed.state == ReleaseOutputStateEnum.FROZEN and read.parsed

        frozen = wait_for(
            frozen_release,
            120,
            "the release to freeze",
        )
        download = releases_download.sync_detailed(release.id, client=api)
        archive = download.content
        assert hashlib.sha256(archive).hexdigest() == frozen.archive_sha256
        assert download.headers["X-Checksum-SHA256"] == frozen.archive_sha256

        run_body = RunCreateInput(release=release.id, models=[endpoint.alias])
        estimate = ok(evaluations_estimate.sync_detailed(client=api, body=run_body))
        assert estimate.units == 4 and estimate.calls > 0
        run = ok(evaluations_start.sync_detailed(client=api, body=run_body), 202)
        done = wait_for(
            lambda: (
                (r := evaluations_read.sync(run.id, client=api)).status
                in (RunOutputStatusEnum.COMPLETED, RunOutputStatusEnum.FAILED)
                and r
            ),
            240,
            "the evaluation run to finish",
        )
        assert done.status == RunOutputStatusEnum.COMPLETED, done.error
        assert server.behaviour.request_count > 0  # the model was the local test server
        report = evaluations_report.sync(run.id, client=api)
        assert report.run == run.id and report.report.additional_properties
