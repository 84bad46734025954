"""Cohen's kappa and Krippendorff's alpha against values worked out by hand (pure module)."""

import pytest

from annotations.qa.agreement_stats import cohen_kappa, krippendorff_alpha_nominal


def test_kappa_by_hand():
    # 10 conversations: both approve 4, both exclude 3, approve/exclude 2, exclude/approve 1.
    # p_o = 7/10 = 0.7. Rater 1: approve 6, exclude 4; rater 2: approve 5, exclude 5.
    # p_e = (6*5 + 4*5) / 100 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
    pairs = [("A", "A")] * 4 + [("E", "E")] * 3 + [("A", "E")] * 2 + [("E", "A")]
    assert cohen_kappa(pairs) == pytest.approx(0.4)


def test_kappa_three_categories_by_hand():
    # (A,A) (A,S) (E,E) (S,S) (A,E): p_o = 3/5 = 0.6.
    # Rater 1: A 3, E 1, S 1; rater 2: A 1, S 2, E 2. p_e = (3*1 + 1*2 + 1*2) / 25 = 7/25 = 0.28.
    # kappa = (0.6 - 0.28) / 0.72 = 0.32 / 0.72 = 0.4444...
    pairs = [("A", "A"), ("A", "S"), ("E", "E"), ("S", "S"), ("A", "E")]
    assert cohen_kappa(pairs) == pytest.approx(0.32 / 0.72)


def test_kappa_perfect_and_undefined():
    assert cohen_kappa([("A", "A"), ("E", "E")]) == pytest.approx(1.0)
    # Everyone approves everything: chance agreement is 1, kappa is 0/0.
    assert cohen_kappa([("A", "A"), ("A", "A")]) is None
    assert cohen_kappa([]) is None


def test_kappa_below_chance_is_negative():
    # (A,E) (E,A): p_o = 0, p_e = (1*1 + 1*1)/4 = 0.5, kappa = -0.5/0.5 = -1.
    assert cohen_kappa([("A", "E"), ("E", "A")]) == pytest.approx(-1.0)


def test_alpha_two_coders_with_a_gap_by_hand():
    # Units: (c,c) (c,d) (d,d) (d,d) (c,-). The last has one value and cannot be paired.
    # Coincidences (each pair adds 1/(m-1) = 1 per ordered pair): o_cc = 2, o_cd = o_dc = 1,
    # o_dd = 4. Marginals n_c = 3, n_d = 5, n = 8.
    # alpha = 1 - (n-1) * sum_{c!=k} o / sum_{c!=k} n_c n_k = 1 - 7 * 2 / (2 * 3 * 5) = 16/30.
    units = [("c", "c"), ("c", "d"), ("d", "d"), ("d", "d"), ("c", None)]
    assert krippendorff_alpha_nominal(units) == pytest.approx(16 / 30)


def test_alpha_three_coders_by_hand():
    # Unit (c,c,d), m=3: ordered pairs c-c: 2*1 = 2, c-d: 2*1 = 2, d-c: 2, each weighted 1/2
    # -> o_cc = 1, o_cd = 1, o_dc = 1. Unit (d,d,d): d-d pairs 3*2 = 6, /2 -> o_dd = 3.
    # n_c = 2, n_d = 4, n = 6; alpha = 1 - 5 * 2 / (2 * 2 * 4) = 1 - 10/16 = 0.375.
    assert krippendorff_alpha_nominal([("c", "c", "d"), ("d", "d", "d")]) == pytest.approx(0.375)


def test_alpha_perfect_and_undefined():
    assert krippendorff_alpha_nominal([("c", "c"), ("d", "d")]) == pytest.approx(1.0)
    assert krippendorff_alpha_nominal([("c", "c"), ("c", "c")]) is None  # no variation
    assert krippendorff_alpha_nominal([("c", None)]) is None  # nothing pairable


def test_alpha_equals_kappa_like_value_on_symmetric_disagreement():
    # (c,d) (d,c): o_cd = o_dc = 2, n_c = n_d = 2, n = 4: alpha = 1 - 3 * 4 / (2*2*2) = -0.5.
    assert krippendorff_alpha_nominal([("c", "d"), ("d", "c")]) == pytest.approx(-0.5)


def test_the_module_is_pure():
    from pathlib import Path

    import annotations.qa.agreement_stats as module

    assert "django" not in Path(module.__file__).read_text()
