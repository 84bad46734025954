"""A table with no row in a release (model_configs, when every conversation was imported) is
declared nowhere: no config in the dataset card, no record set in croissant.json and no field
referencing it, so `datasets` and `mlcroissant` load everything the release does declare."""

import json
import logging
from pathlib import Path

import datasets
import mlcroissant as mlc
import pytest

from annotations.releases.services import build_release, create_release
from annotations.releases.tables import TABLES
from tests.factories import make_conversation, make_study

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported_release(releases_dir) -> Path:
    """A release made only of imported conversations: they ran under no configuration."""
    study = make_study()
    for _ in range(3):
        make_conversation(study=study)
    release = create_release(
        name="imported", version="1.0.0", studies=[study], actor_label="test", subsample_sizes=[]
    )
    return Path(build_release(release.pk).folder)


def test_the_empty_table_keeps_its_files_but_is_not_declared(imported_release):
    manifest = json.loads((imported_release / "MANIFEST.json").read_text())
    rows = {entry["path"]: entry["rows"] for entry in manifest["files"]}
    assert rows["tables/model_configs.parquet"] == 0
    croissant = json.loads((imported_release / "croissant.json").read_text())
    record_sets = {record_set["@id"]: record_set for record_set in croissant["recordSet"]}
    assert "model_configs" not in record_sets
    assert set(record_sets) == {t.name for t in TABLES} - {"model_configs"}
    fields = [field for record_set in record_sets.values() for field in record_set["field"]]
    assert not [field["@id"] for field in fields if "references" in field]
    assert "tables/model_configs.parquet" in {f["@id"] for f in croissant["distribution"]}
    card = (imported_release / "README.md").read_text(encoding="utf-8")
    assert "config_name: model_configs" not in card
    assert "model_configs" in card and "empty in this release" in card
    codebook = (imported_release / "codebook.md").read_text(encoding="utf-8")
    assert "Empty in this release" in codebook.split("### model_configs", 1)[1].split("###")[0]


def test_mlcroissant_iterates_every_record_set(imported_release, caplog):
    with caplog.at_level(logging.WARNING):
        dataset = mlc.Dataset(jsonld=imported_release / "croissant.json")
    assert not dataset.metadata.ctx.issues.errors
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not dataset.metadata.ctx.issues.warnings
    for record_set in dataset.metadata.record_sets:
        assert sum(1 for _ in dataset.records(record_set.uuid)) > 0, record_set.name


def test_datasets_loads_every_config_the_card_declares(imported_release, tmp_path):
    folder = str(imported_release)
    names = datasets.get_dataset_config_names(folder)
    assert names == [t.name for t in TABLES if t.name != "model_configs"]
    for name in names:
        rows = datasets.load_dataset(folder, name, split="train", cache_dir=str(tmp_path))
        assert len(rows) > 0, name


def test_a_demo_release_still_declares_the_configurations_and_the_reference(ecosystem_release):
    folder = ecosystem_release.folder
    assert "model_configs" in datasets.get_dataset_config_names(str(folder))
    croissant = json.loads((folder / "croissant.json").read_text())
    record_sets = {record_set["@id"]: record_set for record_set in croissant["recordSet"]}
    assert record_sets["model_configs"]["key"] == {"@id": "model_configs/model_config_id"}
    (field,) = [f for f in record_sets["conversations"]["field"] if f["name"] == "model_config_id"]
    assert field["references"] == {"field": {"@id": "model_configs/model_config_id"}}
    assert "empty in this release" not in (folder / "README.md").read_text(encoding="utf-8")
