"""croissant.json passes `mlcroissant` validation with no warning, and every record set loads."""

import json
import logging
import re
import shutil

import mlcroissant as mlc
import pytest

from annotations.releases.croissant import CONFORMS_TO
from annotations.releases.tables import TABLES

pytestmark = pytest.mark.django_db  # for the session's release build


def validate(path, caplog) -> tuple[object, list[str]]:
    """What `mlcroissant validate` does, with every warning it logs or records."""
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        dataset = mlc.Dataset(jsonld=path)
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    return dataset, logged + sorted(dataset.metadata.ctx.issues.warnings)


def test_validates_with_no_warning_and_every_record_set_loads(ecosystem_release, caplog):
    dataset, warnings = validate(ecosystem_release.folder / "croissant.json", caplog)
    assert warnings == []
    assert not dataset.metadata.ctx.issues.errors
    manifest = json.loads((ecosystem_release.folder / "MANIFEST.json").read_text())
    rows = {entry["path"]: entry["rows"] for entry in manifest["files"]}
    loaded = {
        record_set.name: sum(1 for _ in dataset.records(record_set.uuid))
        for record_set in dataset.metadata.record_sets
    }
    assert loaded == {t.name: rows[f"tables/{t.name}.parquet"] for t in TABLES}
    assert all(loaded.values())


def test_a_non_standard_context_would_be_reported(ecosystem_release, caplog, tmp_path):
    # The check above can see a warning: drop one key of the standard @context and look.
    copy = tmp_path / "release"
    shutil.copytree(ecosystem_release.folder, copy)
    croissant = json.loads((copy / "croissant.json").read_text())
    del croissant["@context"]["samplingRate"]
    (copy / "croissant.json").chmod(0o644)
    (copy / "croissant.json").write_text(json.dumps(croissant))
    _, warnings = validate(copy / "croissant.json", caplog)
    assert any("samplingRate" in w for w in warnings)


def test_cites_the_release_and_dates_it_by_its_freeze(ecosystem_release):
    croissant = json.loads((ecosystem_release.folder / "croissant.json").read_text())
    assert croissant["conformsTo"] == CONFORMS_TO
    assert croissant["datePublished"] == ecosystem_release.frozen_on.isoformat()
    cite = croissant["citeAs"]
    assert re.match(r"@misc\{attunebench-1\.0\.0,\n", cite) and cite.endswith("}")
    assert "title = {attunebench 1.0.0}" in cite and "version = {1.0.0}" in cite
    assert f"year = {{{ecosystem_release.frozen_on.year}}}" in cite and "Attune" in cite
    assert cite.count("{") == cite.count("}")  # balanced braces: a parseable entry


def test_declares_the_configuration_key_and_the_conversations_foreign_key(
    ecosystem_release, caplog
):
    croissant = json.loads((ecosystem_release.folder / "croissant.json").read_text())
    record_sets = {record_set["@id"]: record_set for record_set in croissant["recordSet"]}
    assert record_sets["model_configs"]["key"] == {"@id": "model_configs/model_config_id"}
    (field,) = [f for f in record_sets["conversations"]["field"] if f["name"] == "model_config_id"]
    assert field["references"] == {"field": {"@id": "model_configs/model_config_id"}}
    # mlcroissant reads both record sets, and every conversation's configuration is a row.
    dataset, warnings = validate(ecosystem_release.folder / "croissant.json", caplog)
    assert warnings == []
    configs = {
        record["model_configs/model_config_id"] for record in dataset.records("model_configs")
    }
    named = {record["conversations/model_config_id"] for record in dataset.records("conversations")}
    assert named and named <= configs and len(configs) >= 2
