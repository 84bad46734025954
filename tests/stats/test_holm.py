"""Holm's correction against a hand-worked example."""

import pytest

from attunebench.stats.multiple import holm


def test_holm_worked_by_hand():
    # Sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04 -> kept at
    # the running maximum 0.06. In the input order: 0.03, 0.06, 0.06, 0.02.
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p < 0.05 for p in adjusted] == [True, False, False, True]


def test_adjusted_values_are_capped_at_one_and_undefined_ones_do_not_count():
    assert holm([0.5, None, 0.6]) == [pytest.approx(1.0), None, pytest.approx(1.0)]
    assert holm([0.02, float("nan")]) == [pytest.approx(0.02), None]  # m = 1
