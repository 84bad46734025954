"""Reference baselines that need no model call (so the composite band has a floor to read).

Each baseline writes ordinary ``RunOutput`` records, so the very scorer that scores models
scores them too:

- ``baseline/random``: seeded random answers (0..2 random PANAS tags, random yes/no, random
  A/B, random post-PANAS items, random conversation-wide answers drawn from the answers seen
  in the given conversations, random four-branch ratings).
- ``baseline/majority``: the most common ground-truth answer per question, computed over the
  given conversations (tag set, yes/no per behaviour question, winner per pairwise question,
  post-PANAS value per item, Q1 set, Q2, Q3, follow-up set, rating per branch).
- ``baseline/no_change``: post-PANAS = pre-PANAS (the "naive" guess of the adjusted score,
  which therefore scores exactly 0.5); every other answer as ``majority``.
- ``baseline/always_a``: every pairwise answer is A; every other answer as ``majority``.

The majority statistics come from the very conversations being scored, so ``majority`` is an
optimistic (in-sample) baseline; that is deliberate: a model should beat even that.
Ties in a "most common" answer go to the smallest value ("no" before "yes", "A" before "B",
the empty tag set before any other), so results are deterministic. ``random`` is deterministic
for a seed: each conversation gets its own generator seeded with ``"<seed>:<conversationId>"``,
so a conversation's answers do not depend on which other conversations are in the batch.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from attunebench.records import BinaryJudgement, Conversation, MoodTag, Panas, Turn
from attunebench.run_output import (
    AnswerMap,
    PostConversationOutput,
    PredictedConversationWide,
    PredictedPanas,
    RunOutput,
    TurnOutput,
)
from attunebench.scoring import human_ground_truth, is_applicable, om_ground_truth
from attunebench.vocabulary import (
    FOUR_BRANCHES,
    INTENSITY_MAX,
    INTENSITY_MIN,
    PANAS_ITEMS,
    PANAS_NEGATIVE,
    PANAS_POSITIVE,
    WINNERS,
)
from attunebench.writer import conversation_filename

BASELINE_NAMES: tuple[str, ...] = ("random", "majority", "no_change", "always_a")
BASELINE_PROMPT_VERSION = "baseline-v1"
DEFAULT_INTENSITY = 4


def baseline_model_name(name: str) -> str:
    """``"random"`` -> ``"baseline/random"`` (the ``em_model`` of its run outputs)."""
    if name not in BASELINE_NAMES:
        raise ValueError(f"unknown baseline {name!r} (expected one of {', '.join(BASELINE_NAMES)})")
    return f"baseline/{name}"


def _most_common[T: Hashable](values: Iterable[T], default: T) -> T:
    """The most frequent value; ties go to the smallest (by ``_sort_key``) for determinism."""
    counts = Counter(values)
    if not counts:
        return default
    best = max(counts.values())
    return min((value for value, count in counts.items() if count == best), key=_sort_key)


def _sort_key(value: Hashable) -> tuple[Hashable, ...]:
    return tuple(value) if isinstance(value, tuple) else (value,)


@dataclass(frozen=True)
class GroundTruthStats:
    """What the majority baselines answer, and the answer pools the random baseline draws from."""

    tag_set: tuple[str, ...] = ()
    tag_intensity: int = DEFAULT_INTENSITY
    om_answers: dict[str, str] = field(default_factory=dict)  # questionId -> yes/no
    human_answers: dict[str, str] = field(default_factory=dict)
    pairwise_winners: dict[str, str] = field(default_factory=dict)  # pairwise questionId -> A/B
    default_winner: str = "A"
    post_items: dict[str, int] = field(default_factory=dict)
    looking_for: tuple[str, ...] = ()
    emotion_clarity: str | None = None
    model_fit: str | None = None
    what_felt_off: tuple[str, ...] = ()
    four_branch: dict[str, int] = field(default_factory=dict)
    looking_for_options: tuple[str, ...] = ()
    emotion_clarity_options: tuple[str, ...] = ()
    model_fit_options: tuple[str, ...] = ()
    what_felt_off_options: tuple[str, ...] = ()


def ground_truth_stats(conversations: Sequence[Conversation]) -> GroundTruthStats:
    """Most common answers (and answer pools) over the given conversations' ground truth."""
    turns = [turn for conversation in conversations for turn in conversation.turns]
    judgements = [
        j for turn in turns for j in turn.annotations.binary_judgements if is_applicable(j)
    ]
    # (question id, winner) of every comparison the participant decided
    winners = [
        (c.question_id, c.winner)
        for turn in turns
        for c in turn.annotations.pairwise_comparisons
        if c.winner is not None and c.winner in WINNERS
    ]
    post = [c.post_panas for c in conversations if c.post_panas is not None]
    wide = [c.conversation_wide for c in conversations if c.conversation_wide is not None]
    tag_set = _most_common(
        (tuple(sorted({tag.emotion for tag in turn.mood_tags})) for turn in turns), ()
    )
    return GroundTruthStats(
        tag_set=tag_set,
        tag_intensity=_most_common(
            (
                tag.intensity
                for turn in turns
                for tag in turn.mood_tags
                if tag.intensity is not None
            ),
            DEFAULT_INTENSITY,
        ),
        om_answers=_majority_by_question(judgements, om_ground_truth),
        human_answers=_majority_by_question(judgements, human_ground_truth),
        pairwise_winners={
            question_id: _most_common((w for q, w in winners if q == question_id), "A")
            for question_id in sorted({q for q, _ in winners})
        },
        default_winner=_most_common((w for _, w in winners), "A"),
        post_items={
            name: _most_common((p.items[name] for p in post if name in p.items), DEFAULT_INTENSITY)
            for name in PANAS_ITEMS
        },
        looking_for=_most_common((tuple(sorted(w.looking_for)) for w in wide), ()),
        emotion_clarity=_most_common((w.emotion_clarity for w in wide if w.emotion_clarity), None),
        model_fit=_most_common((w.model_fit for w in wide if w.model_fit), None),
        what_felt_off=_most_common((tuple(sorted(w.what_felt_off)) for w in wide), ()),
        four_branch={
            name: _most_common(
                (
                    value
                    for w in wide
                    if w.four_branch and (value := w.four_branch.as_dict()[name]) is not None
                ),
                DEFAULT_INTENSITY,
            )
            for name in FOUR_BRANCHES
        },
        looking_for_options=tuple(sorted({item for w in wide for item in w.looking_for})),
        emotion_clarity_options=tuple(
            sorted({w.emotion_clarity for w in wide if w.emotion_clarity})
        ),
        model_fit_options=tuple(sorted({w.model_fit for w in wide if w.model_fit})),
        what_felt_off_options=tuple(sorted({item for w in wide for item in w.what_felt_off})),
    )


def _majority_by_question(
    judgements: Sequence[BinaryJudgement], ground_truth: Callable[[BinaryJudgement], str | None]
) -> dict[str, str]:
    answers: dict[str, list[str]] = {}
    for judgement in judgements:
        truth = ground_truth(judgement)
        if truth in ("yes", "no"):
            answers.setdefault(judgement.question_id, []).append(truth)
    return {
        question_id: _most_common(values, "no") for question_id, values in sorted(answers.items())
    }


# --- building run outputs ---------------------------------------------------------------------


def _run(
    conversation: Conversation,
    name: str,
    mode: str,
    turns: list[TurnOutput],
    post: PostConversationOutput | None,
) -> RunOutput:
    return RunOutput(
        conversation_id=conversation.conversation_id,
        source_file=conversation_filename(conversation.conversation_id),
        em_model=baseline_model_name(name),
        run_timestamp=None,  # deterministic output: no wall-clock time
        mode=mode,
        api_cost=0.0,
        duration_seconds=0.0,
        turns=tuple(turns),
        post_conversation=post,
        prompt_version=BASELINE_PROMPT_VERSION,
        parse_failures={},
    )


def _applicable_ids(turn: Turn) -> list[str]:
    return [j.question_id for j in turn.annotations.binary_judgements if is_applicable(j)]


def _assignment(turn: Turn) -> dict[str, dict[str, str]]:
    return {
        str(index): {"A": c.response_a, "B": c.response_b}
        for index, c in enumerate(turn.annotations.pairwise_comparisons)
    }


def _panas_prediction(items: dict[str, int]) -> PredictedPanas:
    return PredictedPanas(
        total_positive=sum(items[name] for name in PANAS_POSITIVE if name in items),
        total_negative=sum(items[name] for name in PANAS_NEGATIVE if name in items),
        items={name: items[name] for name in PANAS_ITEMS if name in items},
    )


def _majority_turn(turn: Turn, stats: GroundTruthStats, *, always_a: bool = False) -> TurnOutput:
    question_ids = _applicable_ids(turn)
    om: AnswerMap = {qid: stats.om_answers.get(qid, "no") for qid in question_ids}
    human: AnswerMap = {qid: stats.human_answers.get(qid, "no") for qid in question_ids}
    selections: dict[str, str | None] = {
        str(index): "A"
        if always_a
        else stats.pairwise_winners.get(c.question_id, stats.default_winner)
        for index, c in enumerate(turn.annotations.pairwise_comparisons)
    }
    return TurnOutput(
        turn_number=turn.turn_number,
        em_emotion_tags=tuple(MoodTag(emotion, stats.tag_intensity) for emotion in stats.tag_set),
        pairwise_assignment=_assignment(turn),
        em_binary_om_assessment=om,
        em_binary_human_prediction=human,
        # The wording does not change the ground truth, so the HP-worded answers are the same.
        em_binary_om_assessment_hp=dict(om),
        em_binary_human_prediction_hp=dict(human),
        em_pairwise_selections=selections,
    )


def _majority_wide(stats: GroundTruthStats) -> PredictedConversationWide:
    return PredictedConversationWide(
        q1_looking_for=stats.looking_for,
        q2_emotion_clarity=stats.emotion_clarity,
        q3_model_fit=stats.model_fit,
        q3_follow_up_what_felt_off=stats.what_felt_off,
        four_branch_scores={
            name: stats.four_branch.get(name, DEFAULT_INTENSITY) for name in FOUR_BRANCHES
        },
    )


def majority_baseline(
    conversation: Conversation, stats: GroundTruthStats, *, mode: str = "default"
) -> RunOutput:
    post = PostConversationOutput(
        panas_strategy="absolute",
        pre_panas_shown=False,
        predicted_post_panas=_panas_prediction(stats.post_items),
        predicted_conversation_wide=_majority_wide(stats),
    )
    turns = [_majority_turn(turn, stats) for turn in conversation.turns]
    return _run(conversation, "majority", mode, turns, post)


def no_change_baseline(
    conversation: Conversation, stats: GroundTruthStats, *, mode: str = "default"
) -> RunOutput:
    pre: Panas | None = conversation.pre_panas
    post = PostConversationOutput(
        panas_strategy="absolute",
        pre_panas_shown=pre is not None,
        predicted_post_panas=None
        if pre is None
        else PredictedPanas(
            total_positive=pre.total_positive,
            total_negative=pre.total_negative,
            items=dict(pre.items),
        ),
        predicted_conversation_wide=_majority_wide(stats),
    )
    turns = [_majority_turn(turn, stats) for turn in conversation.turns]
    return _run(conversation, "no_change", mode, turns, post)


def always_a_baseline(
    conversation: Conversation, stats: GroundTruthStats, *, mode: str = "default"
) -> RunOutput:
    majority = majority_baseline(conversation, stats, mode=mode)
    turns = [_majority_turn(turn, stats, always_a=True) for turn in conversation.turns]
    return _run(conversation, "always_a", mode, turns, majority.post_conversation)


def random_baseline(
    conversation: Conversation, stats: GroundTruthStats, *, seed: int = 0, mode: str = "default"
) -> RunOutput:
    rng = random.Random(f"{seed}:{conversation.conversation_id}")
    turns = [_random_turn(turn, rng) for turn in conversation.turns]
    items = {name: rng.randint(INTENSITY_MIN, INTENSITY_MAX) for name in PANAS_ITEMS}
    wide = PredictedConversationWide(
        q1_looking_for=tuple(option for option in stats.looking_for_options if rng.random() < 0.5),
        q2_emotion_clarity=rng.choice(stats.emotion_clarity_options)
        if stats.emotion_clarity_options
        else None,
        q3_model_fit=rng.choice(stats.model_fit_options) if stats.model_fit_options else None,
        q3_follow_up_what_felt_off=tuple(
            rng.sample(
                stats.what_felt_off_options,
                min(rng.randint(0, 1), len(stats.what_felt_off_options)),
            )
        ),
        four_branch_scores={
            name: rng.randint(INTENSITY_MIN, INTENSITY_MAX) for name in FOUR_BRANCHES
        },
    )
    post = PostConversationOutput(
        panas_strategy="absolute",
        pre_panas_shown=False,
        predicted_post_panas=_panas_prediction(items),
        predicted_conversation_wide=wide,
    )
    return _run(conversation, "random", mode, turns, post)


def _random_turn(turn: Turn, rng: random.Random) -> TurnOutput:
    emotions = rng.sample(PANAS_ITEMS, rng.randint(0, 2))
    tags = tuple(
        MoodTag(emotion, rng.randint(INTENSITY_MIN, INTENSITY_MAX)) for emotion in emotions
    )
    question_ids = _applicable_ids(turn)

    def answers() -> dict[str, str | None]:
        return {qid: rng.choice(("yes", "no")) for qid in question_ids}

    om, human, om_hp, human_hp = answers(), answers(), answers(), answers()
    selections: dict[str, str | None] = {
        str(index): rng.choice(WINNERS)
        for index in range(len(turn.annotations.pairwise_comparisons))
    }
    return TurnOutput(
        turn_number=turn.turn_number,
        em_emotion_tags=tags,
        pairwise_assignment=_assignment(turn),
        em_binary_om_assessment=om,
        em_binary_human_prediction=human,
        em_binary_om_assessment_hp=om_hp,
        em_binary_human_prediction_hp=human_hp,
        em_pairwise_selections=selections,
    )


def baseline_runs(
    conversations: Sequence[Conversation], name: str, *, seed: int = 0, mode: str = "default"
) -> list[RunOutput]:
    """One run output per conversation for the named baseline (stats over ``conversations``)."""
    baseline_model_name(name)  # validates the name
    stats = ground_truth_stats(conversations)
    if name == "random":
        return [random_baseline(c, stats, seed=seed, mode=mode) for c in conversations]
    build = {
        "majority": majority_baseline,
        "no_change": no_change_baseline,
        "always_a": always_a_baseline,
    }[name]
    return [build(c, stats, mode=mode) for c in conversations]


def all_baseline_runs(
    conversations: Sequence[Conversation], *, seed: int = 0, mode: str = "default"
) -> list[RunOutput]:
    """Every baseline's run outputs, in ``BASELINE_NAMES`` order."""
    return [
        run
        for name in BASELINE_NAMES
        for run in baseline_runs(conversations, name, seed=seed, mode=mode)
    ]
