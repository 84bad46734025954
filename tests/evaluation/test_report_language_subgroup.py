"""Issue 44's "done when": the report of a run on a release of a two-language study shows the
language subgroup (each language against the rest, with intervals), as it shows topics and
original models. The run is `manage.py evaluate --inline` with an offline demo model."""

import json
from collections import Counter

import pyarrow.parquet as pq
import pytest

from annotations.releases.services import build_release, create_release
from tests.evaluation.conftest import evaluate_demo
from tests.factories import seed_two_language_study

pytestmark = pytest.mark.django_db


def test_the_report_has_the_language_subgroup(demo_models, tmp_path):
    study = seed_two_language_study(8, seed=21)
    release = build_release(
        create_release(name="attunebench", version="1.0.0", studies=[study], actor_label="test").pk
    )
    table = pq.read_table(f"{release.folder}/tables/conversations.parquet")
    languages = Counter(table.column("language").to_pylist())
    assert set(languages) == {"en", "es"}

    out = tmp_path / "report"
    evaluate_demo(out)
    document = json.loads((out / "report.json").read_text())
    found = [s for s in document["statistics"]["subgroups"] if s["grouping"] == "language"]
    assert {(s["level"], s["reference"]) for s in found} == {("en", "rest"), ("es", "rest")}
    composite = {s["level"]: s for s in found if s["axis"] == "composite"}
    for level, row in composite.items():
        assert row["n_level"] == languages[level]
        assert row["n_level"] + row["n_reference"] == sum(languages.values())
        assert row["ci_low"] <= row["difference"] <= row["ci_high"]
    html = (out / "report.html").read_text()
    assert "language: en vs rest" in html and "language: es vs rest" in html
