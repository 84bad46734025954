"""The command line, as a user runs it (separate processes): ``run`` writes one output per unit with
a progress bar on stderr and a summary table; ``score`` writes scores.json and the Parquet
tables and prints composite and axes beside the baselines."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "attunebench", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow  # two fresh processes, one of which imports litellm (3 to 5 s)
def test_run_then_score(release_dir, tmp_path):
    runs, scores = tmp_path / "runs", tmp_path / "scores"
    done = cli(
        "run",
        "--data",
        release_dir,
        "--model",
        "attune-demo/listener",
        "--mode",
        "default",
        "--mode",
        "verbose_omniscient",
        "--judge",
        "attune-demo/questioner",
        "--subsample",
        "sample2",
        "--panas-strategy",
        "delta",
        "--concurrency",
        "4",
        "--out",
        runs,
    )
    assert done.returncode == 0, done.stderr
    assert len(list(runs.glob("run_*__*.json"))) == 4
    assert (runs / "call_cache.sqlite3").exists()
    assert "calls" in done.stderr and "/s" in done.stderr and "left" in done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("4 units (2 conversations)")
    assert lines[1].split()[:4] == ["model", "mode", "units", "run"]
    assert any(line.startswith("attune-demo/listener  verbose_omniscient") for line in lines)
    assert any(line.startswith("attune-demo/questioner") for line in lines)  # judge usage
    output = json.loads(next(runs.glob("run_*__default.json")).read_text())
    assert output["post_conversation"]["panas_strategy"] == "delta"

    again = cli(
        "run",
        "--data",
        release_dir,
        "--model",
        "attune-demo/listener",
        "--mode",
        "default",
        "--mode",
        "verbose_omniscient",
        "--judge",
        "attune-demo/questioner",
        "--subsample",
        "sample2",
        "--panas-strategy",
        "delta",
        "--no-progress",
        "--out",
        runs,
    )
    assert again.returncode == 0 and again.stderr == ""
    resumed = [line.split() for line in again.stdout.splitlines()[3:5]]
    assert [row[2:5] for row in resumed] == [["2", "0", "2"]] * 2  # units, run now, reused

    scored = cli("score", "--data", release_dir, "--runs", runs, "--out", scores)
    assert scored.returncode == 0, scored.stderr
    table = scored.stdout.splitlines()
    assert table[0] == "scored 4 run outputs on 3 conversations"
    assert table[1].split()[:5] == ["model", "mode", "n", "composite", "se"]
    rows = {tuple(line.split()[:2]) for line in table[3:-1]}
    assert ("attune-demo/listener", "verbose_omniscient") in rows
    assert ("baseline/random", "default") in rows
    assert {p.name for p in scores.iterdir()} == {
        "scores.json",
        "per_turn.parquet",
        "per_conversation.parquet",
    }
    assert set(json.loads((scores / "scores.json").read_text())) == {
        "scoring_options",
        "conversations",
        "aggregates",
    }


def test_bad_arguments_exit_with_two(tmp_path):
    missing = cli("score", "--data", tmp_path / "nope", "--runs", tmp_path, "--out", tmp_path)
    assert missing.returncode == 2 and "no data folder" in missing.stderr
    bad_mode = cli("run", "--data", tmp_path, "--model", "m", "--mode", "loud", "--out", tmp_path)
    assert bad_mode.returncode == 2 and "invalid choice" in bad_mode.stderr
