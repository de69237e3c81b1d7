"""The `backtrack` method: a straightforward backtracking solver for the smaller sizes
(seed write-up, "Other Programs"). Depth first over the cells in row order, values 7
down to 1, with the row DP's incremental penalty and dead-cell test (rowdp_kernels:
a cell that lacks more supports than it has neighbours to come is dead), branch and
bound on the best penalty so far, the bound raised one by one from 1 (iterative
deepening: the first bound under which a grid exists gives an optimal grid, every
lower bound having been exhausted)."""

from __future__ import annotations

import time

import numba
import numpy as np

from puzzlelab.core.result import NODES, Budget, Result, Status, should_stop
from puzzlelab.puzzles.hexagon.beam.search import beam_plan
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.results import grid_figures
from puzzlelab.puzzles.hexagon.rowdp.dp import codes
from puzzlelab.puzzles.hexagon.rowdp.kernels import _transition
from puzzlelab.puzzles.hexagon.scoring import upper_bound
from puzzlelab.puzzles.hexagon.verify import rule_violation

__all__ = ["backtrack", "run_backtrack"]

LEVEL = 6  # values 1..6 and 7 = "more than 6": whole grids


@numba.njit(cache=True)
def backtrack_kernel(own_slot, own_rem, prev_slot, prev_rem, allowed, code_v, code_m, code_of, bits, spw, words, cutoff, control):
    """(best penalty, its values per step, finished): every grid with penalty below
    `cutoff` is considered; finished = the tree was exhausted."""
    steps = own_slot.shape[0]
    k = 6
    keys = np.zeros((steps + 1, words), dtype=np.uint64)
    pens = np.zeros(steps + 1, dtype=np.int64)
    value = np.full(steps, k + 2, dtype=np.int64)
    best_values = np.zeros(steps, dtype=np.int64)
    best = cutoff
    out = np.zeros(words, dtype=np.uint64)
    depth = 0
    nodes = 0
    while depth >= 0:
        value[depth] -= 1
        if value[depth] < 1:
            value[depth] = k + 2
            depth -= 1
            continue
        v = value[depth]
        if not (allowed[depth] >> (v - 1)) & 1:
            continue
        nodes += 1
        if (nodes & 0xFFFF) == 0:
            control[NODES] = nodes
            if should_stop(control):
                return best, best_values, False
        pen = _transition(keys[depth], pens[depth], v, depth, own_slot, own_rem, prev_slot, prev_rem, code_v, code_m, code_of, k, bits, spw, out)
        if pen < 0 or pen >= best:
            continue
        if depth == steps - 1:
            best = pen
            for t in range(steps):
                best_values[t] = value[t]
            continue
        keys[depth + 1] = out
        pens[depth + 1] = pen
        depth += 1
    control[NODES] = nodes
    return best, best_values, True


def backtrack(n: int, budget: Budget | None = None, cutoff: int | None = None) -> tuple[list[int] | None, bool]:
    """(best grid found, proven optimal): the bound on the penalty raised from 1 until
    a grid fits; cutoff: no grid of cutoff penalty edges or more (None when none is
    below it, proven when finished)."""
    budget = budget or Budget()
    geometry = hexagon(n)
    plan = beam_plan(geometry, list(range(geometry.cells)), LEVEL)
    code_v, code_m, code_of, bits = codes(LEVEL)
    spw = 64 // bits
    words = -(-plan.slots // spw)
    limit = edge_count(n) + 1 if cutoff is None else cutoff
    for bound in range(1, limit + 1):
        best, values, finished = backtrack_kernel(
            plan.own_slot, plan.own_rem, plan.prev_slot, plan.prev_rem, plan.allowed, code_v, code_m, code_of, bits, spw, words, bound, budget.control
        )
        if best < bound or not finished:
            break
    if best >= bound:
        return None, finished
    grid = [int(v) for v in values]  # row order = cell order
    if rule_violation(n, grid) is not None:
        raise AssertionError(f"backtrack produced an invalid grid: {rule_violation(n, grid)}")
    return grid, finished


def run_backtrack(instance: HexInstance, *, budget: Budget, progress, seed: int = 0) -> Result:
    """Method entry: the whole tree within the budget; optimal when it was exhausted."""
    n = instance.n
    t0 = time.perf_counter()
    grid, finished = backtrack(n, budget)
    seconds = round(time.perf_counter() - t0, 3)
    if grid is None:
        status = Status.INFEASIBLE if finished else Status.UNKNOWN
        return Result(None, None, status, "backtrack", bound=upper_bound(n), stats={"seconds": seconds})
    raw, figures = grid_figures(n, grid)
    status = Status.OPTIMAL if finished else Status.FEASIBLE
    return Result(raw, format_grid(n, grid), status, "backtrack", bound=raw if finished else upper_bound(n), stats={"seconds": seconds, **figures})
