"""Answer schemas: the template shown in the prompt and the validator come from one
declaration; answers are normalised, and what does not fit names the offending key."""

import pytest

from attunebench.instrument import default_instrument
from attunebench.records import MoodTag
from attunebench.schemas import (
    SchemaError,
    draft_schema,
    om_review_schema,
    pairwise_schema,
    post_conversation_schema,
)


def test_om_review_answers_are_normalised():
    schema = om_review_schema(["B1", "B13"], verbose=False)
    value = schema.validate(
        {
            "emotion_tags": [
                {"emotion": "nervous", "intensity": "5"},
                {"emotion": "NERVOUS"},
                "Upset",
            ],
            "om_assessment": {"B1": "Yes", "B13": False},
            "human_prediction": {"B1": "n/a", "B13": "no", "B99": "yes"},
        }
    )
    assert value["emotion_tags"] == (MoodTag("Nervous", 5), MoodTag("Upset", None))
    assert value["om_assessment"] == {"B1": "yes", "B13": "no"}
    assert value["human_prediction"] == {"B1": "na", "B13": "no"}  # extra keys ignored


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"emotion_tags": [{"emotion": "anxious"}]}, "emotion_tags[0].emotion must be one of"),
        (
            {"emotion_tags": [{"emotion": "Upset", "intensity": 9}]},
            "intensity must be a number from 1 to 7",
        ),
        (
            {"emotion_tags": [], "om_assessment": {"B1": "maybe"}},
            "om_assessment.B1 must be one of yes, no, na",
        ),
        ({"emotion_tags": [], "om_assessment": {}}, "om_assessment.B1 must be one of"),
        ({"om_assessment": {"B1": "yes"}}, "missing key emotion_tags"),
    ],
)
def test_om_review_rejections_name_the_key(answer, message):
    with pytest.raises(SchemaError, match=message.replace("[", r"\[").replace("]", r"\]")):
        om_review_schema(["B1"], verbose=False).validate(answer)


def test_verbose_modes_require_the_reasoning_field():
    assert draft_schema(verbose=False).validate({"response": "Hi"}) == {"response": "Hi"}
    with pytest.raises(SchemaError, match="missing key response_reasoning"):
        draft_schema(verbose=True).validate({"response": "Hi"})
    assert "response_reasoning" in draft_schema(verbose=True).template()


def test_pairwise_letters_and_post_options():
    assert pairwise_schema(2, verbose=False).validate(
        {"selections": {"0": "a", "1": "Response B"}}
    ) == {"selections": {"0": "A", "1": "B"}}
    schema = post_conversation_schema(default_instrument(), delta=True, verbose=False)
    template = schema.template()
    assert set(template) == {
        "predicted_panas_delta",
        "q1_lookingFor",
        "q2_emotionClarity",
        "q3_modelFit",
        "q3_followUp_whatFeltOff",
        "fourBranchScores",
    }
    answer = dict(template)
    answer.update(
        q1_lookingFor=["To be listened to / to vent", "calm"],  # a label is mapped to its id
        q2_emotionClarity="clear",
        q3_modelFit="mixed",
        q3_followUp_whatFeltOff="too many questions",
    )
    value = schema.validate(answer)
    assert value["q1_lookingFor"] == ("vent", "calm")
    assert value["q3_followUp_whatFeltOff"] == ("too many questions",)
    answer["predicted_panas_delta"] = {
        "items": {**template["predicted_panas_delta"]["items"], "Proud": 7}
    }
    with pytest.raises(SchemaError, match="Proud must be a number from -6 to 6"):
        schema.validate(answer)
