"""The report folder: every file is written and parses; the HTML holds the leaderboard and
captions with the provenance; the charts are accessible SVG; no script, no external asset."""

import json
import re
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from attunebench.report import Provenance, write_report
from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores

PROVENANCE = Provenance(release_hash="0f3a9c1", prompt_version="prompts-v3", run_id="run-17")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    frame = synthetic_scores(
        n_models=5, n_conversations=80, seed=2, modes=("default", "verbose", "omniscient")
    )
    answers = pd.DataFrame(
        {
            "conversation_id": ["conv-0001"] * 4 + ["conv-0002"] * 4,
            "turn_number": [1, 1, 2, 2] * 2,
            "question_id": ["q1", "q2"] * 4,
            "target": "human_edited",
            "rater": ["participant", "participant", "judge-a", "judge-a"] * 2,
            "answer": ["yes", "no", "yes", "no", "no", "no", "yes", "no"],
        }
    )
    config = StatsConfig(seed=2, n_resamples=500, n_permutations=200)
    statistics = compute_statistics(frame, config, judge_answers=answers)
    return write_report(statistics, tmp_path_factory.mktemp("report"), PROVENANCE)


def test_report_json_holds_everything_with_the_provenance(report):
    data = json.loads(report.json.read_text())
    assert data["provenance"] == {
        "release_hash": "0f3a9c1",
        "prompt_version": "prompts-v3",
        "run_id": "run-17",
    }
    stats = data["statistics"]
    assert stats["settings"]["seed"] == 2 and stats["settings"]["n_resamples"] == 500
    for key in (
        "estimates",
        "pairs",
        "discriminability",
        "rank_correlations",
        "subgroups",
        "mode_deltas",
        "parse_failures",
    ):
        assert stats[key], key
    assert stats["concordance"]["w"] is not None
    assert len(data["charts"]) == len(report.charts)


def test_leaderboard_csv_loads_with_models_then_baselines(report):
    table = pd.read_csv(report.csv)
    assert list(table["kind"]) == ["model"] * 5 + ["baseline"] * 2
    assert table.loc[table["kind"] == "model", "composite_mean"].is_monotonic_decreasing
    assert table.loc[table["kind"] == "baseline", "composite_rank_low"].isna().all()
    for column in ("composite_ci_low", "composite_ci_high", "emotion_recognition_rank_high"):
        assert column in table.columns
    assert set(table["run_id"]) == {"run-17"}


def test_html_has_the_leaderboard_and_captions_and_nothing_external(report):
    html = report.html.read_text()
    assert "<caption>Leaderboard" in html
    assert "model-05" in html and "baseline/random" in html and "baseline, reference" in html
    figures = re.findall(r"<figcaption>.*?</figcaption>", html, flags=re.S)
    assert len(figures) == len(report.charts)
    assert all("Release 0f3a9c1 · prompt prompts-v3 · run run-17" in f for f in figures)
    assert "<script" not in html.lower()
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", html)  # no inline event handlers either
    assert not re.search(r"""(src|href)=["']https?:""", html)
    assert "Parse failures" in html and "Judge reliability" in html


def test_charts_are_valid_accessible_svg_with_the_provenance(report):
    names = {path.name for path in report.charts}
    assert {
        "axis_composite.svg",
        "rank_correlation.svg",
        "pairs_composite.svg",
        "subgroups_composite.svg",
    } <= names
    for path in report.charts:
        root = ET.fromstring(path.read_text())
        ns = "{http://www.w3.org/2000/svg}"
        assert root.get("role") == "img" and root.get("aria-labelledby")
        assert root.find(f"{ns}title").text and root.find(f"{ns}desc").text
        assert "run run-17" in path.read_text()


def test_the_same_inputs_write_the_same_bytes(tmp_path):
    frame = synthetic_scores(n_models=3, n_conversations=30, seed=9)
    config = StatsConfig(seed=9, n_resamples=200, n_permutations=100)
    first = write_report(compute_statistics(frame, config), tmp_path / "a", PROVENANCE)
    second = write_report(compute_statistics(frame, config), tmp_path / "b", PROVENANCE)
    for a, b in ((first.json, second.json), (first.csv, second.csv), (first.html, second.html)):
        assert a.read_bytes() == b.read_bytes()
