"""A folder left under the final name by a build killed between its rename and its freeze (the
row says not frozen) is moved aside and removed when the retry publishes its own; the archive
left beside it is replaced. Nothing of the dead build stays."""

from pathlib import Path

import pytest

from annotations.releases.manifest import sha256_file, verify_folder
from annotations.releases.models import ReleaseState
from annotations.releases.services import build_release, create_release

pytestmark = pytest.mark.django_db


def test_a_killed_builds_final_folder_and_archive_are_replaced(demo_study, releases_dir):
    release = create_release(name="attunebench", version="1.0.0", studies=[demo_study])
    stale = releases_dir / "attunebench" / "1.0.0"
    (stale / "tables").mkdir(parents=True)
    (stale / "tables" / "half.jsonl").write_text("{}\n")
    stale.chmod(0o555)  # made read-only, as a build does just before it publishes
    (releases_dir / "attunebench" / "attunebench-1.0.0.tar.gz").write_bytes(b"stale")

    frozen = build_release(release.pk)

    assert frozen.state == ReleaseState.FROZEN and Path(frozen.folder) == stale
    assert not (stale / "tables" / "half.jsonl").exists()
    assert verify_folder(stale, frozen.content_hash).ok
    archive = releases_dir / "attunebench" / "attunebench-1.0.0.tar.gz"
    assert sha256_file(archive) == frozen.archive_sha256
    assert sorted(p.name for p in stale.parent.iterdir()) == ["1.0.0", "attunebench-1.0.0.tar.gz"]
