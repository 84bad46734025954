"""Endpoint parameters reach a release only through the credential filter: a snapshot or an
endpoint row holding a key (written before the registry refused it, or straight to the
database) leaves no value in the model_configs table, the card/README, nor the archive."""

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from annotations.models import ModelConfig, ModelEndpoint
from annotations.services.model_configs import snapshot_for
from attune_collect.llm.secrets_policy import REDACTED

pytestmark = pytest.mark.django_db

LEAKY = {
    "temperature": 0.3,
    "openai_api_key": "LEAK-one",
    "X-Api-Key": "LEAK-two",
    "extra_body": {"options": [{"api_key": "LEAK-three"}], "num_ctx": 4096},
    "extra_headers": {"Authorization": "LEAK-four"},
    "user": "Bearer LEAK-five",
}
REDACTED_LEAKY = {
    "temperature": 0.3,
    "openai_api_key": REDACTED,
    "X-Api-Key": REDACTED,
    "extra_body": {"options": [{"api_key": REDACTED}], "num_ctx": 4096},
    "extra_headers": REDACTED,
    "user": REDACTED,
}


def all_bytes(folder: Path) -> bytes:
    chunks = [p.read_bytes() for p in folder.rglob("*") if p.is_file()]
    archive = folder.parent / f"attunebench-{folder.name}.tar.gz"
    chunks.append(gzip.decompress(archive.read_bytes()))
    return b"\n".join(chunks)


def test_a_legacy_snapshot_holding_keys_is_released_redacted(build):
    # Written straight to the database, as a row from before the checks would be.
    for config in ModelConfig.objects.all():
        definition = config.definition
        definition["endpoint"]["params"] = LEAKY
        if definition.get("improver"):
            definition["improver"]["params"] = LEAKY
        ModelConfig.objects.filter(pk=config.pk).update(definition=definition)

    folder = Path(build().folder)

    assert b"LEAK-" not in all_bytes(folder)
    configs = pd.read_parquet(folder / "tables" / "model_configs.parquet")
    assert len(configs) > 0
    for row in configs.itertuples():
        assert json.loads(row.params) == REDACTED_LEAKY
        assert row.improver_params is None or json.loads(row.improver_params) == REDACTED_LEAKY
    assert REDACTED in (folder / "README.md").read_text()


def test_a_legacy_endpoint_row_holding_keys_is_snapshotted_redacted(demo_study):
    endpoint = demo_study.model_pool.first()
    ModelEndpoint.objects.filter(pk=endpoint.pk).update(params=LEAKY)
    endpoint.refresh_from_db()

    config = snapshot_for(demo_study, endpoint)

    assert config.definition["endpoint"]["params"] == REDACTED_LEAKY
    assert "LEAK-" not in json.dumps(config.definition)


def test_clean_parameters_are_snapshotted_unchanged(demo_study):
    endpoint = demo_study.model_pool.first()
    config = snapshot_for(demo_study, endpoint)
    assert config.definition["endpoint"]["params"] == endpoint.params
