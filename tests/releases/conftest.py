"""Fixtures for release tests: a scratch releases folder and a small seeded study."""

import os
import tempfile
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.test import override_settings

from annotations.demo import seed_demo
from annotations.models import Study
from annotations.releases.services import build_release, create_release


@pytest.fixture
def releases_dir(settings, tmp_path):
    settings.ATTUNE = replace(settings.ATTUNE, releases_dir=tmp_path / "releases")
    return settings.ATTUNE.releases_dir


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


# The ecosystem's tools never go online in tests, and cache under a folder of this process only.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("HF_HOME", tempfile.mkdtemp(prefix="attune-hf-"))

# A license name with a colon, quotes and non-ASCII text: what broke the hand-written YAML.
AWKWARD_LICENSE_NAME = 'CC BY-NC 4.0: research only, "non-commercial" — café'


@dataclass(frozen=True)
class BuiltRelease:
    folder: Path
    frozen_on: date
    conversations: int


@pytest.fixture(scope="session")
def ecosystem_release(django_db_setup, django_db_blocker, tmp_path_factory) -> BuiltRelease:
    """One small frozen release for the tests that load it with the ecosystem's tools
    (datasets, mlcroissant, huggingface_hub, pandas), built once per test process.

    The database rows are rolled back at once; only the folder stays (read-only, as released)."""
    releases = tmp_path_factory.mktemp("ecosystem") / "releases"
    with (
        django_db_blocker.unblock(),
        override_settings(ATTUNE=replace(django_settings.ATTUNE, releases_dir=releases)),
        transaction.atomic(),
    ):
        study = seed_demo(6, seed=11).study
        release = create_release(
            name="attunebench",
            version="1.0.0",
            studies=[study],
            actor_label="test",
            license="other",
            license_name=AWKWARD_LICENSE_NAME,
            subsample_sizes=[4],
        )
        built = build_release(release.pk)
        transaction.set_rollback(True)
    return BuiltRelease(Path(built.folder), built.frozen_at.date(), built.counts["conversations"])
