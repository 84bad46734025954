"""Two releases with the same version folder name (`attunebench/1.0.0`, `refstudy/1.0.0`) are
two datasets to `datasets`, whose cache is keyed by the folder's base name and a hash of the
card: each card names its release and a fingerprint of its data, so neither loads the other's
rows. And the archive unpacks into `<name>-<version>/`, not a bare `<version>/`."""

import tarfile
from pathlib import Path

import datasets
import pandas as pd
import pytest
import yaml

from tests.factories import make_conversation

pytestmark = pytest.mark.django_db


def card_configs(folder: Path) -> list[dict]:
    front = (folder / "README.md").read_text(encoding="utf-8").split("---\n")[1]
    return yaml.safe_load(front)["configs"]


def test_same_version_of_two_releases_loads_each_ones_own_rows(
    build, demo_study, monkeypatch, tmp_path
):
    # A cache of this test only, as a researcher's machine with both releases would have.
    cache = tmp_path / "hf"
    monkeypatch.setenv("HF_HOME", str(cache))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache / "datasets"))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", cache / "datasets")
    first = Path(build("1.0.0", name="attunebench").folder)
    make_conversation(study=demo_study)  # the second release holds one more conversation
    second = Path(build("1.0.0", name="refstudy").folder)
    assert first.name == second.name == "1.0.0"

    loaded = [datasets.load_dataset(str(f), split="train").to_pandas() for f in (first, second)]
    files = [pd.read_parquet(f / "tables" / "turns.parquet") for f in (first, second)]
    assert len(files[0]) != len(files[1])
    for rows, table in zip(loaded, files, strict=True):
        assert rows["conversation_id"].tolist() == table["conversation_id"].tolist()
        assert rows["user_message"].tolist() == table["user_message"].tolist()


def test_every_card_config_names_the_release_and_a_fingerprint_of_its_data(build, demo_study):
    first = Path(build("1.0.0", name="attunebench").folder)
    patch = Path(build("1.0.1", name="attunebench").folder)
    make_conversation(study=demo_study)
    other = Path(build("1.0.0", name="refstudy").folder)
    descriptions = {f: {c["description"] for c in card_configs(f)} for f in (first, patch, other)}
    assert all(len(found) == 1 for found in descriptions.values())  # one per release
    (one,), (two,), (three,) = descriptions.values()
    assert one.startswith("attunebench 1.0.0, data sha256:")
    assert two.startswith("attunebench 1.0.1, data sha256:")
    assert three.startswith("refstudy 1.0.0, data sha256:")
    fingerprint = {text.rsplit(":", 1)[1] for text in (one, two, three)}
    assert len(one.rsplit(":", 1)[1]) == 16
    # Same data, same fingerprint; one more conversation, another.
    assert one.rsplit(":", 1)[1] == two.rsplit(":", 1)[1] and len(fingerprint) == 2


def test_the_archive_unpacks_into_name_dash_version(build, tmp_path):
    release = build()
    folder = Path(release.folder)
    archive = folder.parent / "attunebench-1.0.0.tar.gz"
    target = tmp_path / "extracted"
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    assert [p.name for p in target.iterdir()] == ["attunebench-1.0.0"]
    unpacked = target / "attunebench-1.0.0"
    assert (unpacked / "MANIFEST.json").read_bytes() == (folder / "MANIFEST.json").read_bytes()
