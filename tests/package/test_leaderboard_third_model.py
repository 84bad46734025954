"""A standing leaderboard of two models, then a third: the third model's run makes calls for
the third model only (the test server counts them), and the board's paired tests, intervals and
ranks are those of a joint run of all three."""

from __future__ import annotations

import json
from pathlib import Path

from attunebench.cli import main
from attunebench.instrument import default_instrument
from attunebench.leaderboard import board_statistics, load_board
from attunebench.release import load_conversations
from attunebench.report.build import ReportOptions, analyse
from attunebench.score_folder import read_runs
from tests.engine.conftest import KEY_ENV, demo_json_reply

PERSONAS = {"model-a": "listener", "model-b": "advisor", "model-c": "questioner"}


def persona_reply(body: dict) -> str:
    """Each model answers in its own demo persona, so their scores differ."""
    return demo_json_reply(body.get("messages", []), persona=PERSONAS[body["model"]])


def run_models(server, release: Path, out: Path, *models: str) -> list[str]:
    """``attunebench run`` of ``models``; the models the server was asked for meanwhile."""
    before = len(server.behaviour.requests)
    arguments = ["run", "--data", str(release), "--api-base", server.base_url]
    arguments += ["--api-key-env", KEY_ENV, "--no-progress", "--out", str(out)]
    for model in models:
        arguments += ["--model", f"openai/{model}"]
    assert main(arguments) == 0
    return [body["model"] for body in server.behaviour.requests[before:]]


def add(board: Path, release: Path, runs: Path) -> None:
    assert (
        main(
            [
                "leaderboard",
                "add",
                "--board",
                str(board),
                "--data",
                str(release),
                "--runs",
                str(runs),
            ]
        )
        == 0
    )


def test_a_third_model_is_run_alone_and_ranked_as_in_a_joint_run(
    json_server, release_dir, tmp_path
):
    json_server.behaviour.reply = persona_reply
    board = tmp_path / "board"
    asked = run_models(json_server, release_dir, tmp_path / "ab", "model-a", "model-b")
    assert set(asked) == {"model-a", "model-b"}
    add(board, release_dir, tmp_path / "ab")

    asked = run_models(json_server, release_dir, tmp_path / "c", "model-c")
    add(board, release_dir, tmp_path / "c")

    assert asked and set(asked) == {"model-c"}  # no call for the two stored models
    run_models(json_server, release_dir, tmp_path / "joint", "model-a", "model-b", "model-c")
    conversations = load_conversations(release_dir)
    runs, _ = read_runs(tmp_path / "joint")
    joint = analyse(conversations, lambda: runs, default_instrument(), ReportOptions()).statistics
    stored = board_statistics(load_board(board), conversations, default_instrument())
    assert len(stored.pairs) == 3 * len(stored.ranked_axes)  # a-b, a-c, b-c on every ranked axis
    assert stored.to_dict()["pairs"] == joint.to_dict()["pairs"]
    assert stored.to_dict()["estimates"] == joint.to_dict()["estimates"]


def test_show_prints_and_exports_the_board(json_server, release_dir, tmp_path, capsys):
    json_server.behaviour.reply = persona_reply
    run_models(json_server, release_dir, tmp_path / "ab", "model-a", "model-b")
    add(tmp_path / "board", release_dir, tmp_path / "ab")
    capsys.readouterr()

    assert (
        main(
            [
                "leaderboard",
                "show",
                "--board",
                str(tmp_path / "board"),
                "--data",
                str(release_dir),
                "--csv",
                str(tmp_path / "b.csv"),
                "--json",
                str(tmp_path / "b.json"),
            ]
        )
        == 0
    )

    printed = capsys.readouterr().out
    assert "openai/model-a" in printed and "openai/model-b" in printed
    exported = json.loads((tmp_path / "b.json").read_text())
    entry = next(e for e in exported["entries"] if e["model"] == "openai/model-a")
    assert entry["configuration"]["api_base"] == json_server.base_url
    assert entry["configuration"]["api_key_env"] == KEY_ENV  # the variable's name, no key
    assert exported["release_hash"] and exported["prompt_version"].startswith("v2-")
    header = (tmp_path / "b.csv").read_text().splitlines()[0]
    assert header == "model,kind,mode,axis,mean,ci_low,ci_high,n,rank,rank_low,rank_high"
