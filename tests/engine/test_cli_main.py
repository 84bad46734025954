"""The command-line entry point in this process (fast; the subprocess version is marked slow):
argument handling, the summary tables, and the exit codes."""

import json

from attunebench.cli import main


def test_run_and_score_print_their_summary_tables(release_dir, tmp_path, capsys):
    runs, scores = tmp_path / "runs", tmp_path / "scores"
    code = main(
        [
            "run",
            "--data",
            str(release_dir),
            "--model",
            "attune-demo/advisor",
            "--subsample",
            "sample2",
            "--param",
            "temperature=0",
            "--param",
            "seed=7",
            "--rpm",
            "6000",
            "--tpm",
            "10000000",
            "--max-reasks",
            "1",
            "--out",
            str(runs),
        ]
    )
    printed = capsys.readouterr()
    assert code == 0
    assert "2 units (2 conversations)" in printed.out
    assert "attune-demo/advisor  default      2        2       0        0" in printed.out
    assert "requests  cached  errors  tokens in  tokens out  spent $" in printed.out
    assert "calls" in printed.err  # the progress bar
    output = json.loads(next(runs.glob("run_*.json")).read_text())
    assert (
        output["other"]
        if "other" in output
        else output["engine"]["model_params"]
        == {
            "temperature": 0,
            "seed": 7,
        }
    )

    code = main(
        ["score", "--data", str(release_dir), "--runs", str(runs), "--out", str(scores), "--compat"]
    )
    printed = capsys.readouterr()
    assert code == 0 and "attune-demo/advisor" in printed.out and "baseline/majority" in printed.out
    assert (scores / "per_turn.parquet").exists()


def test_data_errors_exit_with_two(tmp_path, capsys):
    code = main(["run", "--data", str(tmp_path / "nope"), "--model", "m", "--out", str(tmp_path)])
    assert code == 2 and "no data folder" in capsys.readouterr().err
