"""Where a matchsticks search spends its time: the kernel run with its per-depth trace
(`kernels.TRACE_*`) over every root prefix (or, with workers, over subtrees cut below
them, in worker processes), summed, and printed as one row per depth.

The searches were measured before they were changed; `benchmarks/profile_matchsticks_nodes.py`
prints these tables (the findings are in docs/matchsticks.md).
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.tables import root_prefixes

__all__ = ["trace_search", "format_trace", "format_slack", "COLUMNS"]

COLUMNS = (
    "expanded", "lookahead_dead", "dead_gap", "free", "scanned", "kept", "no_candidate", "over_limit", "children",
    "prekilled", "word_dead", "barren", "barren_children", "leaves", "no_slack", "live_slack",
)
SHOWN = ("expanded", "lookahead_dead", "prekilled", "word_dead", "dead_gap", "free", "kept", "children", "barren", "barren_children", "leaves", "no_slack")


def _new_trace(n: int) -> np.ndarray:
    from puzzlelab.puzzles.matchsticks import kernels

    return np.zeros((n + 1, kernels.TRACE_LEN + 4 * kernels.TRACE_SLACK_BINS), np.int64)


def _traced(descriptor: dict[str, Any], split_depth: int = 0, capacity: int = 1) -> tuple[np.ndarray, np.ndarray, list]:
    """One traced kernel run: (trace, stats, prefixes cut at split_depth)."""
    from puzzlelab.puzzles.matchsticks import kernels
    from puzzlelab.puzzles.matchsticks.search import _run_kernel
    from puzzlelab.puzzles.matchsticks.tables import prefix_squares

    trace = _new_trace(descriptor["n"])
    control = Budget().control
    tables, stats, _, split_out = _run_kernel(descriptor, control, split_depth, capacity, trace=trace)
    if int(stats[kernels.STAT_STATUS]) == kernels.STATUS_SPLIT_OVERFLOW:
        raise OverflowError("more subtrees than the capacity")
    cut = [prefix_squares(tables, split_out[i]) for i in range(int(stats[kernels.STAT_SPLITS]))] if split_depth else []
    return trace, stats, cut


def _traced_subtree(descriptor: dict[str, Any]) -> tuple[np.ndarray, list[int]]:
    from puzzlelab.puzzles.matchsticks import kernels

    trace, stats, _ = _traced(descriptor)
    return trace, [int(stats[k]) for k in (kernels.STAT_NODES, kernels.STAT_STATUS, kernels.STAT_FOUND, kernels.STAT_BEST, kernels.STAT_COUNT)]


def trace_search(descriptor: dict[str, Any], budget: Budget | None = None, workers: int = 1, split_depth: int = 4) -> dict[str, Any]:
    """Run the whole search of `descriptor` (its prefix, else every root prefix) with the
    trace on; returns {rows: one dict per depth, slack: per depth the live and killed
    nodes by slack, nodes, best, count, seconds, complete}.

    With workers > 1 the search is cut at `split_depth` (a traced run of the levels
    above it), and the subtrees run traced in worker processes, all with the
    descriptor's bound (so the result does not depend on the order they finish in;
    give the optimum as the bound when counting)."""
    from puzzlelab.puzzles.matchsticks import kernels

    budget = budget or Budget()
    n = descriptor["n"]
    prefixes = [descriptor["prefix"]] if descriptor["prefix"] else root_prefixes(n, descriptor["roam"], descriptor["free_below"])
    started = time.perf_counter()
    trace = _new_trace(n)
    results: list[list[int]] = []
    if workers > 1 and n > split_depth + 1:
        subtrees = []
        for prefix in prefixes:
            top, stats, cut = _traced(dict(descriptor, prefix=prefix), split_depth, capacity=1 << 20)
            trace += top
            subtrees += cut
            results.append([int(stats[kernels.STAT_NODES]), 0, 0, 0, 0])  # the levels above the cut
        with ProcessPoolExecutor(workers) as pool:
            for part, summary in pool.map(_traced_subtree, [dict(descriptor, prefix=p) for p in subtrees], chunksize=4):
                trace += part
                results.append(summary)
    else:
        for prefix in prefixes:
            part, summary = _traced_subtree(dict(descriptor, prefix=prefix))
            trace += part
            results.append(summary)
    return _summarise(descriptor, trace, results, time.perf_counter() - started)


def _summarise(descriptor: dict[str, Any], trace: np.ndarray, results: list[list[int]], seconds: float) -> dict[str, Any]:
    from puzzlelab.puzzles.matchsticks import kernels

    n, bins = descriptor["n"], kernels.TRACE_SLACK_BINS
    best, count = None, 0
    for _, _, found, value, ties in results:
        if found and (best is None or value < best):
            best, count = value, ties
        elif found and value == best:
            count += ties
    rows = [{"depth": d, "size": n - d, **{name: int(trace[d, k]) for k, name in enumerate(COLUMNS)}} for d in range(n)]
    slack = [
        {
            name: trace[d, kernels.TRACE_LEN + k * bins : kernels.TRACE_LEN + (k + 1) * bins].tolist()
            for k, name in enumerate(("live", "killed", "barren_child_slack", "fertile_child_slack"))
        }
        for d in range(n)
    ]
    return {
        "rows": rows,
        "slack": slack,
        "nodes": sum(r[0] for r in results),
        "best": best,
        "count": count,
        "seconds": seconds,
        "complete": all(r[1] == kernels.STATUS_DONE for r in results),
    }


def format_trace(found: dict[str, Any], columns: tuple[str, ...] = SHOWN) -> str:
    """The per-depth table as text (depths that did nothing are left out)."""
    head = f"{'d':>3} {'t':>3} " + " ".join(f"{c:>15}" for c in columns)
    lines = [head]
    total = {c: 0 for c in columns}
    for row in found["rows"]:
        if not row["expanded"] and not row["children"]:
            continue
        lines.append(f"{row['depth']:>3} {row['size']:>3} " + " ".join(f"{row[c]:>15,}" for c in columns))
        for c in columns:
            total[c] += row[c]
    lines.append(f"{'all':>7} " + " ".join(f"{total[c]:>15,}" for c in columns))
    return "\n".join(lines)


def format_slack(found: dict[str, Any], top: int = 8) -> str:
    """Per depth holding at least 1 % of the nodes: the slack of its live and killed
    nodes (mean, and the shares at 0 and below the size placed there)."""
    nodes = max(1, sum(r["expanded"] for r in found["rows"]))
    lines = [
        f"{'d':>3} {'t':>3} {'share':>6} {'live':>12} {'mean slack':>10} {'killed':>13} {'mean slack':>10} {'killed at 0':>11}"
        f"  barren / other live nodes by the slack their cheapest child leaves: {'<=2':>13} {'3..5':>13} {'6..9':>13} {'>=10':>13}"
    ]
    for row, hist in zip(found["rows"], found["slack"]):
        if row["expanded"] < nodes / 100:
            continue
        live, killed = hist["live"], hist["killed"]
        lsum, ksum = sum(live), sum(killed)
        lmean = sum(s * k for s, k in enumerate(live)) / max(1, lsum)
        kmean = sum(s * k for s, k in enumerate(killed)) / max(1, ksum)
        ranges = [(0, 3), (3, 6), (6, 10), (10, len(live))]
        barren, fertile = hist["barren_child_slack"], hist["fertile_child_slack"]
        split = " ".join(f"{sum(barren[a:b]):>6,}/{sum(fertile[a:b]):<6,}" for a, b in ranges)
        lines.append(
            f"{row['depth']:>3} {row['size']:>3} {row['expanded'] / nodes:6.1%} {lsum:>12,} {lmean:10.1f} {ksum:>13,} {kmean:10.1f} {killed[0] / max(1, ksum):11.1%}"
            f"  {'':>67}{split}"
        )
    return "\n".join(lines)
