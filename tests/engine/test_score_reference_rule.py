"""``python -m attunebench score`` on reference-format runs: the per-conversation
composite is unchanged wherever no judgement falls in the case issue 14 changed (a yes/no
ground truth on a question that was not asked), and takes the hand-worked new value where one
does. ``--asked-only`` reports the earlier rule beside the default, never instead of it."""

import json

import pytest

from attunebench.cli import main
from attunebench.records import BinaryJudgement, Conversation, Turn, TurnAnnotations
from attunebench.writer import write_conversation_file

ASKED = BinaryJudgement("B1", observed="yes")
NOT_ASKED_YES = BinaryJudgement("B2", llm_value="yes", observed=None, preferred="na")
NOT_ASKED_NO = BinaryJudgement("B3", llm_value="no", observed=None, preferred="na")


def conversation(cid: str, *judgements: BinaryJudgement) -> Conversation:
    annotations = TurnAnnotations(binary_judgements=judgements)
    return Conversation(
        conversation_id=cid, turns=(Turn(1, "hi", "hello", annotations=annotations),)
    )


def run_output(cid: str) -> dict:
    """A reference-shaped run: the EM was asked B1 only (the applicable question)."""
    return {
        "conversationId": cid,
        "source_file": f"conversation_{cid}.json",
        "em_model": "tool/m",
        "mode": "default",
        "turns": [
            {
                "turnNumber": 1,
                "em_emotion_tags": [],
                "em_binary_om_assessment": {"B1": "yes"},
                "em_binary_human_prediction": {"B1": "yes"},
                "em_pairwise_selections": {},
            }
        ],
    }


@pytest.fixture
def scored(tmp_path, capsys):
    data, runs, out = tmp_path / "data", tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    for item in (
        conversation("unchanged", ASKED),
        conversation("changed", ASKED, NOT_ASKED_YES, NOT_ASKED_NO),
    ):
        write_conversation_file(item, data / "conversations")
        (runs / f"{item.conversation_id}.json").write_text(
            json.dumps(run_output(item.conversation_id))
        )
    code = main(
        ["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--asked-only"]
    )
    assert code == 0
    payload = json.loads((out / "scores.json").read_text())
    return payload, capsys.readouterr().out


def composites(entries: list[dict]) -> dict[str, float]:
    return {e["conversationId"]: e["composite_score"] for e in entries if e["em_model"] == "tool/m"}


def test_composite_unchanged_without_the_case_and_changed_with_it(scored):
    payload, printed = scored
    default = composites(payload["conversations"])
    before = composites(payload["variants"]["asked_only"]["conversations"])
    # Every pillar but evaluation quality is the same in both conversations: no tags on either
    # side (F1 = VA = 1, ET = 1), no PANAS (score 0.5), empty Q1/follow-up (1), no four-branch
    # rating (1): HC = 0.4 * 0.5 + 0.3 + 0.3 = 0.8. No comparisons: pairwise 1. Human
    # accuracy 1 (B1 right; B2 and B3 have an na preference and are not scored).
    # Asked-only (the rule before this issue), both conversations: OM 1/1 -> EQ = 1,
    #   composite = 100 (0.24 + 0.49 + 0.27 * 0.8) = 94.6.
    assert before == {"unchanged": 94.6, "changed": 94.6}
    # Default: "unchanged" has no judgement in the changed case -> the same 94.6.
    assert default["unchanged"] == before["unchanged"] == 94.6
    # "changed": B2 (llmValue yes, not asked -> "no", wrong) and B3 (llmValue no -> right):
    #   OM = 2/3; EQ = 0.5 (2/3 + 1) / 2 + 0.5 = 11/12;
    #   composite = 100 (0.24 + 0.49 * 11/12 + 0.216) = 90.5167 -> 90.52.
    assert default["changed"] == 90.52
    assert payload["scoring_options"] == {"compat": False, "asked_only": False}
    assert payload["variants"]["asked_only"]["scoring_options"]["asked_only"] is True
    assert "composite (asked only)" in printed


def test_without_the_option_no_variant_is_written(tmp_path):
    data, runs, out = tmp_path / "data", tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    write_conversation_file(conversation("c", ASKED, NOT_ASKED_YES), data / "conversations")
    (runs / "c.json").write_text(json.dumps(run_output("c")))
    assert main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out)]) == 0
    payload = json.loads((out / "scores.json").read_text())
    assert "variants" not in payload
    # OM 1/2 -> EQ = 0.5 * 1.5 / 2 + 0.5 = 0.875 -> 100 (0.24 + 0.42875 + 0.216) = 88.475,
    # rounded to two decimals (a binary float just below .475 -> 88.47).
    assert composites(payload["conversations"]) == {"c": round(88.475, 2)}
