"""A HiGHS model from rows (columns, coefficients, lower, upper), the form in which the
hexagon level ILP and the MacMahon MIP write their constraints: one place that turns
them into HiGHS's row-wise sparse matrix (highspy's `HighsLp`), so the two models share
the bookkeeping and keep only what is theirs."""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["rows_model"]

Row = tuple[Sequence[int], Sequence[float], float, float]


def rows_model(cost, lower, upper, rows: Sequence[Row], integer_columns: int):
    """A `highspy.HighsLp` minimising cost . x subject to lower <= x <= upper and, for
    each row, row_lower <= sum(coefficient * x[column]) <= row_upper; the first
    `integer_columns` columns are integers, the rest continuous."""
    import highspy

    n = len(cost)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(rows)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.asarray(lower, dtype=float)
    lp.col_upper_ = np.asarray(upper, dtype=float)
    lp.row_lower_ = np.array([row[2] for row in rows], dtype=float)
    lp.row_upper_ = np.array([row[3] for row in rows], dtype=float)
    starts, index, value = [0], [], []
    for columns, coefficients, _, _ in rows:
        index += list(columns)
        value += list(coefficients)
        starts.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, len(rows)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * integer_columns + [highspy.HighsVarType.kContinuous] * (n - integer_columns)
    return lp
