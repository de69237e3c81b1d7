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

from puzzlelab.puzzles.matchsticks.tables import prefix_ids, prefix_squares, tables_of

__all__ = ["plain_search"]


def plain_search(descriptor: dict[str, Any], seconds: float | None = None) -> dict[str, Any]:
    """Search a descriptor's subtree; returns {found, best, count, nodes, complete,
    solution} like `search.solve_subtree`. `seconds` stops it early (complete False)."""
    search = _PlainSearch(descriptor)
    search.run(None if seconds is None else time.perf_counter() + seconds)
    found = search.found
    return {
        "found": found,
        "best": search.best if found else None,
        "count": search.count if found else 0,
        "nodes": search.nodes,
        "complete": search.complete,
        "solution": prefix_squares(search.tables, search.best_path) if found else None,
    }


class _PlainSearch:
    """The kernel's state in Python lists: the board (`rows`, `cols`: one int per row
    and column, bit i set while segment i is empty), and per depth the placement
    chosen, the running total, the saved words and the candidate list."""

    def __init__(self, descriptor: dict[str, Any]) -> None:
        n = self.n = descriptor["n"]
        tables = self.tables = tables_of(descriptor)
        area = tables.area
        self.xs = [int(v) for v in tables.x]
        self.ys = [int(v) for v in tables.y]
        self.hs = [int(v) for v in tables.h]
        self.vs = [int(v) for v in tables.v]
        self.start_of = [int(v) for v in tables.start]
        self.counting = descriptor["count"]
        self.greedy = descriptor["greedy"]
        self.greedy_slack = descriptor.get("greedy_slack", 0)
        self.max_added = descriptor["max_added"]
        self.lookahead = descriptor.get("lookahead", True)
        self.best = 2 * n * (n + 1) + 1 if descriptor["bound"] is None else int(descriptor["bound"])
        empty = (1 << area) - 1
        self.rows = [empty] * (area + 1)
        self.cols = [empty] * (area + 1)
        self.chosen = [0] * (n + 1)
        self.totals = [0] * (n + 2)
        self.saved: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * (n + 1)
        self.cands: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        self.pos = [0] * (n + 1)
        self.hint = [self.start_of[u] for u in range(n + 1)]
        self.found, self.count, self.nodes, self.best_path, self.complete = False, 0, 0, None, True
        self.start = self._place_prefix(descriptor["prefix"])
        self.limit = self.best if self.counting else self.best - 1

    def _place_prefix(self, prefix: list[list[int]]) -> int:
        """Place the descriptor's fixed squares; returns the depth the search starts at."""
        n, rows, cols = self.n, self.rows, self.cols
        ids = [int(p) for p in prefix_ids(self.tables, prefix)]
        for d, p in enumerate(ids):
            t = n - d
            x, y, h, v = self.xs[p], self.ys[p], self.hs[p], self.vs[p]
            c = (rows[y] & h).bit_count() + (rows[y + t] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + t] & v).bit_count()
            rows[y] &= ~h
            rows[y + t] &= ~h
            cols[x] &= ~v
            cols[x + t] &= ~v
            self.chosen[d] = p
            self.totals[d + 1] = self.totals[d] + c
        return len(ids)

    def hopeless(self, u: int, slack: int) -> bool:
        """No placement of size u adds at most `slack` matches (the kernel's lookahead)."""
        rows, cols, xs, ys, hs, vs, hint = self.rows, self.cols, self.xs, self.ys, self.hs, self.vs, self.hint

        def cost(q: int) -> int:
            x, y, h, v = xs[q], ys[q], hs[q], vs[q]
            return (rows[y] & h).bit_count() + (rows[y + u] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + u] & v).bit_count()

        if cost(hint[u]) <= slack:
            return False
        for q in range(self.start_of[u], self.start_of[u + 1]):
            if cost(q) <= slack:
                hint[u] = q
                return False
        return True

    def expand(self, d: int) -> None:
        """The candidates of the node at depth d, cheapest first (empty when pruned)."""
        t = self.n - d
        base = self.totals[d]
        cands, pos = self.cands, self.pos
        pos[d] = 0
        if self.lookahead and (d == self.start or cands[d - 1][pos[d - 1] - 1][1] > 0):
            slack = self.limit - base
            for u in range(t - 1, slack // 2, -1):
                if self.hopeless(u, slack):
                    cands[d] = []
                    return
        rows, cols, xs, ys, hs, vs = self.rows, self.cols, self.xs, self.ys, self.hs, self.vs
        symmetric = rows == cols
        raw: list[tuple[int, int]] = []
        cheapest = 4 * t + 1
        for p in range(self.start_of[t], self.start_of[t + 1]):
            x, y = xs[p], ys[p]
            if symmetric and y > x:
                continue
            h, v = hs[p], vs[p]
            c = (rows[y] & h).bit_count() + (rows[y + t] & h).bit_count() + (cols[x] & v).bit_count() + (cols[x + t] & v).bit_count()
            if c == 0:
                cands[d] = [(p, 0)]
                return
            if self.max_added and c > 2 * t:
                continue
            cheapest = min(cheapest, c)
            if base + c <= self.limit:
                raw.append((p, c))
        top = cheapest + self.greedy_slack if self.greedy else 4 * t
        cands[d] = sorted((pc for pc in raw if pc[1] <= top), key=lambda pc: pc[1])  # stable, like the counting sort

    def run(self, deadline: float | None) -> None:
        """The depth-first search from the prefix, step for step as the kernel."""
        n, start, totals, chosen = self.n, self.start, self.totals, self.chosen
        rows, cols, saved, cands, pos = self.rows, self.cols, self.saved, self.cands, self.pos
        xs, ys, hs, vs = self.xs, self.ys, self.hs, self.vs
        depth = -1
        if totals[start] <= self.limit:
            if start == n:
                self._answer(totals[n], chosen[:n])
            else:
                depth = start
                self.expand(depth)
        while depth >= 0:
            d = depth
            if pos[d] < len(cands[d]):
                p, c = cands[d][pos[d]]
                pos[d] += 1
                if totals[d] + c > self.limit:
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
                totals[d + 1] = totals[d] + c
                self.nodes += 1
                if deadline is not None and (self.nodes & 0xFFF) == 0 and time.perf_counter() > deadline:
                    self.complete = False
                    break
                if d + 1 == n:
                    self._answer(totals[n], chosen[:n])
                    rows[y], rows[y + t], cols[x], cols[x + t] = saved[d]
                    continue
                depth = d + 1
                self.expand(depth)
            else:
                if d == start:
                    break
                depth = d - 1
                p = chosen[depth]
                t = n - depth
                x, y = xs[p], ys[p]
                rows[y], rows[y + t], cols[x], cols[x + t] = saved[depth]

    def _answer(self, total: int, path: list[int]) -> None:
        """A complete board of `total` matches (within the limit): a new best, or a tie."""
        if not self.found or total < self.best:
            self.found, self.best, self.count, self.best_path = True, total, 1, path
            self.limit = self.best if self.counting else self.best - 1
        else:
            self.count += 1
