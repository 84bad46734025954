"""Per-turn question subsets that rotate, so every question of the instrument gets answers.

Each study walks a fixed cyclic order of the question ids (shuffled once per study so that a
turn's subset mixes categories instead of asking six perceiving questions in a row). A
study-wide cursor advances by k per annotation step: over any ceil(n / k) consecutive steps
every question is asked once, whatever the mix of participants.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db.models import F

from annotations.models import QuestionRotation, Study


def cyclic_order(study_id: int, kind: str, ids: Sequence[str]) -> list[str]:
    order = list(ids)
    # A string seed is hashed deterministically (not with PYTHONHASHSEED): every process agrees.
    random.Random(f"attune:{study_id}:{kind}").shuffle(order)
    return order


def take_next(study: Study, kind: str, ids: Sequence[str], k: int) -> list[str]:
    """The next ``k`` ids of the study's rotation for ``kind``. Call inside a transaction: the
    cursor row stays locked by the UPDATE until commit, so concurrent steps get distinct slices.
    """
    k = min(k, len(ids))
    if k <= 0:
        return []
    order = cyclic_order(study.pk, kind, ids)
    rotation = QuestionRotation.objects.filter(study=study, kind=kind)
    if not rotation.update(cursor=F("cursor") + k):  # the study's first step of this kind
        QuestionRotation.objects.get_or_create(study=study, kind=kind)
        rotation.update(cursor=F("cursor") + k)
    end = rotation.values_list("cursor", flat=True).get()
    return [order[(end - k + i) % len(order)] for i in range(k)]
