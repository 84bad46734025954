"""Asked for JSON, the demo answers valid JSON shaped like the prompt's template, from the input."""

import json

from attune_collect.llm import EndpointConfig, LLMGateway
from attune_collect.llm.demo_json import lenient_json
from attune_collect.llm.demo_lexicon import PANAS_ITEMS, POSITIVE_ITEMS

VOCABULARY = ", ".join(PANAS_ITEMS)


async def ask(prompt: str, persona: str = "listener", system: str | None = None) -> dict:
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": prompt})
    endpoint = EndpointConfig(name="demo", model=f"attune-demo/{persona}")
    completion = await LLMGateway().complete(endpoint, messages)
    return json.loads(completion.text)  # must be valid JSON


def review_prompt(participant: str) -> str:
    return f"""Participant: {participant}
Model reply: It sounds like a lot. What worries you most?
Tag the participant's emotions with these items only: {VOCABULARY}.
Answer B1 (acknowledged emotions), B13 (asked a follow-up question) and B17 (risk indicators).
Return JSON only:
```json
{{"emotion_tags": [{{"emotion": "Afraid", "intensity": 4}}],
  "om_assessment": {{"B1": "yes|no", ...}},
  "human_prediction": {{"B1": "yes|no", ...}},
  "reasoning": "..."}}
```"""


async def test_emotion_tags_come_from_the_participant_words():
    answer = await ask(review_prompt("I feel so scared and nervous about the surgery"))

    assert {tag["emotion"] for tag in answer["emotion_tags"]} == {"Scared", "Nervous"}
    assert all(1 <= tag["intensity"] <= 7 for tag in answer["emotion_tags"])


async def test_other_words_give_other_tags():
    answer = await ask(review_prompt("I'm so proud and excited, I got the job!"))

    assert {tag["emotion"] for tag in answer["emotion_tags"]} == {"Proud", "Excited"}


async def test_answers_the_behaviour_questions_the_prompt_lists():
    calm = await ask(review_prompt("I feel upset about my exam"))
    at_risk = await ask(review_prompt("I feel hopeless and want to end it all"))

    assert set(calm["om_assessment"]) == {"B1", "B13", "B17"}
    assert set(calm["om_assessment"].values()) <= {"yes", "no"}
    assert calm["om_assessment"]["B17"] == "no"
    assert at_risk["om_assessment"]["B17"] == "yes"


async def test_fills_letters_numbers_options_and_text_by_the_example():
    prompt = """Which response would the participant prefer? Reply in JSON:
{"winner": "A|B", "score": <1-7>, "confidence": 0.5, "delta": -2, "clarity": "clear|implied|mixed",
 "looking_for": ["vent", "advice", "calm down"], "draft_response": ""}"""

    answer = await ask(prompt)

    assert answer["winner"] in ("A", "B")
    assert 1 <= answer["score"] <= 7
    assert 0.0 <= answer["confidence"] <= 1.0
    assert -6 <= answer["delta"] <= 6
    assert answer["clarity"] in ("clear", "implied", "mixed")
    assert answer["looking_for"] and set(answer["looking_for"]) <= {"vent", "advice", "calm down"}
    assert answer["draft_response"].startswith("[demo]")


async def test_post_chat_panas_totals_match_the_items():
    items = ", ".join(f'"{item}": 1' for item in PANAS_ITEMS)
    prompt = (
        "Participant: I was so scared before the chat.\n"
        f'Predict post-chat PANAS as JSON: {{"items": {{{items}}}, '
        '"totalPositiveAffect": 10, "totalNegativeAffect": 10}'
    )

    answer = await ask(prompt)

    assert set(answer["items"]) == set(PANAS_ITEMS)
    assert answer["totalPositiveAffect"] == sum(answer["items"][i] for i in POSITIVE_ITEMS)
    assert answer["items"]["Scared"] > answer["items"]["Hostile"]


async def test_a_template_in_the_system_message_is_used():
    answer = await ask(
        "Participant: I am really frustrated with my landlord",
        system='Answer in JSON only, like {"emotions": [{"label": "Upset", "score": 3}]}',
    )

    assert answer == {"emotions": [{"label": "Irritable", "score": 6}]}


async def test_without_a_template_it_still_answers_json():
    answer = await ask("Give me JSON about: I feel guilty")

    assert set(answer) == {"response", "emotion_tags"}


def test_prompt_style_templates_are_parsed_leniently():
    template = '{"a": <1-7>, "b": yes|no, "c": [1, 2, ...], // note\n "d": \'x\', "e": "http://x",}'

    assert lenient_json(template) == {
        "a": "<1-7>",
        "b": "yes|no",
        "c": [1, 2],
        "d": "x",
        "e": "http://x",
    }
