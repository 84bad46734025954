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


@dataclass(frozen=True)
class TwoLanguageRelease:
    folder: Path
    # What the database said before the rollback, to check the release against.
    languages: dict[str, int]  # conversations per language
    instrument_sha256: dict[str, str]  # the instrument a participant in each language saw
    translation_of: str  # the base's content hash the Spanish translation was written from


@pytest.fixture(scope="session")
def two_language_release(
    django_db_setup, django_db_blocker, tmp_path_factory
) -> TwoLanguageRelease:
    """A frozen release of a study taken in English and Spanish (``seed_two_language_study``),
    built once per test process for the tests that load it with the ecosystem's tools; the
    database rows are rolled back, the folder stays."""
    from django.db.models import Count

    from annotations.releases.services import selected_conversations
    from tests.factories import seed_two_language_study

    releases = tmp_path_factory.mktemp("two-languages") / "releases"
    with (
        django_db_blocker.unblock(),
        override_settings(ATTUNE=replace(django_settings.ATTUNE, releases_dir=releases)),
        transaction.atomic(),
    ):
        study = seed_two_language_study(8, seed=13)
        release = create_release(
            name="attunebench-languages",
            version="1.0.0",
            studies=[study],
            actor_label="test",
            subsample_sizes=[4],
        )
        built = build_release(release.pk)
        chosen, _ = selected_conversations(built)  # the conversations the release holds
        counted = chosen.order_by().values_list("participant__language").annotate(n=Count("pk"))
        spanish = study.instrument.translations.get(language="es")
        found = TwoLanguageRelease(
            folder=Path(built.folder),
            languages=dict(counted),
            instrument_sha256={"en": study.instrument.content_hash, "es": spanish.content_hash},
            translation_of=spanish.base_hash,
        )
        transaction.set_rollback(True)
    return found
