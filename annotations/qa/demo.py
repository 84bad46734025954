"""Plausible annotation timings for demo conversations (``seed_demo`` records carry none).

With them the QA pages have something to show on demo data: per-turn and per-annotation
medians on the monitoring page, and a few implausibly fast annotations to flag. Demo data
only: refuses a study that is not synthetic.
"""

from __future__ import annotations

import random
from datetime import timedelta

from annotations.models import Study, Turn, TurnAnnotation

FAST_SHARE = 0.03  # about one annotation in thirty is hurried


def time_demo_annotations(study: Study, seed: int) -> int:
    """Give every untimed annotation of the demo study a start and a submission time."""
    if not study.is_synthetic:
        raise ValueError("demo timings are for synthetic studies only")
    rows = (
        TurnAnnotation.objects.filter(turn__conversation__study=study, submitted_at__isnull=True)
        .order_by("turn__conversation_id", "turn__number")
        .values_list(
            "pk",
            "turn_id",
            "turn__number",
            "turn__conversation__external_id",
            "turn__conversation__started_at",
        )
    )
    turns, annotations = [], []
    for pk, turn_id, number, external_id, conversation_started in rows:
        if conversation_started is None:  # never for a seeded conversation: it has begun
            continue
        rng = random.Random(f"{seed}:{external_id}:{number}")
        begun = conversation_started + timedelta(minutes=4 * number)
        opened = begun + timedelta(seconds=rng.uniform(8, 40))  # reading the reply first
        hurried = rng.random() < FAST_SHARE
        spent = rng.uniform(2, 6) if hurried else rng.lognormvariate(3.8, 0.4)
        turns.append(Turn(pk=turn_id, started_at=begun))
        annotations.append(
            TurnAnnotation(pk=pk, started_at=opened, submitted_at=opened + timedelta(seconds=spent))
        )
    Turn.objects.bulk_update(turns, ["started_at"], batch_size=200)
    TurnAnnotation.objects.bulk_update(annotations, ["started_at", "submitted_at"], batch_size=200)
    return len(annotations)
