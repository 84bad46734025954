"""`datasets.load_dataset` loads a release folder as it is: the default config and every
config with the features the card declares, and the JSONL mirrors with the same types."""

import json
from datetime import UTC, datetime

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from annotations.releases.card_metadata import DEFAULT_CONFIG, features
from annotations.releases.tables import TABLES

pytestmark = pytest.mark.django_db  # for the session's release build


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("datasets-cache"))


def load(*args, cache: str, **kwargs):
    return datasets.load_dataset(*args, cache_dir=cache, **kwargs)["train"]


def test_the_folder_alone_loads_the_default_config(ecosystem_release, cache):
    assert datasets.get_dataset_default_config_name(str(ecosystem_release.folder)) == DEFAULT_CONFIG
    default = load(str(ecosystem_release.folder), cache=cache)
    named = load(str(ecosystem_release.folder), DEFAULT_CONFIG, cache=cache)
    assert default.to_list() == named.to_list() and len(default) > 0


def test_every_config_loads_with_the_declared_features(ecosystem_release, cache):
    folder = str(ecosystem_release.folder)
    assert datasets.get_dataset_config_names(folder) == [t.name for t in TABLES]
    for table in TABLES:
        loaded = load(folder, table.name, cache=cache)
        declared = datasets.Features._from_yaml_list(features(table))
        assert loaded.features == declared, table.name
        assert loaded.data.table.schema == declared.arrow_schema, table.name


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_declared_features_are_what_datasets_derives_from_the_schema(table):
    # The card derives them from the Arrow schema itself; datasets must read them the same way.
    plain = pa.schema([pa.field(c.name, c.type) for c in table.columns])
    assert features(table) == datasets.Features.from_arrow_schema(plain)._to_yaml_list()


def test_jsonl_mirrors_load_with_the_same_types_and_rows(ecosystem_release, cache):
    folder = ecosystem_release.folder
    # Left to infer, JSON would not give the Parquet types: that is why the features are declared.
    inferred = load("json", data_files=str(folder / "tables" / "turns.jsonl"), cache=cache)
    assert inferred.features["turn_number"].dtype == "int64"
    for table in TABLES:
        parquet = load(str(folder), table.name, cache=cache)
        jsonl = load(
            "json",
            data_files=str(folder / "tables" / f"{table.name}.jsonl"),
            features=parquet.features,
            cache=cache,
        )
        assert jsonl.features == parquet.features, table.name
        assert _comparable(jsonl.to_list()) == _comparable(parquet.to_list()), table.name


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_jsonl_rows_keep_the_parquet_column_order(ecosystem_release, table):
    # Line-oriented tools (jq, a CSV export of the JSON) show the keys in file order: the mirror
    # must read like the Parquet schema and the codebook.
    folder = ecosystem_release.folder / "tables"
    with (folder / f"{table.name}.jsonl").open(encoding="utf-8") as stream:
        first = json.loads(stream.readline())
    assert list(first) == pq.read_schema(folder / f"{table.name}.parquet").names


def _comparable(rows: list[dict]) -> list[dict]:
    # datasets' JSON reader parses ISO timestamps before casting to the declared string, so the
    # `timestamp` text comes back reformatted (same instant): compare instants there.
    return [
        {k: _instant(v) if k == "timestamp" and v else v for k, v in row.items()} for row in rows
    ]


def _instant(text: str) -> datetime:
    moment = datetime.fromisoformat(text)  # Arrow gives naive UTC for an ISO text with an offset
    return moment if moment.tzinfo is None else moment.astimezone(UTC).replace(tzinfo=None)


def test_the_configurations_load_and_every_conversation_names_one(ecosystem_release, cache):
    folder = str(ecosystem_release.folder)
    configs = load(folder, "model_configs", cache=cache)
    conversations = load(folder, "conversations", cache=cache)
    assert configs.features["system_prompt_sha256"].dtype == "string"
    ids = set(configs["model_config_id"])
    assert len(ids) == len(configs) >= 2
    assert set(conversations["model_config_id"]) <= ids
