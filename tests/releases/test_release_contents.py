"""What a release folder holds: AttuneBench files, typed tables, subsamples, cards, manifest."""

import json
import tarfile
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from annotations.releases.tables import TABLES
from attunebench.reader import iter_conversation_files, read_conversation_file

pytestmark = pytest.mark.django_db


def test_conversation_files_load_with_the_attunebench_reader(build):
    folder = Path(build().folder)
    files = list(iter_conversation_files(folder / "conversations"))
    assert len(files) == 24
    record = read_conversation_file(files[0])
    assert record.turns and record.participant_profile.participant_id.startswith("p_")


def test_every_table_loads_with_pandas_and_pyarrow_with_the_documented_schema(build):
    release = build()
    folder = Path(release.folder)
    for table in TABLES:
        arrow = pq.read_table(folder / "tables" / f"{table.name}.parquet")
        assert arrow.schema.names == [c.name for c in table.columns]
        assert arrow.schema.field(0).metadata[b"description"]
        frame = pd.read_parquet(folder / "tables" / f"{table.name}.parquet")
        mirror = pd.read_json(folder / "tables" / f"{table.name}.jsonl", lines=True)
        assert len(frame) == len(mirror) == release.counts["table_rows"][table.name]
    turns = pd.read_parquet(folder / "tables" / "turns.parquet")
    assert len(turns) == release.counts["turns"]


def test_subsamples_are_nested_and_fixed(build):
    folder = Path(build(subsample_sizes=[20, 10, 5]).folder)
    samples = {
        n: (folder / "subsamples" / f"sample{n}.txt").read_text().split() for n in (20, 10, 5)
    }
    assert set(samples[5]) <= set(samples[10]) <= set(samples[20])
    assert all((folder / "conversations" / name).is_file() for name in samples[20])


def test_subsample_larger_than_the_release_is_left_out(build):
    folder = Path(build(subsample_sizes=[100, 10]).folder)
    assert sorted(p.name for p in (folder / "subsamples").iterdir()) == ["sample10.txt"]


def test_dataset_card_has_front_matter_and_a_datasheet(build):
    text = (Path(build().folder) / "README.md").read_text()
    front_matter = text.split("---")[1]
    for key in (
        "license: cc-by-4.0",
        "size_categories:",
        "annotations_creators:",
        "configs:",
        "config_name: behaviour_judgements",
    ):
        assert key in front_matter
    assert "consent version demo-1" in text and "Instrument: attune-default version 1" in text
    assert "synthetic demo data" in text


def test_croissant_lists_the_sha256_of_every_file(build):
    folder = Path(build().folder)
    croissant = json.loads((folder / "croissant.json").read_text())
    assert croissant["conformsTo"] == "http://mlcommons.org/croissant/1.0"
    listed = {entry["contentUrl"]: entry["sha256"] for entry in croissant["distribution"]}
    manifest = {
        entry["path"]: entry["sha256"]
        for entry in json.loads((folder / "MANIFEST.json").read_text())["files"]
    }
    assert listed == {path: sha for path, sha in manifest.items() if path != "croissant.json"}
    assert any(key.startswith("rai:") for key in croissant)


def test_codebook_documents_every_column_and_question(build):
    text = (Path(build().folder) / "codebook.md").read_text()
    assert "| `intensity` |" in text and "| B505 |" in text and "PW15" in text


def test_archive_holds_the_whole_folder(build):
    release = build()
    folder = Path(release.folder)
    archive = folder.parent / f"{release.name}-{release.version}.tar.gz"
    with tarfile.open(archive) as tar:
        names = {member.name for member in tar.getmembers()}
    # The root is the archive's own name, as researchers expect: attunebench-1.0.0/...
    expected = {
        f"attunebench-1.0.0/{p.relative_to(folder).as_posix()}"
        for p in folder.rglob("*")
        if p.is_file()
    }
    assert names == expected
