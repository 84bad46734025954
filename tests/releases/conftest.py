"""Fixtures for release tests: a scratch releases folder and a small seeded study."""

import pytest

from annotations.models import Study
from annotations.releases.services import build_release, create_release
from annotations.services.demo import seed_demo


@pytest.fixture
def releases_dir(settings, tmp_path):
    settings.ATTUNE_RELEASES_DIR = tmp_path / "releases"
    return settings.ATTUNE_RELEASES_DIR


@pytest.fixture
def demo_study(db) -> Study:
    return seed_demo(24, seed=5).study


@pytest.fixture
def build(releases_dir, demo_study):
    """Create and build a release inline; returns the frozen Release."""

    def _build(version: str = "1.0.0", name: str = "attunebench", **rules):
        release = create_release(
            name=name, version=version, studies=[demo_study], actor_label="test", **rules
        )
        return build_release(release.pk)

    return _build
