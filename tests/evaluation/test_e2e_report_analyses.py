"""End to end: `manage.py evaluate --inline` with two demo models and a demo judge on a seeded
release. The report (report.html, report.json and the admin's report page) holds the
judge-vs-participant agreement table with its intervals, the trait-group table, the paper's
other analyses with a "how to read this" note under each, and the reproducibility block."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from attunebench.report.reading import HOW_TO_READ
from evaluation.models import EvaluationRun

# One whole evaluation (about a minute on a loaded 2-core machine), checked part by part.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_report_of_a_judged_run(demo_release, demo_models, tmp_path, researcher_client):
    out = tmp_path / "report"
    call_command(
        "evaluate",
        "--release",
        "attunebench@1.0.0",
        "--model",
        "demo-listener",
        "--model",
        "demo-advisor",
        "--judge",
        "demo-questioner",
        "--inline",
        "--out",
        str(out),
        stdout=StringIO(),
    )
    document = json.loads((out / "report.json").read_text())
    html = (out / "report.html").read_text()
    check_judges_against_participants(document, html)
    check_trait_groups_and_other_analyses(document, html)
    check_reproducibility_block(document, html)
    check_admin_report_page(researcher_client)


def check_judges_against_participants(document, html):
    rows = document["statistics"]["reply_agreement"]
    with_participant = [r for r in rows if r["rater_a"] == "participant"]
    assert {r["rater_b"] for r in with_participant} == {"attune-demo/questioner"}
    assert {r["reply"] for r in with_participant} == {"original", "human_edited"}
    pooled = [r for r in with_participant if r["category"] == "all"]
    assert len(pooled) == 2 and all(r["n_items"] > 0 for r in pooled)
    assert all(r["n_conversations"] == 6 for r in pooled)  # every conversation of the release
    for row in pooled:
        assert row["kappa_ci_low"] <= row["kappa"] <= row["kappa_ci_high"]
        assert 0 <= row["accuracy"] <= 1 and 0 <= row["b_yes_where_a_no"] <= 1
    categories = {r["category"] for r in with_participant}
    assert categories >= {"all", "perceiving", "using", "regulating"}
    assert '<section id="participants"><h2>Judges and participants</h2>' in html
    assert "attune-demo/questioner vs participant" in html and "Judge yes / participant no" in html
    assert f"{pooled[0]['kappa']:.3f} [{pooled[0]['kappa_ci_low']:.3f}, " in html
    note = document["axis_notes"]["judged_response_quality"]
    assert note.startswith("Judged response quality is scored by judges") and "kappa" in note


def check_trait_groups_and_other_analyses(document, html):
    statistics = document["statistics"]
    traits = [s for s in statistics["subgroups"] if s["grouping"].startswith("trait:")]
    assert traits and all(s["reference"] == "none" for s in traits)
    # Resampled by participant: the release's participant ids reach the statistics.
    assert all(0 < s["n_level_participants"] <= s["n_level"] for s in traits)
    assert all(s["p_holm"] is not None for s in traits if s["axis"] == "composite")
    assert all(s["ci_low"] is not None for s in traits if s["axis"] == "composite")
    assert "trait: " in html and "Subgroup differences" in html
    assert [d["axis"] for d in statistics["discriminability"]][:1] == ["emotion_recognition"]
    assert "Pairs reliably distinguished" in html and "Kendall&#x27;s tau" in html
    ranked = set(statistics["ranked_axes"])
    for e in statistics["estimates"]:
        if not e["baseline"]:  # the paper's axes and the composite ranked; outcome reported
            assert (e["rank_low"] is not None) == (e["axis"] in ranked), e
    for key in (
        "leaderboard",
        "pairs",
        "ranks",
        "subgroups",
        "modes",
        "participants",
        "reproducibility",
    ):
        assert HOW_TO_READ[key].split(":")[0][:40].replace("'", "&#x27;") in html


def check_reproducibility_block(document, html):
    run = EvaluationRun.objects.get()
    block = document["reproducibility"]
    assert (block["release_name"], block["release_version"]) == ("attunebench", "1.0.0")
    assert (
        block["release_hash"] == run.release_hash and block["prompt_version"] == run.prompt_version
    )
    assert block["engine_version"]  # git describe, or the stated fallback
    assert block["scoring_options"] == {"compat": False, "asked_only": False}
    assert block["judges"] == ["demo-questioner"]
    assert block["seeds"]["statistics and baselines"] == run.seed
    assert block["command"] == (
        "python manage.py evaluate --release attunebench@1.0.0 --model demo-advisor "
        "--model demo-listener --mode default --judge demo-questioner --panas-strategy absolute "
        f"--prompt-set v2 --seed {run.seed} --inline --out rerun-of-run-{run.pk}"
    )
    assert "--inline runs the evaluation in that process" in block["rerun_note"]
    assert "<code>python manage.py evaluate --release attunebench@1.0.0" in html
    # Each model's and judge's configuration, and what is corrected for multiple comparisons.
    configurations = {(c["role"], c["alias"]): c for c in block["configurations"]}
    assert set(configurations) == {
        ("model", "demo-advisor"),
        ("model", "demo-listener"),
        ("judge", "demo-questioner"),
    }
    for configuration in configurations.values():
        assert configuration["model"].startswith("attune-demo/")
        assert configuration["configuration_id"] and configuration["system_prompt_sha256"]
        assert configuration["configuration_id"][:12] in html
    multiplicity = document["statistics"]["multiplicity"]
    assert multiplicity["correction"] == "holm_within_axis"
    assert "emotion_recognition" in multiplicity["tested_axes"]
    assert "Multiple comparisons." in html and "not corrected across the" in html


def check_admin_report_page(researcher_client):
    run = EvaluationRun.objects.get()
    page = researcher_client.get(reverse("admin:evaluation_run_report", args=[run.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    for title in (
        "Reproducibility",
        "Judges and participants",
        "Subgroups",
        "Rank independence",
        "Mode deltas",
    ):
        assert f"<h2>{title}</h2>" in text
    assert "How to read this." in text and "Judged response quality is scored by judges" in text
