"""`search`: exact branch and bound (a numba kernel), started from the greedy answer.

Shows the other shape of method: the search itself is a compiled kernel
(`kernels.fewest_coins_search`); this module is the plain-Python orchestration around it
(docs/architecture.md, "Style": "Orchestration stays plain Python"): prepare numpy inputs, give
the kernel the Budget's `control` array, and turn what comes back into a `Result`.

When the budget ends first, the best answer found so far comes back as `feasible` with
the simple lower bound ceil(target / largest coin): a solver out of time returns what
it has, never a traceback (docs/architecture.md, "Contracts").
"""

from __future__ import annotations

import time

import numpy as np

from coin_change.greedy import greedy_coins
from coin_change.kernels import fewest_coins_search
from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status

__all__ = ["run_search"]


def run_search(instance, *, budget: Budget, progress: ProgressFn, seed: int, from_greedy: bool = True) -> Result:
    """Exact: the fewest coins (optimal), none (infeasible), or the best found (feasible)."""
    coins, target = instance
    started = time.perf_counter()
    greedy = greedy_coins(coins, target) if from_greedy else None
    # Look for answers below greedy's plus one, so that greedy's own answer is found again
    # with its counts when it is optimal; with no start, below the most coins any answer uses.
    upper = len(greedy) + 1 if greedy is not None else target // min(coins) + 1
    progress(Progress(phase="search", message=f"branch and bound below {upper} coins"))
    order = np.array(sorted(coins, reverse=True), dtype=np.int64)
    best, counts, nodes, complete = fewest_coins_search(order, np.int64(target), np.int64(upper), budget.control)
    paid = [int(c) for c, n in zip(order, counts) for _ in range(int(n))]
    found = int(best) < upper
    stats = {"nodes": int(nodes), "complete": bool(complete), "seconds": round(time.perf_counter() - started, 6)}
    lower = -(-target // max(coins))
    if complete:
        if not found:
            return Result(None, None, Status.INFEASIBLE, "search", stats=stats)
        return Result(len(paid), paid, Status.OPTIMAL, "search", bound=len(paid), stats=stats)
    if not found and greedy is not None:
        paid = sorted(greedy, reverse=True)
    if not paid and target:
        return Result(None, None, Status.UNKNOWN, "search", bound=lower, stats=stats)
    return Result(len(paid), paid, Status.FEASIBLE, "search", bound=lower, stats=stats)
