"""Issue 40, item 7: one turn's participant answers beside two models' predictions and two
judges' labels, each marked by the report's scoring. Every number and mark below is worked by
hand from the section 4 rules (the comments show the working)."""

import math

import pytest

from attunebench.records import (
    BinaryJudgement,
    MoodTag,
    PairwiseComparison,
    Turn,
    TurnAnnotations,
)
from attunebench.run_output import DraftJudgeScores, TurnOutput
from evaluation.services.turn_marks import BEHAVIOUR, EMOTION, PREFERENCE, Mark, turn_view
from evaluation.services.turn_view import Selection, keeps

TURN = Turn(
    turn_number=2,
    user_message="I can't stop worrying about the exam.",
    llm_response="That sounds stressful.",
    mood_tags=(MoodTag("Nervous", 5), MoodTag("Upset", 3)),
    annotations=TurnAnnotations(
        binary_judgements=(
            BinaryJudgement("B1", observed="yes", preferred="yes"),
            BinaryJudgement("B6", observed="no", preferred="no"),
            # OM truth falls back to llmValue (no); the "na" preference is not scored.
            BinaryJudgement("B13", llm_value="no", observed=None, preferred="na"),
            BinaryJudgement("B17", observed="na", preferred="na"),  # scored on neither
        ),
        pairwise_comparisons=(
            PairwiseComparison("general", "original", "human", "B"),
            PairwiseComparison("PW1", "original", "alternate", None),  # can never match
        ),
    ),
)
SCORES = DraftJudgeScores(overall_score=7, emotional_appropriateness=5, helpfulness=4, tone_match=4)
FIRST = TurnOutput(
    turn_number=2,
    em_emotion_tags=(MoodTag("nervous", 4), MoodTag("UPSET", 2)),
    em_binary_om_assessment={"B1": "yes", "B6": "yes"},  # B13 missing: "no"
    em_binary_human_prediction={"B1": "yes", "B6": "no"},
    em_pairwise_selections={"0": "B", "1": "A"},
    em_draft_judge_scores=SCORES,
    em_draft_judge_scores_by_model={"judge/x": SCORES},
)
SECOND = TurnOutput(
    turn_number=2,
    em_emotion_tags=(MoodTag("Afraid", 6),),
    em_binary_om_assessment={"B1": "yes", "B6": "no", "B13": "na"},
    em_binary_human_prediction={"B1": "no"},  # B6 missing: "no"
    em_pairwise_selections={"0": "b"},
)
JUDGES = {"judge/x": {"B1": "yes", "B6": "yes", "B13": "no"}, "judge/y": {"B1": "na", "B6": "no"}}


@pytest.fixture
def view():
    return turn_view(
        TURN,
        {"first": FIRST, "second": SECOND, "absent": None},
        judges=["judge/x", "judge/y"],
        judge_answers=JUDGES,
    )


def test_emotion_tags_and_scores(view):
    first, second, absent = view.models
    assert [(t.emotion, t.intensity, t.agrees) for t in first.emotion.tags] == [
        ("nervous", 4, True),
        ("UPSET", 2, True),
    ]
    assert first.emotion.f1 == 1.0 and first.emotion.va == 1.0 and first.emotion.agrees
    assert [(t.emotion, t.agrees) for t in second.emotion.tags] == [("Afraid", False)]
    assert second.emotion.f1 == 0.0 and not second.emotion.agrees
    # afraid (.073, .84) is nearest nervous (.188, .72): 1 - sqrt(.115^2 + .12^2)/sqrt(2),
    # times coverage 1/2.
    similarity = 1 - math.sqrt(0.115**2 + 0.12**2) / math.sqrt(2)
    assert second.emotion.va == pytest.approx(similarity / 2) == pytest.approx(0.44123, abs=1e-5)
    assert absent.emotion is None and not absent.answered


def test_behaviour_marks_against_what_the_participant_observed(view):
    rows = {row.question_id: row for row in view.behaviour}
    assert list(rows) == ["B1", "B6", "B13"]  # B17: na/na, no ground truth
    assert [rows[q].truth for q in rows] == ["yes", "no", "no"]
    assert rows["B1"].models == (Mark("yes", True), Mark("yes", True), None)
    assert rows["B6"].models == (Mark("yes", False), Mark("no", True), None)
    assert rows["B13"].models == (Mark("no", True), Mark("no", True), None)  # missing, na: no
    first, second, _ = view.models
    assert first.scores.binary_om_accuracy == pytest.approx(2 / 3)
    assert second.scores.binary_om_accuracy == 1.0


def test_preference_marks_against_what_the_participant_wanted(view):
    rows = {row.question_id: row for row in view.preference}
    assert list(rows) == ["B1", "B6"]  # B13's "na" preference is not scored
    assert rows["B1"].models == (Mark("yes", True), Mark("no", False), None)
    assert rows["B6"].models == (Mark("no", True), Mark("no", True), None)
    general, pw1 = view.comparisons
    assert (general.winner, pw1.winner) == ("B", None)
    assert general.models == (Mark("B", True), Mark("B", True), None)
    assert pw1.models == (Mark("A", False), Mark("–", False), None)
    first, second, _ = view.models
    assert first.scores.binary_human_accuracy == 1.0 and first.scores.pairwise_accuracy == 0.5
    assert second.scores.binary_human_accuracy == 0.5 and second.scores.pairwise_accuracy == 0.5


def test_the_axes_each_model_got_wrong(view):
    assert view.wrong_for("first") == {BEHAVIOUR, PREFERENCE}
    assert view.wrong_for("second") == {EMOTION, PREFERENCE}
    assert view.wrong_for("absent") == frozenset()  # a turn it lacks is skipped, not wrong


def test_judges_labels_of_the_reply_beside_what_the_participant_observed(view):
    assert view.judges == ("judge/x", "judge/y")
    rows = {row.question_id: row for row in view.judge_labels}
    assert list(rows) == ["B1", "B6"]  # B13: nothing observed; B17: na
    assert rows["B1"].judges == (Mark("yes", True), None)  # judge/y's "na" is left out
    assert rows["B6"].judges == (Mark("yes", False), Mark("no", True))


def test_judged_quality_of_each_draft(view):
    first, second, _ = view.models
    assert first.judged.quality == pytest.approx((5 - 1) / 6)  # mean of 7, 5, 4, 4 is 5
    assert first.judged.by_judge == (("judge/x", pytest.approx(4 / 6)),)
    assert second.judged.quality is None and second.judged.by_judge == ()


@pytest.mark.parametrize(
    ("axis", "wrong", "kept"),
    [
        ("", "", True),
        ("emotion", "first", False),
        ("emotion", "second", True),
        ("emotion", "any", True),
        ("behaviour", "second", False),
        ("preference", "first", True),
        ("", "first", True),
        ("judged", "any", False),  # no participant answer to be wrong against
    ],
)
def test_only_turns_a_model_got_wrong(view, axis, wrong, kept):
    selection = Selection(models=("first", "second"), mode="default", axis=axis, wrong=wrong)
    assert keeps(view, selection) is kept
