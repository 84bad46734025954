"""``score`` reads run outputs written by any tool: every run-output JSON under --runs is
scored; other JSON is passed over; runs of unknown conversations and duplicates are reported."""

import json

from attunebench.baselines import baseline_runs
from attunebench.release import load_conversations
from attunebench.run_output import dumps_run_output
from attunebench.score_folder import read_runs, score_runs, summary_rows


def test_foreign_runs_are_scored_beside_the_baselines(release_dir, tmp_path):
    conversations = load_conversations(release_dir)
    runs_dir = tmp_path / "runs" / "nested"
    runs_dir.mkdir(parents=True)
    # Another tool's outputs: any file names, minimal keys, selections as a list.
    for index, run in enumerate(
        baseline_runs([c.conversation for c in conversations[:2]], "always_a")
    ):
        data = json.loads(dumps_run_output(run))
        data["em_model"] = "other-tool/model"
        for turn in data["turns"]:
            turn["em_pairwise_selections"] = list(turn["em_pairwise_selections"].values())
            del turn["em_binary_om_assessment_hp"], turn["em_binary_human_prediction_hp"]
        (runs_dir / f"output-{index}.json").write_text(json.dumps(data))
    (runs_dir / "output-0-copy.json").write_text((runs_dir / "output-0.json").read_text())
    (runs_dir / "stranger.json").write_text(json.dumps({"conversationId": "nope", "turns": []}))
    (tmp_path / "runs" / "scores.json").write_text(
        json.dumps({"conversations": [], "aggregates": []})
    )
    (tmp_path / "runs" / "broken.json").write_text("{")

    runs, unreadable = read_runs(tmp_path / "runs")
    result = score_runs(conversations, runs)

    assert len(runs) == 4 and len(unreadable) == 1 and "broken.json" in unreadable[0]
    assert any("a second run" in note for note in result.skipped)
    assert any("'nope' is not in the data" in note for note in result.skipped)
    models = [a.em_model for a in result.aggregates]
    assert models == sorted(models) and "other-tool/model" in models
    other = next(a for a in result.aggregates if a.em_model == "other-tool/model")
    same = next(a for a in result.aggregates if a.em_model == "baseline/always_a")
    # Baselines ran on the two covered conversations only; the foreign copy scores the same.
    assert other.n_conversations == same.n_conversations == 2
    assert other.metrics["avg_pairwise_accuracy"] == same.metrics["avg_pairwise_accuracy"]
    assert other.metrics["avg_binary_om_accuracy_hp"].n == 0  # no HP review in that tool
    row = next(r for r in summary_rows(result.aggregates) if r[0] == "other-tool/model")
    assert row[3] == other.metrics["composite_score"].mean
