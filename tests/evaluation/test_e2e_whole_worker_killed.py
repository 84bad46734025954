"""End to end on Redis: a whole worker (the parent and its pool processes) is SIGKILLed while it
runs an evaluation and builds a release; a new worker is started, and both finish without any
manual action within the documented bound (lease + unclaimed bound + a sweep interval, lowered
here to seconds through the same settings a deployment uses).

The kill lands while both are under way by construction, not by timing: the build is held
between two chunks by a barrier the test controls (``tests/build_hold.py``, on the
build's ``build_chunk_written`` signal), and the run's model is the local OpenAI-compatible test
server, whose answers are held, so a unit is provably waiting for a call. Only then is the
worker killed; the holds are released and a new worker takes both over.
"""

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from annotations import dispatch
from annotations.demo import seed_demo
from annotations.models import Conversation
from annotations.qa.services.personal_details import scan_queryset
from annotations.releases.manifest import verify_folder
from annotations.releases.models import Redaction, Release, ReleaseState
from annotations.releases.services import create_release, enqueue_build
from attune_collect.llm.testing import run_test_server
from attune_collect.worker_process import worker_command
from evaluation.models import EvaluationRun, RunStatus, UnitStatus
from evaluation.services.creation import create_run
from evaluation.services.planning import RunRequest
from tests import build_hold, worker_process
from tests.evaluation.conftest import make_release
from tests.factories import make_test_server_endpoint
from tests.processes import stop_process
from tests.releases.test_killed_worker import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
BOUNDS = {
    "ATTUNE_TEST_UNIT_LEASE_S": "3",
    "ATTUNE_UNCLAIMED_REQUEUE_S": "4",
    "ATTUNE_RELEASE_BUILD_LEASE_S": "4",
}
# From the kill to both finished: the bounds above (a few seconds) plus a cold worker start and
# the rest of the work itself. On a two-core machine at a load average of 11 to 13, 123 to 176 s
# were measured (six runs), about 60 s of them the new worker's pool processes warming up.
RECOVERY_BOUND_S = 360
# A cold prefork worker (its pool processes warm up: 60 s at that load) and four chunks.
WORKER_START_BOUND_S = 240
# Once the build is held, the other pool process starts the run and calls the model.
RUN_START_BOUND_S = 60
KEY_ENV = "E2E_TEST_API_KEY"
# Enough for the build to be held with most of it still to write (4 of 12): the barrier, not
# the size, puts the kill mid-build, and the rescuer rebuilds all of them in chunks of one.
CONVERSATIONS = 12
HELD_AT = 4  # conversations the build has written when it is held (chunks of one)


def start_worker(env: dict[str, str], name: str) -> subprocess.Popen:
    """A prefork worker (a parent and two pool processes) in a process group of its own."""
    return subprocess.Popen(
        worker_command(name, pool="prefork", concurrency=2),
        cwd=worker_process.ROOT,
        env={**os.environ, "DATABASE_URL": worker_process.test_database_url(), **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def demo_reply(body) -> str:
    """The demo persona named by the requested model (listener or advisor) answers."""
    from attune_collect.llm.demo_provider import build_demo_reply

    return build_demo_reply(f"attune-demo/{body['model']}", body["messages"]).text


def build_held(hold: Path, release: Release) -> bool:
    """The build said it is held, and its row says so too: building, under its first claim,
    with the chunks written before the barrier recorded and the rest still to write."""
    if not build_hold.held_file(hold).exists():
        return False
    return Release.objects.filter(
        pk=release.pk,
        state=ReleaseState.BUILDING,
        attempts=1,
        progress_done=HELD_AT,
        progress_total__gt=HELD_AT,
    ).exists()


def unit_waiting_for_its_model(server, run: EvaluationRun) -> bool:
    """A unit of the run is claimed and running, and its call is open at the model, which
    holds every answer: the run cannot finish before the holds are released."""
    running = EvaluationRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).exists()
    unit = run.units.filter(status=UnitStatus.RUNNING).exists()
    return running and unit and server.behaviour.in_flight >= 1


def test_a_whole_worker_killed_mid_run_and_mid_build(
    celery_on_redis, settings, monkeypatch, tmp_path
):
    from attune_collect.celery import app

    hold = tmp_path / "build-hold"
    hold.mkdir()
    env = {
        **celery_on_redis,
        **BOUNDS,
        KEY_ENV: "sk-e2e",
        "ATTUNE_RELEASE_CHUNK_SIZE": "1",
        "ATTUNE_RELEASES_DIR": str(settings.ATTUNE.releases_dir),
        build_hold.HOLD_ENV: str(hold),
        build_hold.HOLD_AT_ENV: str(HELD_AT),
    }
    app.conf.task_default_queue = celery_on_redis["ATTUNE_TEST_QUEUE"]  # release builds too
    # The seeded conversations are scanned for personal details here, at once: the scan tasks
    # their completion queues would only hold the worker up.
    monkeypatch.setattr(dispatch, "scan_personal_details", lambda conversation_id: None)
    try:
        with run_test_server(demo_reply) as server:
            release = make_release(conversations=6, seed=4)
            listener, advisor = (
                make_test_server_endpoint(
                    server.base_url,
                    KEY_ENV,
                    model_name=persona,
                    litellm_model=f"openai/{persona}",
                    timeout_s=300,
                )
                for persona in ("listener", "advisor")
            )
            study = seed_demo(CONVERSATIONS, seed=11).study
            # Scanned for personal details beforehand, as a study's completed conversations are
            # by the time it is released: the build then goes straight to its chunks.
            scan_queryset(Conversation.objects.filter(study=study))
            to_build = create_release(
                name="killbench", version="1.0.0", studies=[study], redaction=Redaction.AUTO
            )
            server.behaviour.hold()  # every model call waits, open, until released
            doomed = start_worker(env, "doomed")
            try:
                # The build first: it holds one pool process at the barrier, so the other one is
                # free for the run (two units waiting for the model would leave none for it).
                enqueue_build(to_build)
                wait_for(
                    lambda: build_held(hold, to_build),
                    WORKER_START_BOUND_S,
                    "the build to be held mid-way",
                )
                run = create_run(
                    RunRequest(release=release, models=(listener, advisor)), actor_label="test"
                )
                wait_for(
                    lambda: unit_waiting_for_its_model(server, run),
                    RUN_START_BOUND_S,
                    "a unit of the run to wait for its model",
                )
                # Both under way, both held: nothing can move on until the kill.
                assert build_held(hold, to_build)
                assert unit_waiting_for_its_model(server, run)
            finally:
                os.killpg(doomed.pid, signal.SIGKILL)  # the parent and every pool process
                doomed.wait(timeout=10)
            killed_at = time.monotonic()
            run.refresh_from_db()
            assert run.status == RunStatus.RUNNING and run.units_done < run.units_total
            assert Release.objects.get(pk=to_build.pk).state == ReleaseState.BUILDING

            # The holds go: the killed build's barrier (nobody waits there any more) and the
            # model's answers, for the units the new worker runs again.
            build_hold.release_hold(hold)
            server.behaviour.release()
            rescuer = start_worker(env, "rescuer")
            try:
                wait_for(
                    lambda: EvaluationRun.objects.filter(
                        pk=run.pk, status=RunStatus.COMPLETED
                    ).exists(),
                    RECOVERY_BOUND_S,
                    "the run to finish by itself",
                )
                wait_for(
                    lambda: Release.objects.filter(
                        pk=to_build.pk, state=ReleaseState.FROZEN
                    ).exists(),
                    RECOVERY_BOUND_S - (time.monotonic() - killed_at),  # one bound for both
                    "the build to finish by itself",
                )
            finally:
                stop_process(rescuer, grace_s=20)
        print(f"\nrecovered {time.monotonic() - killed_at:.1f} s after the kill")
        run.refresh_from_db()
        assert run.units_done == run.units_total > 0 and run.units_failed == 0
        built = Release.objects.get(pk=to_build.pk)
        assert built.attempts >= 2 and built.counts["conversations"] == built.progress_total > 0
        assert verify_folder(Path(built.folder), built.content_hash).ok
    finally:
        app.conf.task_default_queue = "celery"
