"""Statistics of an evaluation run (issue 8, item 3): pure, no Django, reproducible.

Input: a score frame (``contract``; build it with ``build.score_frame``) and optionally judge
answers (``agreement``) and judge-vs-participant answers about the replies (``reply_agreement``). Output: ``Statistics`` (``results``), JSON-ready via ``to_dict``.

    stats = compute_statistics(score_frame(scores, conversations), StatsConfig(seed=1))
"""

from attunebench.stats.build import (
    TraitGroups,
    conversation_attributes,
    draft_judge_answers,
    participant_answers,
    score_frame,
    trait_groups_from_profile,
)
from attunebench.stats.compute import StatsConfig, compute_statistics
from attunebench.stats.contract import (
    AXES,
    AXIS_LABELS,
    PAPER_AXES,
    PLATFORM_AXES,
    RANKED_AXES,
    SubgroupSpec,
    validate_score_frame,
)
from attunebench.stats.reply_agreement import (
    judge_reply_answers,
    participant_reply_answers,
)
from attunebench.stats.results import (
    Agreement,
    AxisEstimate,
    Concordance,
    Discriminability,
    ModeDelta,
    PairTest,
    ParseFailureRate,
    RankCorrelation,
    ReplyAgreement,
    Statistics,
    SubgroupDifference,
)

__all__ = [
    "AXES",
    "AXIS_LABELS",
    "TraitGroups",
    "trait_groups_from_profile",
    "PAPER_AXES",
    "PLATFORM_AXES",
    "RANKED_AXES",
    "Agreement",
    "AxisEstimate",
    "Concordance",
    "Discriminability",
    "ModeDelta",
    "PairTest",
    "ParseFailureRate",
    "RankCorrelation",
    "ReplyAgreement",
    "Statistics",
    "SubgroupDifference",
    "StatsConfig",
    "SubgroupSpec",
    "compute_statistics",
    "conversation_attributes",
    "draft_judge_answers",
    "judge_reply_answers",
    "participant_answers",
    "participant_reply_answers",
    "score_frame",
    "validate_score_frame",
]
