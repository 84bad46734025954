"""A frozen release can never change: row, files, rebuild and delete are all refused."""

import os
import stat
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.releases.models import Release, ReleaseFrozenError
from annotations.releases.services import build_release, enqueue_build

pytestmark = pytest.mark.django_db


def test_the_row_refuses_changes_and_deletion(build):
    release = build()
    release.description = "edited"
    with pytest.raises(ReleaseFrozenError, match="is frozen and cannot change"):
        release.save()
    with pytest.raises(ReleaseFrozenError, match="cannot be deleted"):
        release.delete()
    assert Release.objects.get(pk=release.pk).description == ""


def test_files_are_read_only(build):
    folder = Path(build().folder)
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        assert mode & 0o222 == 0, path


def test_building_a_frozen_release_again_changes_nothing(build):
    release = build()
    again = build_release(release.pk)
    assert (again.content_hash, again.frozen_at) == (release.content_hash, release.frozen_at)


def test_enqueueing_a_frozen_release_is_refused(build):
    with pytest.raises(ReleaseFrozenError, match="build a new version"):
        enqueue_build(build())


def test_the_command_refuses_to_rebuild_a_frozen_release(build):
    build()
    with pytest.raises(CommandError, match="already frozen .* use a new version"):
        call_command(
            "build_release",
            "--name",
            "attunebench",
            "--version",
            "1.0.0",
            "--study",
            "demo",
            "--inline",
            stdout=StringIO(),
        )
