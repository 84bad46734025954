"""The same data gives byte-identical files and the same hashes."""

from dataclasses import replace
from pathlib import Path

import pytest

from annotations.releases.models import Release, ReleaseState
from annotations.releases.services import build_release

pytestmark = pytest.mark.django_db


def file_bytes(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_rebuilding_gives_identical_files_and_hash(build, settings, tmp_path):
    first = build()
    first_files = file_bytes(Path(first.folder))
    first_archive = (Path(first.folder).parent / "attunebench-1.0.0.tar.gz").read_bytes()
    # Rebuild the same release into another folder, as a second machine would.
    settings.ATTUNE = replace(settings.ATTUNE, releases_dir=tmp_path / "elsewhere")
    Release.objects.filter(pk=first.pk).update(state=ReleaseState.DRAFT)
    second = build_release(first.pk)
    assert second.content_hash == first.content_hash
    assert file_bytes(Path(second.folder)) == first_files
    assert (Path(second.folder).parent / "attunebench-1.0.0.tar.gz").read_bytes() == first_archive


def test_a_patch_version_of_the_same_data_has_the_same_data_files(build):
    first = build("1.0.0")
    patch = build("1.0.1")
    one, two = file_bytes(Path(first.folder)), file_bytes(Path(patch.folder))
    data = [name for name in one if name.startswith(("conversations/", "tables/", "subsamples/"))]
    assert data and all(one[name] == two[name] for name in data)
