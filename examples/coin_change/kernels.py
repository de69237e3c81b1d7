"""The numba kernel behind `search`: depth-first branch and bound over coin counts.

The style every kernel of the package follows (docs/architecture.md, "Style"): `njit(cache=True)`
so a compiled kernel is kept on disk, numpy arrays only, an explicit stack instead of
recursion, and the Budget's `control` array polled every 65,536 nodes with
`should_stop`, which reads the deadline and the cancel flag without coming back to
Python. `nogil=True` lets the thread that cancels (Ctrl-C, the service) run meanwhile.
The kernel publishes its node count in `control[NODES]` for a progress reporter.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.result import NODES, should_stop

__all__ = ["fewest_coins_search"]

POLL_MASK = 0xFFFF  # poll the budget when nodes & POLL_MASK == 0


@numba.njit(cache=True, nogil=True)
def fewest_coins_search(coins, target, upper, control):
    """Fewest coins paying `target`, looking only for answers below `upper`.

    `coins` is sorted largest first (int64). Level i of the stack chooses how many of
    coins[i] to pay, from as many as fit down to none. A branch is cut when the coins
    used plus ceil(rest / next coin) cannot beat the best so far; that bound only grows
    as fewer of coins[i] are taken (each coin given up leaves at least one more coin to
    pay), so the first cut ends the whole level.

    Returns (best, counts, nodes, complete): best == upper and counts all zero when
    nothing below `upper` exists; complete is False when the budget stopped the search.
    """
    k = coins.shape[0]
    counts = np.zeros(k, np.int64)
    best_counts = np.zeros(k, np.int64)
    rest = np.zeros(k + 1, np.int64)  # rest[i]: amount left to pay before level i
    used = np.zeros(k + 1, np.int64)  # used[i]: coins paid before level i
    best = upper
    rest[0] = target
    counts[0] = target // coins[0]
    level = 0
    nodes = 0
    while level >= 0:
        nodes += 1
        if nodes & POLL_MASK == 0:
            control[NODES] = nodes
            if should_stop(control):
                return best, best_counts, nodes, False
        if counts[level] < 0:  # every count of this coin tried: back up one level
            level -= 1
            if level >= 0:
                counts[level] -= 1
            continue
        left = rest[level] - counts[level] * coins[level]
        paid = used[level] + counts[level]
        if left == 0:
            if paid < best:
                best = paid
                best_counts[:] = 0
                best_counts[: level + 1] = counts[: level + 1]
            counts[level] = -1  # fewer of this coin only costs more coins
            continue
        if level + 1 == k or paid + (left + coins[level + 1] - 1) // coins[level + 1] >= best:
            counts[level] = -1  # the bound cut: no smaller count of this coin can do better
            continue
        rest[level + 1] = left
        used[level + 1] = paid
        level += 1
        counts[level] = left // coins[level]
    control[NODES] = nodes
    return best, best_counts, nodes, True
