"""The dataset card lists the model configurations and how many conversations ran under each."""

import re
from pathlib import Path

import pandas as pd
import pytest

from annotations.releases.cards import ReleaseInfo, dataset_card
from attunebench.instrument import default_instrument

pytestmark = pytest.mark.django_db


def card_rows(text: str) -> dict[str, list[str]]:
    """configuration id prefix -> the cells of its row in the card's configuration table."""
    section = text.split("### Model configurations", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([0-9a-f]{12})` \| (.*) \|$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split(" | ")]
    return rows


def test_the_card_lists_every_configuration_with_its_conversations(build):
    release = build()
    folder = Path(release.folder)
    counts = pd.read_parquet(folder / "tables" / "conversations.parquet")[
        "model_config_id"
    ].value_counts()
    rows = card_rows((folder / "README.md").read_text(encoding="utf-8"))
    assert rows.keys() == {config_id[:12] for config_id in counts.index}
    for config_id, n in counts.items():
        cells = rows[config_id[:12]]
        assert cells[0].startswith("attune-demo/") and int(cells[6]) == n
        assert "text released" in cells[2]
    assert release.counts["model_configs"] == counts.to_dict()
    assert sum(release.counts["model_configs"].values()) == release.counts["conversations"]


def test_a_release_without_configurations_says_so():
    info = ReleaseInfo(
        name="imported",
        version="1.0.0",
        description="",
        license="mit",
        instrument=default_instrument(),
        studies=[],
        rules={},
    )
    assert "No conversation of this release recorded a configuration" in dataset_card(info)
