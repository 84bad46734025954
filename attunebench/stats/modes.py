"""Mode deltas: a model's score in one mode minus another (verbose - default, omniscient -
default), paired over the conversations the model was scored on in both modes."""

from __future__ import annotations

import numpy as np

from attunebench.stats.contract import AXES
from attunebench.stats.matrix import ScoreMatrix
from attunebench.stats.resampling import (
    bca_interval,
    centred_p_value,
    masked,
    ratio_replicates,
)
from attunebench.stats.results import ModeDelta, number


def mode_deltas(
    matrix: ScoreMatrix,
    counts: np.ndarray,
    models: tuple[str, ...],
    comparisons: tuple[tuple[str, str], ...],
    *,
    confidence: float,
) -> tuple[ModeDelta, ...]:
    """Only on shared conversations, so a mode is never credited with easier conversations.

    The p-values are per model and axis and not corrected: the deltas describe how the prompt
    mode moves each model, they are not a family of claims like the leaderboard pairs.
    """
    cells: list[tuple[str, str, str, str, int, int]] = []
    for mode, base in comparisons:
        for model in models:
            column, base_column = matrix.column(model, mode), matrix.column(model, base)
            if column is not None and base_column is not None:
                cells.extend((model, axis, mode, base, column, base_column) for axis in AXES)
    if not cells:
        return ()
    differences = np.column_stack(
        [matrix.values[axis][:, c] - matrix.values[axis][:, b] for _, axis, _, _, c, b in cells]
    )
    replicates = ratio_replicates(counts, *masked(differences))
    low, high = bca_interval(replicates, confidence)
    p_values = centred_p_value(replicates)
    shared = np.isfinite(differences).sum(axis=0)
    return tuple(
        ModeDelta(
            model=model,
            axis=axis,
            mode=mode,
            base_mode=base,
            n_shared=int(shared[j]),
            difference=number(replicates.estimate[j]),
            ci_low=number(low[j]),
            ci_high=number(high[j]),
            p_value=number(p_values[j]),
        )
        for j, (model, axis, mode, base, _, _) in enumerate(cells)
    )
