"""The score frame as arrays: one (conversations x (model, mode)) matrix per axis.

Every later step indexes these arrays; the conversation order (sorted ids) is the order of
the bootstrap count matrices, so one count matrix serves every axis, model and mode.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from attunebench.stats.contract import AXES, PARTICIPANT_COLUMN, is_baseline


@dataclass(frozen=True)
class ScoreMatrix:
    conversation_ids: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]  # (model, mode), sorted
    values: dict[str, np.ndarray]  # axis -> (n_conversations, n_columns); NaN = no score
    groups: dict[str, np.ndarray]  # grouping column -> object array per conversation (None = none)
    # Per conversation, the index of its participant (the subgroup bootstrap's cluster);
    # every conversation its own participant when the frame has no participant column.
    participants: np.ndarray | None = None

    def clusters(self) -> np.ndarray:
        if self.participants is None:
            return np.arange(len(self.conversation_ids))
        return self.participants

    def column(self, model: str, mode: str) -> int | None:
        try:
            return self.columns.index((model, mode))
        except ValueError:
            return None

    def models(self, mode: str, *, baselines: bool) -> tuple[str, ...]:
        """Models run in ``mode``, sorted; baselines only or non-baselines only."""
        return tuple(m for m, md in self.columns if md == mode and is_baseline(m) == baselines)

    def axis_columns(self, axis: str, mode: str, models: tuple[str, ...]) -> np.ndarray:
        """(n_conversations, len(models)) scores of the models in ``mode``."""
        indices = [self.columns.index((model, mode)) for model in models]
        return self.values[axis][:, indices]


def build_matrix(frame: pd.DataFrame, group_columns: tuple[str, ...] = ()) -> ScoreMatrix:
    conversation_ids = tuple(sorted(frame["conversation_id"].astype(str).unique()))
    columns = tuple(
        sorted({(str(m), str(md)) for m, md in zip(frame["model"], frame["mode"], strict=True)})
    )
    rows = np.searchsorted(np.array(conversation_ids), frame["conversation_id"].astype(str))
    column_of = {key: index for index, key in enumerate(columns)}
    cols = np.array(
        [column_of[(str(m), str(md))] for m, md in zip(frame["model"], frame["mode"], strict=True)]
    )
    values = {}
    for axis in AXES:
        matrix = np.full((len(conversation_ids), len(columns)), np.nan)
        matrix[rows, cols] = frame[axis].to_numpy(dtype=np.float64, na_value=np.nan)
        values[axis] = matrix
    groups = {}
    for name in group_columns:
        first = frame.drop_duplicates("conversation_id").set_index("conversation_id")[name]
        first.index = first.index.astype(str)
        ordered = first.reindex(list(conversation_ids))
        groups[name] = np.array(
            [None if pd.isna(value) else str(value) for value in ordered], dtype=object
        )
    participants = None
    if PARTICIPANT_COLUMN in frame.columns:
        unique = frame.drop_duplicates("conversation_id").set_index("conversation_id")
        who = unique[PARTICIPANT_COLUMN]
        who.index = who.index.astype(str)
        named = [
            conversation if pd.isna(person) else f"participant {person}"
            for conversation, person in zip(
                conversation_ids, who.reindex(list(conversation_ids)), strict=True
            )
        ]
        participants = np.unique(np.array(named, dtype=object), return_inverse=True)[1]
    return ScoreMatrix(conversation_ids, columns, values, groups, participants)
