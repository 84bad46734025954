"""build_release without --study: the only study is taken (and named); otherwise the choices."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.releases.models import Release
from tests.factories import make_study

pytestmark = pytest.mark.django_db


def run(*args) -> list[str]:
    out = StringIO()
    call_command("build_release", *args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_with_one_study_it_takes_it_and_says_which_and_how_many(demo_study, releases_dir):
    lines = run("--name", "attunebench", "--version", "1.0.0", "--inline", "--subsamples", "5")
    assert lines[0] == (
        f"no --study given: using the only study, {demo_study.slug} ({demo_study.title}), "
        "24 conversations"
    )
    release = Release.objects.get(name="attunebench")
    assert list(release.studies.all()) == [demo_study]
    assert Path(lines[-1]).is_dir()


def test_with_several_studies_it_lists_them_and_builds_nothing(demo_study, releases_dir):
    make_study(slug="pilot", title="Pilot study")
    with pytest.raises(CommandError) as raised:
        run("--name", "attunebench", "--version", "1.0.0", "--inline")
    message = str(raised.value)
    assert "there are 2 studies: choose with --study SLUG" in message
    assert f"  {demo_study.slug}  {demo_study.title} (24 conversations)" in message
    assert "  pilot  Pilot study (0 conversations)" in message
    assert not Release.objects.exists()


def test_with_no_study_it_says_to_create_one(releases_dir):
    with pytest.raises(CommandError, match="there is no study yet"):
        run("--name", "attunebench", "--version", "1.0.0", "--inline")


def test_a_license_the_hub_does_not_know_is_refused_with_the_closest(demo_study, releases_dir):
    with pytest.raises(CommandError, match="closest are cc-by-nc-4.0"):
        run("--name", "x", "--version", "1.0.0", "--license", "CC BY-NC 4.0: research only")
    assert not Release.objects.exists()
    lines = run(
        "--name",
        "x",
        "--version",
        "1.0.0",
        "--inline",
        "--license",
        "other",
        "--license-name",
        "CC BY-NC 4.0: research only",
    )
    assert (
        "license_name: 'CC BY-NC 4.0: research only'" in (Path(lines[-1]) / "README.md").read_text()
    )
