"""Every bad input is refused with a FormatError naming the field (import reports it)."""

import json

import pytest

from attunebench.reader import FormatError, parse_conversation, read_conversation_file
from attunebench.writer import conversation_to_dict
from tests.factories import build_record


def valid() -> dict:
    return conversation_to_dict(build_record("c1"))


def refused(data) -> str:
    with pytest.raises(FormatError) as caught:
        parse_conversation(data)
    return str(caught.value)


def test_invalid_json(tmp_path):
    path = tmp_path / "conversation_1.json"
    path.write_text('{"conversationId": "1",', encoding="utf-8")
    with pytest.raises(FormatError, match="invalid JSON"):
        read_conversation_file(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "conversation_1.json"
    path.write_bytes(b'{"conversationId": "\xff"}')
    with pytest.raises(FormatError, match="not UTF-8"):
        read_conversation_file(path)


def test_top_level_must_be_an_object():
    assert "expected an object, got list" in refused([1, 2])


def test_missing_id():
    data = valid()
    del data["conversationId"]
    assert refused(data).startswith("conversationId:")


def test_wrong_type_of_turns():
    data = valid()
    data["turns"] = {"1": {}}
    assert refused(data) == "turns: expected a list, got dict"


def test_unknown_panas_item_in_mood_tags():
    data = valid()
    data["turns"][0]["moodShiftTags"] = [{"emotion": "Neutral", "intensity": 3}]
    assert refused(data) == "turns[0].moodShiftTags[0].emotion: 'Neutral' is not a PANAS item"


def test_unknown_panas_item_in_survey():
    data = valid()
    data["prePanas"]["items"]["Happy"] = 3
    assert refused(data) == "prePanas.items.Happy: unknown PANAS item"


@pytest.mark.parametrize("intensity", [0, 8, 3.5, "very", True])
def test_intensity_out_of_range(intensity):
    data = valid()
    data["turns"][0]["moodShiftTags"] = [{"emotion": "Upset", "intensity": intensity}]
    assert refused(data).startswith("turns[0].moodShiftTags[0].intensity:")


def test_duplicate_turn_number():
    data = valid()
    data["turns"][1]["turnNumber"] = data["turns"][0]["turnNumber"]
    assert refused(data) == "turns[1].turnNumber: duplicate turn number 1"


def test_bad_judgement_value():
    data = valid()
    data["turns"][0]["annotations"]["binaryJudgements"][0]["observedBehavior"] = "maybe"
    assert (
        "binaryJudgements[0].observedBehavior: 'maybe' is not one of yes, no, na or null"
        in refused(data)
    )


def test_question_answered_twice():
    data = valid()
    judgements = data["turns"][0]["annotations"]["binaryJudgements"]
    judgements.append(dict(judgements[0]))
    assert "answered twice" in refused(data)


def test_bad_pairwise_label_and_winner():
    data = valid()
    data["turns"][0]["annotations"]["pairwiseComparisons"][0]["responseA"] = "gpt"
    assert "responseA: 'gpt' is not one of original, alternate, human" in refused(data)
    data = valid()
    data["turns"][0]["annotations"]["pairwiseComparisons"][0]["winner"] = "C"
    assert "winner: 'C' is not A, B or null" in refused(data)


def test_panas_score_out_of_range():
    data = valid()
    data["postPanas"]["items"]["Proud"] = 9
    assert refused(data) == "postPanas.items.Proud: 9 is out of range 1..7"


def test_four_branch_unknown_branch():
    data = valid()
    data["conversationWideQuestions"]["fourBranchScores"]["wisdom"] = 3
    assert "fourBranchScores.wisdom: unknown branch" in refused(data)


def test_the_error_survives_a_json_round_trip_with_its_field():
    # Import reports are stored in audit entries as JSON: the text read back from JSON must
    # still name the field and the reason, whatever the bad value was.
    with pytest.raises(FormatError) as caught:
        parse_conversation({"conversationId": "c1", "turns": "x"})
    error = caught.value
    stored = json.loads(
        json.dumps({"field": error.field, "reason": error.reason, "text": str(error)})
    )
    assert stored["field"] == "turns" and stored["reason"]
    assert stored["text"] == f"turns: {stored['reason']}"
