"""The command-line waiters say that the work stopped moving instead of waiting silently."""

from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from attune_collect.stall import StallWatch


def test_a_stall_is_reported_once_per_bound():
    now = [0.0]
    watch = StallWatch(10, clock=lambda: now[0])
    assert watch.stalled_for(1) is None
    now[0] = 9
    assert watch.stalled_for(1) is None
    now[0] = 11
    assert watch.stalled_for(1) == 11
    now[0] = 15
    assert watch.stalled_for(1) is None  # reported a moment ago
    now[0] = 22
    assert watch.stalled_for(1) == 22
    assert watch.stalled_for(2) is None  # progress: the watch starts again


@pytest.mark.django_db
def test_evaluate_reports_the_stall_while_it_waits(demo_release_for_cli, settings, tmp_path):
    settings.ATTUNE = replace(settings.ATTUNE, unclaimed_requeue_s=1)
    err = StringIO()
    with pytest.raises(CommandError, match="no Celery worker took run"):
        call_command(
            "evaluate",
            "--release",
            str(demo_release_for_cli),
            "--model",
            "demo-listener",
            "--worker-timeout",
            "2.5",
            "--out",
            str(tmp_path / "out"),
            stdout=StringIO(),
            stderr=err,
        )
    assert "stalled: no progress for" in err.getvalue()


@pytest.fixture
def demo_release_for_cli(db, settings, tmp_path):
    from annotations.demo import ensure_demo_endpoints
    from tests.evaluation.conftest import make_release

    settings.ATTUNE = replace(
        settings.ATTUNE,
        releases_dir=tmp_path / "releases",
        evaluations_dir=tmp_path / "evaluations",
    )
    ensure_demo_endpoints()
    return make_release(conversations=3)
