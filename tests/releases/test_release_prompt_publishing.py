"""A system prompt's text is released only when the study allows publishing it (a study
setting, edited through the setup write path); otherwise the release holds only its sha256."""

from pathlib import Path

import pandas as pd
import pytest

from annotations.models import Conversation, ModelConfig
from annotations.releases.services import build_release, create_release
from annotations.services.setup import save_setup, setup_history
from attunebench.canonical import text_sha256
from tests.factories import make_conversation, make_study

pytestmark = pytest.mark.django_db


def configs(folder: str) -> pd.DataFrame:
    return pd.read_parquet(Path(folder) / "tables" / "model_configs.parquet")


def forbid_publishing(study) -> None:
    study.publish_system_prompts = False
    save_setup(study, actor_label="test")


def test_the_prompt_is_left_out_when_the_study_does_not_allow_it(build, demo_study):
    forbid_publishing(demo_study)
    assert setup_history(demo_study)[0].data["changes"]["publish_system_prompts"] == {
        "before": True,
        "after": False,
    }
    folder = build().folder
    table = configs(folder)
    assert table["system_prompt"].isna().all()
    for row in table.itertuples():
        prompt = ModelConfig.objects.get(config_hash=row.model_config_id).definition["endpoint"][
            "system_prompt"
        ]
        assert row.system_prompt_sha256 == text_sha256(prompt)
        for path in Path(folder).rglob("*"):  # nowhere in the release
            if path.is_file() and path.suffix in (".md", ".json", ".jsonl"):
                assert prompt not in path.read_text(encoding="utf-8"), path


def test_the_prompt_is_released_when_the_study_allows_it(build, demo_study):
    assert demo_study.publish_system_prompts  # the demo study allows it
    table = configs(build().folder)
    prompts = {
        config.config_hash: config.definition["endpoint"]["system_prompt"]
        for config in ModelConfig.objects.all()
    }
    assert dict(zip(table["model_config_id"], table["system_prompt"], strict=True)) == prompts
    assert len(set(prompts.values())) == 2  # the demo revised one prompt mid-study


def test_a_configuration_shared_with_a_study_that_forbids_it_keeps_its_prompt_back(
    releases_dir, demo_study
):
    other = make_study(publish_system_prompts=False)
    shared = Conversation.objects.filter(study=demo_study).order_by("pk").first().model_config
    Conversation.objects.filter(pk=make_conversation(study=other).pk).update(model_config=shared)
    release = create_release(name="both", version="1.0.0", studies=[demo_study, other])
    table = configs(build_release(release.pk).folder).set_index("model_config_id")
    assert pd.isna(table.loc[shared.config_hash, "system_prompt"])
    assert table.drop(shared.config_hash)["system_prompt"].notna().all()
