"""A standing leaderboard refuses a run whose numbers are not comparable with the board's:
another release, another prompt version, other scoring options, another seed; and a model
already on the board (unless replaced)."""

from dataclasses import replace

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.cli import main
from attunebench.leaderboard import LeaderboardError, add_run, load_board
from attunebench.release import ReleaseIdentity, load_conversations, release_identity
from attunebench.runner import RunOptions
from attunebench.score_folder import read_runs


@pytest.fixture
async def setting(release_dir, tmp_path, executor):
    """The release's conversations, one model's outputs, and a board holding them."""
    conversations = load_conversations(release_dir)
    units = plan_units(conversations, [EndpointConfig("demo/a")], ["default"], tmp_path / "runs")
    await run_batch(units, RunOptions(), executor)
    outputs, _ = read_runs(tmp_path / "runs")
    release = release_identity(release_dir)
    board = add_run(None, conversations, outputs, release=release).board
    return conversations, outputs, release, board


def test_another_release_is_refused(setting):
    conversations, outputs, _, board = setting
    other = ReleaseIdentity("other", "1", "0" * 64)
    with pytest.raises(LeaderboardError, match="release hash"):
        add_run(board, conversations, outputs, release=other, replace=True)


def test_another_prompt_version_is_refused(setting):
    conversations, outputs, release, board = setting
    reworded = [(name, replace(o, prompt_version="v2-0123456789ab")) for name, o in outputs]
    with pytest.raises(LeaderboardError, match="prompt version"):
        add_run(board, conversations, reworded, release=release, replace=True)


# The scoring options an identity records (ScoringOptions.as_dict): the default board's, and
# those of the same run scored as the reference does where our rules depart from it.
DEFAULT_SCORING = "{'compat': False, 'asked_only': False}"
COMPAT_SCORING = "{'compat': True, 'asked_only': False}"


def test_other_scoring_options_are_refused(setting):
    conversations, outputs, release, board = setting
    with pytest.raises(LeaderboardError) as refused:
        add_run(board, conversations, outputs, release=release, compat=True, replace=True)
    assert f"scoring options: board {DEFAULT_SCORING}, run {COMPAT_SCORING}" in str(refused.value)


def test_the_command_line_refuses_other_scoring_options(setting, release_dir, tmp_path, capsys):
    board = tmp_path / "board"
    add = ["leaderboard", "add", "--board", str(board), "--data", str(release_dir)]
    add += ["--runs", str(tmp_path / "runs"), "--run-id", "first"]
    assert main(add) == 0
    capsys.readouterr()

    code = main([*add[:-1], "compat", "--compat", "--replace"])

    assert code == 2
    error = capsys.readouterr().err
    assert "this run cannot join the board" in error
    assert f"scoring options: board {DEFAULT_SCORING}, run {COMPAT_SCORING}" in error
    stored = load_board(board)  # the board is left as it was
    assert stored.identity.scoring_options == {"compat": False, "asked_only": False}
    assert {e.run_id for e in stored.entries} == {"first"}


def test_another_seed_is_refused(setting):
    conversations, outputs, release, board = setting
    with pytest.raises(LeaderboardError, match="seed"):
        add_run(board, conversations, outputs, release=release, seed=1, replace=True)


def test_a_model_already_there_is_replaced_only_when_asked(setting):
    conversations, outputs, release, board = setting
    with pytest.raises(LeaderboardError, match="already on the board"):
        add_run(board, conversations, outputs, release=release)
    again = add_run(board, conversations, outputs, release=release, run_id="2", replace=True)
    assert again.added == [("demo/a", "default")]
    assert [e.run_id for e in again.board.entries if e.model == "demo/a"] == ["2"]
