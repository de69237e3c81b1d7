"""The methods of coin change: the one place a puzzle declares them.

Each `Method` gives a name, a one-line summary (the CLI's `solve --help`, the service's
`/api/puzzles` and the page all show it), the run function as a lazy
`"module:function"` reference, the options it takes, and `exact=True` when it can prove
optimality. The reference is imported on first use (`Method.function`, through
`puzzlelab.core.loading`), so loading the registry, the CLI or the service imports no
solver: keep this module free of heavy imports (numba, solver libraries, numpy).

The run function's signature is the same for every method of every puzzle:
`run_x(instance, *, budget, progress, seed, **options) -> Result`, with one keyword per
declared option. One module per method (dp.py, greedy.py, search.py) keeps each method
readable on its own and free of import cycles.
"""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option

__all__ = ["METHODS"]

METHODS: tuple[Method, ...] = (
    Method(
        "dp",
        "exact dynamic programme over every amount up to the target (the oracle)",
        "coin_change.dp:run_dp",
        exact=True,
    ),
    Method(
        "greedy",
        "largest coin first: fast, right for euro coins, wrong for 11 with 1 5 6 9",
        "coin_change.greedy:run_greedy",
        (Option("largest_first", "bool", True, "take the largest coin first (else the smallest)"),),
    ),
    Method(
        "search",
        "branch and bound in a numba kernel, from the greedy answer; best so far when out of time",
        "coin_change.search:run_search",
        (Option("from_greedy", "bool", True, "start from greedy's answer as the bound to beat"),),
        exact=True,
    ),
)
