"""Per-turn question subsets that rotate, so every question of the instrument gets answers.

Each study walks a fixed cyclic order of the question ids (shuffled once per study so that a
turn's subset mixes categories instead of asking six perceiving questions in a row). A
study-wide cursor advances by k per annotation step: over any ceil(n / k) consecutive steps
every question is asked once, whatever the mix of participants.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import connection

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
    end = _advance(study, kind, k)
    if end is None:  # the study's first step of this kind
        QuestionRotation.objects.get_or_create(study=study, kind=kind)
        end = _advance(study, kind, k)
    assert end is not None
    return [order[(end - k + i) % len(order)] for i in range(k)]


def _advance(study: Study, kind: str, k: int) -> int | None:
    """Move the cursor by ``k`` and read where it ends in one statement (UPDATE ... RETURNING,
    PostgreSQL and SQLite 3.35+): every reply of the study queues on this row until its
    transaction commits, so the row is held for one round trip fewer than UPDATE then SELECT.
    None when the study has no cursor of this kind yet."""
    quote = connection.ops.quote_name
    table = quote(QuestionRotation._meta.db_table)
    # The columns of the fields cursor, study and kind (Django's default names).
    cursor, study_id, kind_column = quote("cursor"), quote("study_id"), quote("kind")
    with connection.cursor() as db:
        db.execute(
            f"UPDATE {table} SET {cursor} = {cursor} + %s "
            f"WHERE {study_id} = %s AND {kind_column} = %s RETURNING {cursor}",
            [k, study.pk, kind],
        )
        row = db.fetchone()
    return None if row is None else int(row[0])
