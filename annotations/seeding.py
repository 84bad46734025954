"""Synthetic, fully annotated demo conversations (deterministic for a seed).

The generator builds AttuneBench records (no database), so the demo data goes through exactly
the same bulk write path as imported data. It is a plausibility generator, not a simulation:
answers depend on each demo model's style, moods drift over turns, and a share of participants
report a diagnosis, so every later feature (QA flags, releases, subgroup statistics) has
something to show. Every record says it is synthetic in its metadata.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from attunebench import records
from attunebench.instrument import Instrument
from attunebench.profile import Profile, traits_of
from attunebench.vocabulary import PANAS_NEGATIVE, PANAS_POSITIVE


@dataclass(frozen=True)
class DemoPersona:
    """A demo model's style: which behaviours it tends to show, and how well it lands."""

    alias: str
    tends_to: frozenset[str]
    avoids: frozenset[str]
    quality: float  # 0..1: how often participants prefer its original reply
    openers: tuple[str, ...]


DEMO_PERSONAS: tuple[DemoPersona, ...] = (
    DemoPersona(
        alias="listener",
        tends_to=frozenset({"B1", "B2", "B3", "B8", "B15", "B19", "B108", "B4", "B504"}),
        avoids=frozenset({"B11", "B12", "B14", "B310", "B313", "B20"}),
        quality=0.6,
        openers=(
            "It sounds like {topic} has been weighing on you.",
            "That sounds really hard, especially {topic}.",
        ),
    ),
    DemoPersona(
        alias="advisor",
        tends_to=frozenset({"B11", "B12", "B310", "B313", "B316", "B408"}),
        avoids=frozenset({"B13", "B505", "B501", "B19"}),
        quality=0.4,
        openers=(
            "Here is what I would try with {topic}:",
            "A practical first step for {topic} could be this.",
        ),
    ),
    DemoPersona(
        alias="questioner",
        tends_to=frozenset({"B13", "B505", "B501", "B503", "B7", "B1"}),
        avoids=frozenset({"B12", "B310", "B14"}),
        quality=0.5,
        openers=(
            "Can you tell me more about {topic}?",
            "What part of {topic} feels hardest right now?",
        ),
    ),
)

TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("work", ("a difficult manager", "burnout", "a job interview")),
    ("relationships", ("a breakup", "a friend who drifted away", "conflict at home")),
    ("health", ("a worrying diagnosis", "sleeping badly", "caring for a parent")),
    ("studies", ("exam stress", "choosing a course", "falling behind")),
)

_USER_LINES = (
    "I keep thinking about {topic} and I can't switch off.",
    "Honestly I feel {emotion} about {topic}.",
    "Today was a bit better, but {topic} still gets to me.",
    "I don't know what to do next about {topic}.",
    "Maybe I'm overreacting, but I feel {emotion}.",
    "Thanks, that helps a little. What about the rest of it?",
)
_DIAGNOSES = ("diagnosis:anxiety_depression", "diagnosis:asd_adhd")
_FOLLOW_UPS = (
    "it jumped to advice too fast",
    "it felt generic",
    "it missed how upset I was",
    "too many questions",
)


def demo_conversations(
    instrument: Instrument, count: int, seed: int
) -> Iterator[records.Conversation]:
    """``count`` synthetic conversations; the same (count, seed) always gives the same records."""
    for index in range(count):
        # One generator per conversation: conversation i is the same whatever ``count`` is.
        rng = random.Random(f"{seed}:{index}")
        yield _conversation(instrument, rng, seed, index)


def _conversation(
    instrument: Instrument, rng: random.Random, seed: int, index: int
) -> records.Conversation:
    persona = DEMO_PERSONAS[index % len(DEMO_PERSONAS)]
    category, subtopics = rng.choice(TOPICS)
    subtopic = rng.choice(subtopics)
    distress = rng.uniform(0.3, 0.9)
    n_turns = rng.randint(3, 12)
    mood = rng.sample(PANAS_NEGATIVE, 2)
    turns = []
    for number in range(1, n_turns + 1):
        # Moods drift: negative feelings fade with a good fit, positive ones appear later on.
        if rng.random() < 0.35 * persona.quality:
            mood = [m for m in mood if m in PANAS_POSITIVE] + [rng.choice(PANAS_POSITIVE)]
        turns.append(_turn(instrument, rng, persona, number, subtopic, mood[-2:], distress))
    started = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(
        hours=index * 3, minutes=rng.randint(0, 59)
    )
    pre = _panas(rng, distress)
    post = _panas(rng, max(0.0, distress - 0.3 * persona.quality + rng.uniform(-0.15, 0.15)))
    return records.Conversation(
        conversation_id=f"demo-{seed}-{index:05d}",
        metadata=records.Metadata(
            model=persona.alias,
            provider="attune-demo",
            model_version="demo-1",
            timestamp=started.isoformat(),
            category=category,
            subtopic=subtopic,
            other={"synthetic": True, "generator": "attune seed_demo", "seed": seed},
        ),
        participant_profile=_profile(rng, seed, index, instrument),
        pre_panas=pre,
        post_panas=post,
        conversation_wide=_wide(instrument, rng, persona),
        turns=tuple(turns),
    )


def _turn(
    instrument: Instrument,
    rng: random.Random,
    persona: DemoPersona,
    number: int,
    topic: str,
    mood: list[str],
    distress: float,
) -> records.Turn:
    emotion = mood[-1].lower()
    user = rng.choice(_USER_LINES).format(topic=topic, emotion=emotion)
    reply = rng.choice(persona.openers).format(topic=topic) + " (synthetic demo reply)"
    neutral = rng.random() < 0.2
    tags = (
        ()
        if neutral
        else tuple(records.MoodTag(m, rng.randint(2, 7 if distress > 0.6 else 5)) for m in mood)
    )
    questions = rng.sample(instrument.behaviour_ids, 6)
    judgements = tuple(_judgement(rng, persona, qid) for qid in questions)
    pairwise_ids = [
        "general",
        *rng.sample([q for q in instrument.pairwise_ids if q != "general"], 2),
    ]
    comparisons = tuple(_comparison(rng, persona, qid) for qid in pairwise_ids)
    edited = (
        reply
        if rng.random() < 0.1
        else reply.replace("(synthetic demo reply)", "I'm here with you. (edited)")
    )
    return records.Turn(
        turn_number=number,
        user_message=user,
        llm_response=reply,
        mood_tags=tags,
        annotations=records.TurnAnnotations(
            binary_judgements=judgements,
            llm_improved=f"{reply} I hear how much this matters to you. (synthetic improved reply)",
            human_edited=edited,
            pairwise_comparisons=comparisons,
            selected_pairwise_questions=tuple(pairwise_ids[1:]),
        ),
    )


def _judgement(rng: random.Random, persona: DemoPersona, qid: str) -> records.BinaryJudgement:
    if qid in persona.tends_to:
        observed = "yes" if rng.random() < 0.85 else "no"
    elif qid in persona.avoids:
        observed = "no" if rng.random() < 0.85 else "yes"
    else:
        observed = rng.choice(("yes", "no", "no", "na"))
    # Participants mostly want what validating replies do, and not what pushy ones do.
    preferred = (
        "na"
        if observed == "na"
        else rng.choice(("yes", "yes", "no") if qid in _WANTED else ("no", "no", "yes"))
    )
    llm_value = observed if rng.random() < 0.75 else rng.choice(("yes", "no"))
    return records.BinaryJudgement(
        question_id=qid, llm_value=llm_value, observed=observed, preferred=preferred
    )


_WANTED = frozenset(
    {"B1", "B2", "B3", "B8", "B9", "B10", "B13", "B15", "B16", "B17", "B19", "B501", "B504", "B505"}
)


def _comparison(rng: random.Random, persona: DemoPersona, qid: str) -> records.PairwiseComparison:
    pair = list(
        rng.choice((("original", "alternate"), ("original", "human"), ("alternate", "human")))
    )
    rng.shuffle(pair)
    original_side = "A" if pair[0] == "original" else "B" if pair[1] == "original" else None
    winner: str | None
    if original_side is None:
        winner = "A" if (pair[0] == "human") == (rng.random() < 0.6) else "B"
    else:
        other_side = "B" if original_side == "A" else "A"
        winner = original_side if rng.random() < persona.quality else other_side
    if rng.random() < 0.03:
        winner = None  # a comparison left unanswered, as real data has
    return records.PairwiseComparison(
        question_id=qid, response_a=pair[0], response_b=pair[1], winner=winner
    )


def _panas(rng: random.Random, distress: float) -> records.Panas:
    items = {}
    for name in PANAS_POSITIVE:
        items[name] = min(7, max(1, round(rng.gauss(5.5 - 3 * distress, 1.2))))
    for name in PANAS_NEGATIVE:
        items[name] = min(7, max(1, round(rng.gauss(1.5 + 4 * distress, 1.2))))
    positive = sum(items[name] for name in PANAS_POSITIVE)
    negative = sum(items[name] for name in PANAS_NEGATIVE)
    return records.Panas(items=items, total_positive=positive, total_negative=negative)


# The demo's diagnosed conditions as the default questionnaire's option ids, by the group the
# paper reports them in (the draws of the main stream stay as they were).
_CONDITIONS = {
    "diagnosis:anxiety_depression": ("anxiety", "depression"),
    "diagnosis:asd_adhd": ("adhd", "autism"),
}
_OTHER_TEXT = {
    "country": "Norway",
    "first_language": "Norwegian",
    "gender": "Agender",
    "diagnoses": "OCD",
}


def _profile(
    rng: random.Random, seed: int, index: int, instrument: Instrument
) -> records.ParticipantProfile:
    group = rng.choice(_DIAGNOSES) if rng.random() < 0.25 else None
    age = rng.randint(18, 70)
    goals = tuple(rng.sample(("feel calmer", "get advice", "be heard", "understand myself"), 2))
    responses: dict = {"chat_experience": rng.choice(("never", "sometimes", "often"))}
    traits: tuple[str, ...] = (group,) if group else ()
    if instrument.profile is not None:  # answers of the questionnaire, from a stream of their own
        responses |= _questionnaire(
            instrument.profile, random.Random(f"{seed}-{index}"), age, group
        )
        traits = tuple(traits_of(instrument.profile, responses))
    return records.ParticipantProfile(
        participant_id=f"demo-participant-{seed}-{index:05d}",
        schema_version="1",
        age=age,
        traits=traits,
        goals=goals,
        responses=responses,
    )


def _questionnaire(profile: Profile, rng: random.Random, age: int, group: str | None) -> dict:
    answers: dict = {}
    for question in profile.questions:
        if question.kind == "number":
            answers[f"{question.id}_band"] = question.band_of(age)
        elif question.trait_prefix:
            if group is not None:
                answers[question.id] = sorted(rng.sample(_CONDITIONS[group], rng.randint(1, 2)))
            else:
                answers[question.id] = ["prefer_not_to_say" if rng.random() < 0.15 else "none"]
        else:
            option = rng.choice(question.options)
            answers[question.id] = option.id
            if option.other:
                answers[f"{question.id}_other"] = _OTHER_TEXT.get(question.id, "Something else")
    return answers


def _wide(
    instrument: Instrument, rng: random.Random, persona: DemoPersona
) -> records.ConversationWide:
    q3_options = instrument.q3_model_fit.option_ids
    fit_index = min(
        len(q3_options) - 1, max(0, round((1 - persona.quality) * 3 + rng.uniform(-1, 1)))
    )
    model_fit = q3_options[fit_index]
    follow_up = (
        tuple(rng.sample(_FOLLOW_UPS, 1)) if model_fit in instrument.q3_follow_up.shown_when else ()
    )
    branch = lambda: min(7, max(1, round(rng.gauss(2 + 4 * persona.quality, 1))))  # noqa: E731
    return records.ConversationWide(
        looking_for=tuple(rng.sample(instrument.q1_looking_for.option_ids[:-1], rng.randint(1, 2))),
        emotion_clarity=rng.choice(instrument.q2_emotion_clarity.option_ids),
        model_fit=model_fit,
        what_felt_off=follow_up,
        four_branch=records.FourBranchScores(branch(), branch(), branch(), branch()),
    )
