"""The same search as `kernels.search_kernel`, in plain Python (ints as bit vectors,
`int.bit_count` as popcount): the peer of the kernel in `benchmarks/bench_matchsticks.py`
(nodes per second, as a ratio) and an oracle in the tests, where it must visit exactly
the same nodes and find the same best value and count.

It follows the kernel step for step: same tables, same symmetry rule (placements on or
above the main diagonal while the board is symmetric), same free-placement rule, same
visiting order (candidates by matches added, then placement order), same limit.
"""

from __future__ import annotations

import time
from typing import Any

from puzzlelab.puzzles.matchsticks.tables import prefix_ids, prefix_squares, tables_for

__all__ = ["plain_search"]


def plain_search(descriptor: dict[str, Any], seconds: float | None = None) -> dict[str, Any]:
    """Search a descriptor's subtree; returns {found, best, count, nodes, complete,
    solution} like `search.solve_subtree`. `seconds` stops it early (complete False)."""
    n = descriptor["n"]
    tables = tables_for(n, descriptor["roam"], descriptor["free_below"])
    area = tables.area
    xs = [int(v) for v in tables.x]
    ys = [int(v) for v in tables.y]
    hs = [int(v) for v in tables.h]
    vs = [int(v) for v in tables.v]
    start_of = [int(v) for v in tables.start]
    counting = descriptor["count"]
    greedy = descriptor["greedy"]
    greedy_slack = descriptor.get("greedy_slack", 0)
    max_added = descriptor["max_added"]
    lookahead = descriptor.get("lookahead", True)
    best = 2 * n * (n + 1) + 1 if descriptor["bound"] is None else int(descriptor["bound"])
    deadline = None if seconds is None else time.perf_counter() + seconds

    empty = (1 << area) - 1
    rows = [empty] * (area + 1)
    cols = [empty] * (area + 1)
    chosen = [0] * (n + 1)
    totals = [0] * (n + 2)
    saved: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * (n + 1)
    cands: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
    pos = [0] * (n + 1)
    found, count, nodes, best_path, complete = False, 0, 0, None, True

    ids = [int(p) for p in prefix_ids(tables, descriptor["prefix"])]
    for d, p in enumerate(ids):
        t = n - d
        x, y, h, v = xs[p], ys[p], hs[p], vs[p]
        c = (rows[y] & h).bit_count() + (rows[y + t] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + t] & v).bit_count()
        rows[y] &= ~h
        rows[y + t] &= ~h
        cols[x] &= ~v
        cols[x + t] &= ~v
        chosen[d] = p
        totals[d + 1] = totals[d] + c
    start = len(ids)
    limit = best if counting else best - 1

    hint = [start_of[u] for u in range(n + 1)]

    def hopeless(u: int, slack: int) -> bool:
        """No placement of size u adds at most `slack` matches (the kernel's lookahead)."""
        q = hint[u]
        if cost(u, q) <= slack:
            return False
        for q in range(start_of[u], start_of[u + 1]):
            if cost(u, q) <= slack:
                hint[u] = q
                return False
        return True

    def cost(u: int, q: int) -> int:
        x, y, h, v = xs[q], ys[q], hs[q], vs[q]
        return (rows[y] & h).bit_count() + (rows[y + u] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + u] & v).bit_count()

    def expand(d: int) -> None:
        t = n - d
        base = totals[d]
        pos[d] = 0
        if lookahead and (d == start or cands[d - 1][pos[d - 1] - 1][1] > 0):
            slack = limit - base
            for u in range(t - 1, slack // 2, -1):
                if hopeless(u, slack):
                    cands[d] = []
                    return
        symmetric = rows == cols
        raw: list[tuple[int, int]] = []
        cheapest = 4 * t + 1
        for p in range(start_of[t], start_of[t + 1]):
            x, y = xs[p], ys[p]
            if symmetric and y > x:
                continue
            h, v = hs[p], vs[p]
            c = (rows[y] & h).bit_count() + (rows[y + t] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + t] & v).bit_count()
            if c == 0:
                cands[d] = [(p, 0)]
                pos[d] = 0
                return
            if max_added and c > 2 * t:
                continue
            cheapest = min(cheapest, c)
            if base + c <= limit:
                raw.append((p, c))
        top = cheapest + greedy_slack if greedy else 4 * t
        cands[d] = sorted((pc for pc in raw if pc[1] <= top), key=lambda pc: pc[1])  # stable, like the counting sort
        pos[d] = 0

    depth = -1
    if totals[start] <= limit:
        if start == n:
            found, best, count, best_path = True, totals[n], 1, chosen[:n]
        else:
            depth = start
            expand(depth)
    while depth >= 0:
        d = depth
        if pos[d] < len(cands[d]):
            p, c = cands[d][pos[d]]
            pos[d] += 1
            if totals[d] + c > limit:
                pos[d] = len(cands[d])
                continue
            t = n - d
            x, y, h, v = xs[p], ys[p], hs[p], vs[p]
            saved[d] = (rows[y], rows[y + t], cols[x], cols[x + t])
            rows[y] &= ~h
            rows[y + t] &= ~h
            cols[x] &= ~v
            cols[x + t] &= ~v
            chosen[d] = p
            total = totals[d] + c
            totals[d + 1] = total
            nodes += 1
            if deadline is not None and (nodes & 0xFFF) == 0 and time.perf_counter() > deadline:
                complete = False
                break
            if d + 1 == n:
                if not found or total < best:
                    found, best, count, best_path = True, total, 1, chosen[:n]
                    limit = best if counting else best - 1
                else:
                    count += 1
                rows[y], rows[y + t], cols[x], cols[x + t] = saved[d]
                continue
            depth = d + 1
            expand(depth)
        else:
            if d == start:
                break
            depth = d - 1
            d = depth
            p = chosen[d]
            t = n - d
            x, y = xs[p], ys[p]
            rows[y], rows[y + t], cols[x], cols[x + t] = saved[d]
    return {
        "found": found,
        "best": best if found else None,
        "count": count if found else 0,
        "nodes": nodes,
        "complete": complete,
        "solution": prefix_squares(tables, best_path) if found else None,
    }
