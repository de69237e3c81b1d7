"""core.highs_rows: a small MIP written as rows solves to the optimum brute force finds."""

import itertools

import pytest

highspy = pytest.importorskip("highspy")

from puzzlelab.core.highs_rows import rows_model  # noqa: E402


def test_rows_model_solves_a_small_mip_to_the_brute_force_optimum():
    # minimise -3a - 2b - c + 0.5y, a, b integers in 0..2, c integer 0..1, y continuous 0..4
    # rows: a + b + c <= 3;  a - y <= 0.5;  2 <= b + 2c
    cost = [-3, -2, -1, 0.5]
    rows = [([0, 1, 2], [1, 1, 1], -highspy.kHighsInf, 3), ([0, 3], [1, -1], -highspy.kHighsInf, 0.5), ([1, 2], [1, 2], 2, highspy.kHighsInf)]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.passModel(rows_model(cost, [0, 0, 0, 0], [2, 2, 1, 4], rows, 3))
    h.run()
    assert str(h.getModelStatus()).endswith("kOptimal")
    best = min(
        -3 * a - 2 * b - c + 0.5 * max(0.0, a - 0.5)
        for a, b, c in itertools.product(range(3), range(3), range(2))
        if a + b + c <= 3 and b + 2 * c >= 2
    )
    assert h.getInfo().objective_function_value == pytest.approx(best)
    values = h.getSolution().col_value
    assert all(abs(v - round(v)) < 1e-6 for v in values[:3])
