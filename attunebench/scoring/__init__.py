"""Pure AttuneBench scoring: per turn, per conversation, per model and mode.

Implements section 4 of ``/work/shared/attunebench-format.md`` (formulas and "Edge rules")
with the section 5 decisions. Each function's docstring names the rule it implements.
Everything here is pure: typed records in, frozen score records out; no Django, no I/O.

Conventions:
- A metric that is undefined is ``None`` (never NaN) so JSON stays strict; means skip it.
- "Missing" EM answers are scored as the reference scores them (section 5): they are not
  excused, but the run's parse-failure counts travel with the scores so format failures are
  visible next to the EI numbers.

One module per concern; this package re-exports the public names, so callers import from
``attunebench.scoring``:
- ``options``: ``ScoringOptions`` (``compat``, ``asked_only``);
- ``emotion``: Emotion F1 and VA; ``behaviour``: applicability, ground truths, accuracy,
  confusion counts; ``pairwise``: pairwise accuracy and judged draft quality;
- ``panas``: the predicted post-PANAS and its scores; ``text_matching``: Q1-Q3 and the
  follow-up; ``four_branch``: the four-branch ratings;
- ``turn`` and ``conversation``: every metric of a turn, of a conversation, the composite;
- ``aggregation``: per model and mode; ``export``: ``scores.json``; ``frames``: the tidy
  per-turn and per-conversation frames;
- ``common``: the numeric helpers and the optimal one-to-one pairing they share.
"""

from attunebench.scoring.aggregation import (
    AggregateScores,
    MetricSummary,
    aggregate,
    summarise,
)
from attunebench.scoring.behaviour import (
    CONFUSION_KEYS,
    BehaviourTarget,
    ConfusionCounts,
    behaviour_accuracy,
    behaviour_pairs,
    human_ground_truth,
    is_applicable,
    om_ground_truth,
    predicted_answer,
)
from attunebench.scoring.conversation import (
    METRIC_NAMES,
    ConversationScores,
    composite,
    score_conversation,
)
from attunebench.scoring.emotion import (
    VA_COMPAT_DECIMALS,
    TagLike,
    emotion_f1,
    emotion_va,
    va_similarity,
)
from attunebench.scoring.export import (
    aggregate_scores_to_dict,
    conversation_scores_to_dict,
    scores_to_json,
    turn_scores_to_dict,
)
from attunebench.scoring.four_branch import FOUR_BRANCH_DEFAULT, four_branch_score
from attunebench.scoring.frames import per_conversation_frame, per_turn_frame
from attunebench.scoring.options import ScoringOptions
from attunebench.scoring.pairwise import draft_quality, pairwise_accuracy
from attunebench.scoring.panas import (
    DELTA_STRATEGIES,
    PANAS_MIDPOINT,
    PANAS_RANGE,
    PanasScores,
    panas_adjusted_score,
    resolve_predicted_post_panas,
    score_panas,
)
from attunebench.scoring.text_matching import (
    FUZZY_MATCH_THRESHOLD,
    exact_match,
    fuzzy_match_credit,
    fuzzy_set_f1,
    set_f1,
    token_jaccard,
)
from attunebench.scoring.turn import TurnScores, score_turn

__all__ = [
    "CONFUSION_KEYS",
    "DELTA_STRATEGIES",
    "FOUR_BRANCH_DEFAULT",
    "FUZZY_MATCH_THRESHOLD",
    "METRIC_NAMES",
    "PANAS_MIDPOINT",
    "PANAS_RANGE",
    "VA_COMPAT_DECIMALS",
    "AggregateScores",
    "BehaviourTarget",
    "ConfusionCounts",
    "ConversationScores",
    "MetricSummary",
    "PanasScores",
    "ScoringOptions",
    "TagLike",
    "TurnScores",
    "aggregate",
    "aggregate_scores_to_dict",
    "behaviour_accuracy",
    "behaviour_pairs",
    "composite",
    "conversation_scores_to_dict",
    "draft_quality",
    "emotion_f1",
    "emotion_va",
    "exact_match",
    "four_branch_score",
    "fuzzy_match_credit",
    "fuzzy_set_f1",
    "human_ground_truth",
    "is_applicable",
    "om_ground_truth",
    "pairwise_accuracy",
    "panas_adjusted_score",
    "per_conversation_frame",
    "per_turn_frame",
    "predicted_answer",
    "resolve_predicted_post_panas",
    "score_conversation",
    "score_panas",
    "score_turn",
    "scores_to_json",
    "set_f1",
    "summarise",
    "token_jaccard",
    "turn_scores_to_dict",
    "va_similarity",
]
