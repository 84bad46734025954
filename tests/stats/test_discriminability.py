"""Discriminability: between-model over within-model variance, and the ANOVA F, by hand/scipy."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import f_oneway

from attunebench.stats import AXES, StatsConfig, compute_statistics


def test_variance_ratio_and_f_statistic():
    # Three models on four conversations; every axis gets the same numbers.
    scores = {"a": [0.1, 0.2, 0.3, 0.4], "b": [0.3, 0.4, 0.5, 0.6], "c": [0.2, 0.2, 0.2, 0.2]}
    frame = pd.DataFrame(
        [
            {"model": m, "mode": "default", "conversation_id": f"c{i}", **dict.fromkeys(AXES, v)}
            for m, values in scores.items()
            for i, v in enumerate(values)
        ]
    )
    stats = compute_statistics(frame, StatsConfig(n_resamples=100, n_permutations=10))
    row = stats.discriminability[0]
    # Model means 0.25, 0.45, 0.20: their variance (ddof 1) = 0.0175. Within: squared
    # deviations 0.05 + 0.05 + 0 over 12 - 3 = 9 degrees of freedom = 0.1/9.
    assert row.between_model_variance == pytest.approx(0.0175)
    assert row.within_model_variance == pytest.approx(0.1 / 9)
    assert row.variance_ratio == pytest.approx(0.0175 / (0.1 / 9))
    assert row.f_statistic == pytest.approx(f_oneway(*map(np.array, scores.values())).statistic)
    assert row.n_pairs == 3
