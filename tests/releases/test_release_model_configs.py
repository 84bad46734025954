"""A release carries the configurations its conversations ran under: the `model_configs` table
(Parquet and JSONL) and `conversations.model_config_id`, and every id resolves to one row."""

import json
from pathlib import Path

import pandas as pd
import pytest

from annotations.models import Conversation, ModelConfig
from annotations.releases.tables import TABLES_BY_NAME
from tests.factories import make_conversation

pytestmark = pytest.mark.django_db


def tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (
        pd.read_parquet(folder / "tables" / "conversations.parquet"),
        pd.read_parquet(folder / "tables" / "model_configs.parquet"),
    )


def test_every_conversation_names_a_configuration_that_resolves(build):
    folder = Path(build().folder)
    conversations, configs = tables(folder)
    assert list(configs.columns) == [c.name for c in TABLES_BY_NAME["model_configs"].columns]
    assert configs["model_config_id"].is_unique
    assert conversations["model_config_id"].notna().all()
    assert set(conversations["model_config_id"]) == set(configs["model_config_id"])
    # The ids are the snapshots' content hashes, so they are the same in every release.
    stored = dict(Conversation.objects.values_list("external_id", "model_config__config_hash"))
    assert (
        dict(zip(conversations["conversation_id"], conversations["model_config_id"], strict=True))
        == stored
    )
    mirror = [json.loads(line) for line in (folder / "tables" / "model_configs.jsonl").open()]
    assert [row["model_config_id"] for row in mirror] == list(configs["model_config_id"])


def test_a_row_holds_the_snapshot_and_never_a_key(build):
    _, configs = tables(Path(build().folder))
    for row in configs.itertuples():
        definition = ModelConfig.objects.get(config_hash=row.model_config_id).definition
        endpoint = definition["endpoint"]
        assert row.model == endpoint["model"]
        assert json.loads(row.params) == endpoint["params"]
        assert row.system_prompt_version == endpoint["system_prompt_version"]
        assert row.improver_model == definition["improver"]["model"]
        assert (row.instrument_name, row.instrument_version) == ("attune-default", "1")
        assert row.consent_version == "demo-1"
    assert not any("api_key" in column or "key_env" in column for column in configs.columns)


def test_an_imported_conversation_has_no_configuration(build, demo_study):
    imported = make_conversation(study=demo_study)
    conversations, configs = tables(Path(build().folder))
    row = conversations.set_index("conversation_id").loc[imported.external_id]
    assert pd.isna(row["model_config_id"])
    assert len(conversations) == 25 and len(configs) == ModelConfig.objects.count()
