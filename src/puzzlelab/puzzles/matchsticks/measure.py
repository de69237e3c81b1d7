"""Where a matchsticks search spends its time: the kernel run with its per-depth trace
(`kernels.TRACE_*`) over every root prefix, summed, and printed as one row per depth.

Measure before changing the searches: `benchmarks/profile_matchsticks.py`
prints these tables (the findings are in docs/matchsticks.md).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.tables import root_prefixes

__all__ = ["trace_search", "format_trace"]

COLUMNS = ("expanded", "lookahead_dead", "dead_gap", "free", "scanned", "kept", "no_candidate", "over_limit", "children")


def trace_search(descriptor: dict[str, Any], budget: Budget | None = None) -> dict[str, Any]:
    """Run the whole search of `descriptor` (its prefix, else every root prefix) with the
    trace on; returns {rows: one dict per depth, nodes, best, count, seconds, complete}."""
    from puzzlelab.puzzles.matchsticks import kernels
    from puzzlelab.puzzles.matchsticks.search import _run_kernel

    budget = budget or Budget()
    n = descriptor["n"]
    trace = np.zeros((n + 1, kernels.TRACE_LEN), np.int64)
    prefixes = [descriptor["prefix"]] if descriptor["prefix"] else root_prefixes(n, descriptor["roam"], descriptor["free_below"])
    started = time.perf_counter()
    best = descriptor["bound"]
    count = nodes = 0
    complete = True
    for prefix in prefixes:
        _, stats, _, _ = _run_kernel(dict(descriptor, prefix=prefix, bound=best), budget.control, trace=trace)
        nodes += int(stats[kernels.STAT_NODES])
        complete = complete and int(stats[kernels.STAT_STATUS]) == kernels.STATUS_DONE
        if stats[kernels.STAT_FOUND]:
            value = int(stats[kernels.STAT_BEST])
            if descriptor["count"]:
                count = count + int(stats[kernels.STAT_COUNT]) if value == best else int(stats[kernels.STAT_COUNT])
                best = value
            else:
                best = value
    rows = [{"depth": d, "size": n - d, **{name: int(trace[d, k]) for k, name in enumerate(COLUMNS)}} for d in range(n)]
    return {"rows": rows, "nodes": nodes, "best": best, "count": count, "seconds": time.perf_counter() - started, "complete": complete}


def format_trace(found: dict[str, Any]) -> str:
    """The per-depth table as text (depths that did nothing are left out)."""
    head = f"{'d':>3} {'t':>3} " + " ".join(f"{c:>14}" for c in COLUMNS)
    lines = [head]
    total = {c: 0 for c in COLUMNS}
    for row in found["rows"]:
        if not row["expanded"] and not row["children"]:
            continue
        lines.append(f"{row['depth']:>3} {row['size']:>3} " + " ".join(f"{row[c]:>14,}" for c in COLUMNS))
        for c in COLUMNS:
            total[c] += row[c]
    lines.append(f"{'all':>7} " + " ".join(f"{total[c]:>14,}" for c in COLUMNS))
    return "\n".join(lines)
