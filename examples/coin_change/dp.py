"""`dp`: the exact dynamic programme, and the oracle the other methods are tested against.

best[t] = 1 + min(best[t - c] for each coin c <= t), best[0] = 0: the textbook
recurrence for the change-making problem (J. W. Wright, "The change-making problem",
J. ACM 22(1), 1975). One pass over every amount up to the target: O(target x coins)
time, one entry per amount of memory, which is why `model.MAX_TARGET` bounds the target.

What every run function shows: the signature `run_x(instance, *, budget, progress,
seed, **options) -> Result`; the budget is polled in the loop (here every 4096
amounts), and running out of it is an answer (`unknown`, with a proven bound), never an
exception; progress goes through `throttle`, so reporting from a loop costs nothing.
"""

from __future__ import annotations

import time

from puzzlelab.core.result import Budget, Progress, ProgressFn, Result, Status, throttle

__all__ = ["run_dp", "min_coins_table"]

CHECK_EVERY = 4096  # amounts between budget polls


def min_coins_table(coins: tuple[int, ...], target: int, budget: Budget, progress: ProgressFn) -> tuple[list, list] | None:
    """best[t] (None where t cannot be paid) and the coin of one optimal way to pay t,
    for every t <= target; None if the budget ran out first."""
    best: list[int | None] = [0] + [None] * target
    last = [0] * (target + 1)
    report = throttle(progress)
    for t in range(1, target + 1):
        if t % CHECK_EVERY == 0:
            if budget.expired():
                return None
            report(Progress(phase="table", message=f"amount {t} of {target}", done=t, total=target))
        for c in coins:
            if c > t:
                break  # coins are sorted
            before = best[t - c]
            if before is not None and (best[t] is None or before + 1 < best[t]):
                best[t], last[t] = before + 1, c
    return best, last


def run_dp(instance, *, budget: Budget, progress: ProgressFn, seed: int) -> Result:
    """Exact: the fewest coins, or a proof that the target cannot be paid."""
    coins, target = instance
    started = time.perf_counter()
    table = min_coins_table(tuple(sorted(coins)), target, budget, progress)
    stats = {"amounts": target + 1, "seconds": round(time.perf_counter() - started, 6)}
    if table is None:
        # Out of time: no answer, but a bound holds anyway (each coin pays at most the largest).
        return Result(None, None, Status.UNKNOWN, "dp", bound=-(-target // max(coins)), stats={**stats, "note": "budget ended"})
    best, last = table
    if best[target] is None:
        return Result(None, None, Status.INFEASIBLE, "dp", stats=stats)
    paid, t = [], target
    while t:
        paid.append(last[t])
        t -= last[t]
    return Result(len(paid), sorted(paid, reverse=True), Status.OPTIMAL, "dp", bound=len(paid), stats=stats)
