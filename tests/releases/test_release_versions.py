"""Semantic versions say what changed: MINOR for added records, MAJOR for removed or changed."""

import pytest

from annotations.demo import seed_demo
from annotations.models import Turn
from annotations.releases.models import ReleaseState
from annotations.releases.services import (
    ReleaseError,
    build_release,
    compare_releases,
    create_release,
)
from annotations.releases.versioning import diff_hashes, version_problem

pytestmark = pytest.mark.django_db


def test_diff_and_required_bump():
    diff = diff_hashes({"a": "1", "b": "2", "c": "3"}, {"a": "1", "b": "changed", "d": "4"})
    assert (diff.added, diff.removed, diff.changed, diff.unchanged) == (["d"], ["c"], ["b"], 1)
    assert diff.required_bump == "major"
    assert diff_hashes({"a": "1"}, {"a": "1", "b": "2"}).required_bump == "minor"
    assert diff_hashes({"a": "1"}, {"a": "1"}).required_bump == "patch"


def test_version_problem_messages():
    added = diff_hashes({"a": "1"}, {"a": "1", "b": "2"})
    assert version_problem("1.0.0", "1.1.0", added) is None
    assert version_problem("1.0.0", "2.0.0", added) is None
    assert "needs a MINOR version (e.g. 1.1.0), not 1.0.1" in version_problem(
        "1.0.0", "1.0.1", added
    )
    assert "not higher" in version_problem("1.2.0", "1.1.9", added)


def test_added_records_need_a_minor_version(build, demo_study):
    build("1.0.0")
    seed_demo(30, seed=5)  # six more conversations in the same study
    with pytest.raises(ReleaseError, match="that needs a MINOR version"):
        build("1.0.1")
    assert build("1.1.0").counts["conversations"] == 30


def test_changed_records_need_a_major_version(build, demo_study):
    build("1.0.0")
    Turn.objects.filter(pk=Turn.objects.order_by("pk").first().pk).update(
        model_reply="changed reply"
    )
    with pytest.raises(ReleaseError, match="needs a MAJOR version"):
        build("1.1.0")


def test_a_failed_build_is_recorded_and_leaves_no_folder(build, demo_study, releases_dir):
    build("1.0.0")
    seed_demo(26, seed=5)
    release = create_release(name="attunebench", version="1.0.1", studies=[demo_study])
    with pytest.raises(ReleaseError):
        build_release(release.pk)
    release.refresh_from_db()
    assert release.state == ReleaseState.FAILED and "MINOR" in release.error
    assert not (releases_dir / "attunebench" / "1.0.1").exists()
    assert not list((releases_dir / "attunebench").glob(".tmp-*"))


def test_creating_a_lower_or_duplicate_version_is_refused(build, demo_study):
    build("1.2.0")
    with pytest.raises(ReleaseError, match="not higher than the latest release attunebench@1.2.0"):
        create_release(name="attunebench", version="1.1.0", studies=[demo_study])
    with pytest.raises(ReleaseError, match="already exists"):
        create_release(name="attunebench", version="1.2.0", studies=[demo_study])
    with pytest.raises(ReleaseError, match="not MAJOR.MINOR.PATCH"):
        create_release(name="attunebench", version="v2", studies=[demo_study])


def test_compare_lists_added_conversations(build, demo_study):
    old = build("1.0.0")
    seed_demo(26, seed=5)
    new = build("1.1.0")
    diff = compare_releases(old, new).diff
    assert len(diff.added) == 2 and not diff.removed and not diff.changed
