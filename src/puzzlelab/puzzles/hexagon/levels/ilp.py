"""Level questions by integer programming on HiGHS (highspy): the least level-k penalty,
proven optimal by branch and bound (seed write-up, "Algorithms": a minimum-penalty
level is close to a minimum-weight set cover).

Variables, for each free cell c (levels/question.py: holding more than b) and value v in
b+1..k+1 (k+1 = more than k): x[c,v] binary, one per cell. With g[c,j] = sum of x[c,v]
for v >= j (c holds at least j) and S[c,j] = the number of c's free neighbours holding j:

- cover: S[c,j] >= g[c,j+1] (a cell above j sees a j), j = b+1..k;
- charge: z[c,j] >= S[c,j] + x[c,j] - 1 - M (1 - g[c,j]), z >= 0, M = |N(c)| - 1: a
  cell at or above j pays for every j in its closed neighbourhood beyond the first;
- give back: w[e,j] <= x[u,j], w[e,j] <= x[v,j] for each free edge (an equal pair of j's
  is paid at both ends, so once is given back), and, valid and what keeps the LP bound
  at 0 or above (without it the LP goes negative, and branch and bound was several
  times slower in trials), the pairs given back at c are at most what c pays: sum of
  w[e,j] at c <= z[c,j].

Minimising sum z - sum w gives exactly the new level-k penalty (equal pairs once, second
supports once each). For one level from nothing it is the weighted set cover
min sum_c (deg c + 1) x_c - |cells| - sum_e w_e with every closed neighbourhood holding
a 1. Its LP bound is weak all the same (x = 1/7 everywhere covers the inside exactly:
the plane's perfect code), so the proof is branch and bound's.
"""

from __future__ import annotations

import time

import numpy as np

from puzzlelab.core.highs_rows import rows_model
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.levels.question import LevelAnswer, LevelQuestion, check_answer

__all__ = ["ilp_minimum", "ilp_rows"]


def ilp_rows(question: LevelQuestion):
    """(number of columns, integer columns, cost, column upper bounds, rows as
    (columns, coefficients, lower, upper), decode(values) -> grid) of the model."""
    g = question.geometry
    b, k = question.b, question.k
    free = question.free()
    is_free = set(free)
    near = {c: [x for x in g.neighbours_of(c) if x in is_free] for c in free}
    values = range(b + 1, k + 2)
    x = {}
    for c in free:
        for v in values:
            x[c, v] = len(x)
    columns = len(x)
    upper = [1.0] * columns
    for c in free:
        for v in values:
            if min(v - 1, k) - b > len(near[c]):  # not enough free neighbours to support v
                upper[x[c, v]] = 0.0
    cost: list[float] = [0.0] * columns
    rows = [([x[c, v] for v in values], [1.0] * len(values), 1.0, 1.0) for c in free]
    z: dict[int, int] = {}
    for j in range(b + 1, k + 1):
        for c in free:
            support = [x[d, j] for d in near[c]]
            above = [x[c, v] for v in values if v > j]
            rows.append((support + above, [1.0] * len(support) + [-1.0] * len(above), 0.0, np.inf))
            m = max(len(near[c]) - 1, 0)
            z[c] = len(cost)
            cost.append(1.0)
            upper.append(np.inf)
            at_or_above = [x[c, v] for v in values if v >= j]
            coefs = [-(m + 1.0) if col == x[c, j] else -float(m) for col in at_or_above]
            # z >= S + x[c,j] - 1 - m (1 - g[c,j]): c at or above j pays each j in N[c] beyond the first
            rows.append(([z[c]] + support + at_or_above, [1.0] + [-1.0] * len(support) + coefs, -1.0 - m, np.inf))
        pairs: dict[int, list[int]] = {c: [] for c in free}
        for c in free:
            for d in near[c]:
                if c < d:  # an equal pair, paid at both ends, is given back once: w <= x[c,j], x[d,j]
                    w = len(cost)
                    cost.append(-1.0)
                    upper.append(1.0)
                    rows.append(([w, x[c, j]], [1.0, -1.0], -np.inf, 0.0))
                    rows.append(([w, x[d, j]], [1.0, -1.0], -np.inf, 0.0))
                    pairs[c].append(w)
                    pairs[d].append(w)
        for c in free:  # valid: the pairs given back at c are among what c pays (keeps the LP >= 0)
            if pairs[c]:
                rows.append((pairs[c] + [z[c]], [1.0] * len(pairs[c]) + [-1.0], -np.inf, 0.0))

    def decode(solution) -> list[int]:
        grid = question.start() if b else [k + 1] * g.cells
        for c in free:
            grid[c] = max(values, key=lambda v: solution[x[c, v]])
        return grid

    return len(cost), columns, cost, upper, rows, decode


def ilp_minimum(question: LevelQuestion, budget: Budget | None = None, threads: int = 1) -> LevelAnswer:
    """The least level-k penalty by HiGHS (proven when HiGHS reports optimal; else the
    best grid found and HiGHS's dual bound, rounded up)."""
    import highspy

    budget = budget or Budget()
    t0 = time.perf_counter()
    n_cols, n_int, cost, upper, rows, decode = ilp_rows(question)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", int(threads))
    if budget.limited:
        h.setOptionValue("time_limit", max(0.01, budget.seconds_left()))
    lp = rows_model(cost, np.zeros(n_cols), upper, rows, n_int)
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    answer = LevelAnswer("ilp", stats={"columns": n_cols, "rows": len(rows), "status": str(status).split(".")[-1]})
    base = question.base_penalty()
    info = h.getInfo()
    if status == highspy.HighsModelStatus.kOptimal or info.primal_solution_status == 2:
        grid = decode(np.asarray(h.getSolution().col_value))
        answer.grid, answer.penalty = grid, check_answer(question, grid)
    if status == highspy.HighsModelStatus.kOptimal:
        answer.proven, answer.lower = True, answer.penalty
    else:
        bound = info.mip_dual_bound
        answer.lower = base + max(0, int(np.ceil(bound - 1e-6))) if np.isfinite(bound) else base
        answer.proven = answer.penalty is not None and answer.penalty <= answer.lower  # bounds met at the limit
    answer.seconds = time.perf_counter() - t0
    return answer
