"""build_release: inline builds print the folder last; without a worker it says so clearly."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.releases.models import Release, ReleaseState

pytestmark = pytest.mark.django_db


# attunebench 1.0.0 of the demo study: the release every test here builds.
DEMO_RELEASE = ("--name", "attunebench", "--version", "1.0.0", "--study", "demo")


def run(*args) -> list[str]:
    out = StringIO()
    call_command("build_release", *args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_inline_build_prints_the_folder_as_its_last_line(demo_study, releases_dir):
    lines = run(*DEMO_RELEASE, "--inline", "--subsamples", "10")
    folder = Path(lines[-1])
    assert folder == releases_dir / "attunebench" / "1.0.0"
    assert (folder / "subsamples" / "sample10.txt").is_file()
    assert Release.objects.get(name="attunebench").state == ReleaseState.FROZEN


def test_without_a_worker_it_says_so_and_can_be_retried_inline(
    demo_study, releases_dir, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=False),
        pytest.raises(CommandError, match="no Celery worker picked up the build within 0.5 s"),
    ):
        run(*DEMO_RELEASE, "--worker-timeout", "0.5")
    release = Release.objects.get(name="attunebench")
    assert release.state == ReleaseState.DRAFT
    lines = run(*DEMO_RELEASE, "--inline")
    assert "exists (Draft (queued)): building it again" in lines[0]
    assert Path(lines[-1]).is_dir()


def test_unknown_study_and_bad_subsamples(demo_study, releases_dir):
    with pytest.raises(CommandError, match="no study with slug nope"):
        run("--name", "x", "--version", "1.0.0", "--study", "nope", "--inline")
    with pytest.raises(CommandError, match="comma-separated integers"):
        run(
            "--name",
            "x",
            "--version",
            "1.0.0",
            "--study",
            "demo",
            "--subsamples",
            "ten",
            "--inline",
        )
