"""Every table of the report carries a "how to read this" note, report.json carries the
sections for the admin page and the reproducibility block, and the engine version falls back
clearly where git is absent. Fast: a synthetic score frame, few resamples."""

import dataclasses
import json
import subprocess

import pandas as pd
import pytest

from attunebench.report import (
    Provenance,
    Reproducibility,
    engine_version,
    evaluate_command,
    write_report,
)
from attunebench.report.judges import judged_quality_statement
from attunebench.report.reading import HOW_TO_READ
from attunebench.report.reproducibility import UNKNOWN_ENGINE
from attunebench.stats import StatsConfig, compute_statistics
from attunebench.stats.synthetic import synthetic_scores

COMMAND = evaluate_command(
    release="demo@1.0.0",
    models=["m-a", "m b"],
    modes=["default"],
    judges=["j"],
    panas_strategy="absolute",
    subsample="sample50",
    prompt_set="v1",
    seed=7,
)
BLOCK = Reproducibility(
    release_name="demo",
    release_version="1.0.0",
    release_hash="abc123",
    prompt_version="v1-x",
    engine_version="v0-1-gdeadbee",
    scoring_options={"compat": False, "asked_only": False},
    seeds={"statistics and baselines": 7},
    judges=("j",),
    models=("m-a", "m b"),
    modes=("default",),
    panas_strategy="absolute",
    subsample="sample50",
    command=COMMAND,
)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    frame = synthetic_scores(
        n_models=4, n_conversations=40, seed=3, modes=("default", "omniscient")
    )
    statistics = compute_statistics(frame, StatsConfig(seed=3, n_resamples=200, n_permutations=100))
    files = write_report(
        statistics, tmp_path_factory.mktemp("r"), Provenance("abc123", "v1-x", "7"), BLOCK
    )
    return json.loads(files.json.read_text()), files.html.read_text()


def test_the_command_reruns_the_same_evaluation():
    assert COMMAND == (
        "python manage.py evaluate --release demo@1.0.0 --model m-a --model 'm b' --mode default "
        "--judge j --panas-strategy absolute --subsample sample50 --prompt-set v1 --seed 7"
    )


def test_every_table_section_has_its_note_and_reaches_report_json(written):
    document, html = written
    sections = {s["id"]: s["html"] for s in document["sections"]}
    for key in (
        "reproducibility",
        "leaderboard",
        "pairs",
        "ranks",
        "subgroups",
        "modes",
        "participants",
        "judges",
        "parse",
    ):
        assert "How to read this." in sections[key], key
        assert sections[key] in html  # the admin shows what report.html shows
    assert html.count("How to read this.") == 9
    assert document["reproducibility"]["command"] == COMMAND
    assert "<code>python manage.py evaluate --release demo@1.0.0" in sections["reproducibility"]
    # The judge answered nothing about the replies here: the judged-quality note says so.
    assert document["axis_notes"]["judged_response_quality"].endswith("j: no shared answers.")
    assert set(HOW_TO_READ) >= set(sections) - {"methods"}


def test_engine_version_from_git_and_its_fallback(tmp_path):
    described = subprocess.run(
        ["git", "describe", "--always", "--dirty", "--tags"],
        capture_output=True,
        text=True,
        check=False,
    )
    expected = described.stdout.strip() if described.returncode == 0 else UNKNOWN_ENGINE
    assert engine_version() == expected
    assert engine_version(tmp_path) == UNKNOWN_ENGINE  # not a checkout


def test_the_judged_quality_axis_states_its_agreement_with_the_participants():
    frame = synthetic_scores(n_models=3, n_conversations=10, seed=4)
    answers = pd.DataFrame(
        [
            (f"conv-{c:04d}", 1, "B1", "original", rater, answer)
            for c in range(10)
            for rater, answer in (
                ("participant", "yes" if c < 5 else "no"),
                ("j", "yes" if c < 6 else "no"),
            )
        ],
        columns=["conversation_id", "turn_number", "question_id", "target", "rater", "answer"],
    )
    config = StatsConfig(seed=4, n_resamples=200, n_permutations=50)
    statistics = compute_statistics(frame, config, reply_answers=answers)
    # yy 5, ny 1, nn 4: po 0.9; participant yes 0.5, judge yes 0.6; pe 0.5 -> kappa 0.8.
    text = judged_quality_statement(statistics, ("j",))
    assert text.startswith("Judged response quality is scored by judges")
    assert (
        "j: kappa 0.800 [" in text
        and "with the participants on the original replies (10 answers)" in text
    )


def test_judges_are_labelled_by_alias_and_matched_by_model_string():
    block = dataclasses.replace(
        BLOCK, judges=("j-one", "j-two"), judge_models=("vendor/one", "vendor/two")
    )
    assert block.judge_labels() == {
        "vendor/one": "j-one (vendor/one)",
        "vendor/two": "j-two (vendor/two)",
    }
    # A record written without the model strings keeps the aliases.
    assert BLOCK.judge_labels() == {"j": "j"}
    frame = synthetic_scores(n_models=3, n_conversations=10, seed=4)
    answers = pd.DataFrame(
        [
            (f"conv-{c:04d}", 1, "B1", "original", rater, answer)
            for c in range(10)
            for rater, answer in (
                ("participant", "yes" if c < 5 else "no"),
                ("vendor/one", "yes" if c < 6 else "no"),
                ("vendor/two", "yes" if c < 5 else "no"),
            )
        ],
        columns=["conversation_id", "turn_number", "question_id", "target", "rater", "answer"],
    )
    config = StatsConfig(seed=4, n_resamples=200, n_permutations=50)
    statistics = compute_statistics(frame, config, reply_answers=answers)
    text = judged_quality_statement(statistics, block.judge_labels())
    # kappa 0.8 for the first (see above); the second answers like the participant: kappa 1.
    assert "j-one (vendor/one): kappa 0.800 [" in text
    assert "j-two (vendor/two): kappa 1.000" in text
    assert "no shared answers" not in text and text.count("vendor/one") == 1


def test_the_command_can_run_inline_into_a_chosen_folder_with_the_statistics_options():
    command = evaluate_command(
        release="demo@1.0.0",
        models=["m"],
        modes=["default"],
        judges=[],
        panas_strategy="absolute",
        subsample="",
        prompt_set="v1",
        seed=7,
        statistics_options={"rank_outcome": True, "holm_across_axes": False},
        inline=True,
        out="my folder",
    )
    assert command == (
        "python manage.py evaluate --release demo@1.0.0 --model m --mode default "
        "--panas-strategy absolute --prompt-set v1 --seed 7 --rank-outcome --inline "
        "--out 'my folder'"
    )
