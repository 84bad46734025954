"""A standing leaderboard refuses a run whose numbers are not comparable with the board's:
another release, another prompt version, another seed; and a model already on the board
(unless replaced)."""

from dataclasses import replace

import pytest

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.leaderboard import LeaderboardError, add_run
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
