"""The whole pipeline on a seeded release with the offline demo provider (through litellm):
run -> one output per (conversation, model, mode) -> score with baselines -> JSON + Parquet."""

import json

import pandas as pd

from attune_collect.llm import EndpointConfig
from attunebench.batch import plan_units, run_batch
from attunebench.cache import SQLiteCallCache
from attunebench.executor import CallExecutor
from attunebench.release import load_conversations
from attunebench.runner import RunOptions
from attunebench.score_folder import read_runs, score_runs, write_scores


async def test_demo_models_run_and_score_end_to_end(release_dir, tmp_path):
    conversations = load_conversations(release_dir)
    models = [EndpointConfig("attune-demo/listener"), EndpointConfig("attune-demo/advisor")]
    options = RunOptions(judges=(EndpointConfig("attune-demo/questioner"),))
    out = tmp_path / "runs"
    units = plan_units(conversations, models, ["default", "verbose"], out)
    executor = CallExecutor(SQLiteCallCache(tmp_path / "cache.sqlite3"))

    result = await run_batch(units, options, executor)

    assert not result.fatal
    assert sorted(path.name for path in out.glob("run_*.json")) == sorted(
        u.path.name for u in units
    )
    for group in result.groups.values():
        assert group.run_now == len(conversations) and group.failures == 0
        assert group.call_errors == 0

    runs, unreadable = read_runs(out)
    assert len(runs) == len(units) and not unreadable
    scored = score_runs(conversations, runs)
    paths = write_scores(scored, tmp_path / "scores")

    scores = json.loads(paths[0].read_text())
    models_scored = {(a["em_model"], a["mode"]) for a in scores["aggregates"]}
    assert ("attune-demo/listener", "verbose") in models_scored
    assert {"baseline/random", "baseline/majority", "baseline/no_change", "baseline/always_a"} <= {
        model for model, _ in models_scored
    }
    listener = next(a for a in scores["aggregates"] if a["em_model"] == "attune-demo/listener")
    assert 0 <= listener["composite_score"] <= 100
    assert listener["avg_draft_judge_score"] is not None  # the judge ran
    assert listener["parse_failures"]["om_review"]["rate"] == 0.0
    assert len(scores["conversations"]) == len(units) + 4 * len(conversations)

    per_turn = pd.read_parquet(paths[1])
    per_conversation = pd.read_parquet(paths[2])
    assert set(per_conversation["em_model"]) >= {"attune-demo/listener", "baseline/random"}
    assert {"emotion_f1", "pairwise_accuracy", "turn_number"} <= set(per_turn.columns)
