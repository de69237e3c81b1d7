"""Levels 5 and 6 in linear time (seed write-up, "Level by Level").

Once the 1s..4s are placed, a cell holding 5 or more has four neighbours holding 1..4,
so at most two of its neighbours also hold 5 or more: those cells form paths and
cycles. Along a path the 5s can always be placed so that every other cell sees exactly
one 5 (an efficient dominating set of the path); along a cycle that works exactly when
its length is a multiple of 3, and otherwise costs one penalty edge (two 5s meet, or one
cell sees two 5s). What is left over then comes in singletons (6s) and adjacent pairs
(a 6 and a 7, either way round), which never cost anything.

`component_polynomials` gives, per component, the number of ways to place the 5s (and
then the 6s and 7s) by extra penalty: the solution counts of `rowdp/count.py` use it.
"""

from __future__ import annotations

from typing import Sequence

from puzzlelab.puzzles.hexagon.model import Hexagon

__all__ = ["five_plus_components", "complete_from_level4", "split_sixes", "component_polynomials", "poly_mul"]

FIVE, OPEN = 5, 6  # a placed 5; a cell holding 6 or more


def five_plus_components(geometry: Hexagon, values: Sequence[int]) -> list[tuple[list[int], bool]]:
    """Components of cells holding 5+ (values >= 5) as (cells in path/cycle order, is_cycle).

    Raises ValueError if a 5+ cell has three 5+ neighbours (not a valid level-4 grid)."""
    big = [v >= 5 for v in values]
    adjacency: dict[int, list[int]] = {}
    for c in range(geometry.cells):
        if big[c]:
            nbrs = [j for j in geometry.neighbours_of(c) if big[j]]
            if len(nbrs) > 2:
                row, col = geometry.position(c)
                raise ValueError(f"row {row}, cell {col}: a 5+ cell with {len(nbrs)} 5+ neighbours")
            adjacency[c] = nbrs
    seen: set[int] = set()
    components = []
    # Paths first from their ends, then what is left are cycles.
    for start in sorted(adjacency):
        if start in seen or len(adjacency[start]) == 2:
            continue
        components.append((_walk(start, adjacency, seen), False))
    for start in sorted(adjacency):
        if start not in seen:
            components.append((_walk(start, adjacency, seen), True))
    return components


def _walk(start: int, adjacency: dict[int, list[int]], seen: set[int]) -> list[int]:
    order, previous, current = [start], -1, start
    seen.add(start)
    while True:
        step = [j for j in adjacency[current] if j != previous and j not in seen]
        if not step:
            return order
        previous, current = current, step[0]
        seen.add(current)
        order.append(current)


def _five_positions(length: int, cycle: bool) -> list[int]:
    """Where the 5s go along a path or cycle of this length (cheapest placement)."""
    if length == 1:
        return [0]
    if not cycle and length % 3 == 0:
        return list(range(1, length, 3))
    return list(range(0, length, 3)) if cycle or length % 3 else list(range(1, length, 3))


def complete_from_level4(geometry: Hexagon, values: Sequence[int]) -> tuple[list[int], int]:
    """A full grid from a level-4 grid (values >= 5 meaning 5+), with the fewest extra
    penalty edges; returns (grid, extra penalties) where extra = number of cycles whose
    length is not a multiple of 3."""
    out = [min(int(v), 5) for v in values]
    extra = 0
    for cells, cycle in five_plus_components(geometry, out):
        fives = set(_five_positions(len(cells), cycle))
        if cycle and len(cells) % 3:
            extra += 1
        for i, c in enumerate(cells):
            out[c] = FIVE if i in fives else OPEN
    return split_sixes(geometry, out), extra


def split_sixes(geometry: Hexagon, values: Sequence[int]) -> list[int]:
    """Turn 6+ cells (values >= 6) into 6s and 7s: in every adjacent pair one becomes 7."""
    out = [int(v) for v in values]
    for c in range(geometry.cells):
        if out[c] >= 6:
            out[c] = 6
    for c in range(geometry.cells):
        if out[c] == 6:
            partners = [j for j in geometry.neighbours_of(c) if out[j] == 6 and j > c]
            if partners:
                out[partners[0]] = 7
    return out


# ------------------------------------------------------------------- counting


def poly_mul(a: list[int], b: list[int], cap: int) -> list[int]:
    """Product of two polynomials (coefficient lists) truncated to degree <= cap."""
    out = [0] * min(len(a) + len(b) - 1, cap + 1)
    for i, x in enumerate(a):
        if not x:
            continue
        for j, y in enumerate(b):
            if i + j > cap:
                break
            out[i + j] += x * y
    return out


def _node_cost(left: int | None, me: int, right: int | None) -> int | None:
    """None when invalid; else the penalty charged at this node."""
    if me == FIVE:
        return 0
    fives = (left == FIVE) + (right == FIVE)
    if fives == 0:
        return None
    return 1 if fives == 2 else 0


def _edge_weight(a: int, b: int) -> tuple[int, list[int]]:
    """(level-5 cost, level-6 polynomial factor) of an edge."""
    if a == FIVE and b == FIVE:
        return 1, [1]
    if a == OPEN and b == OPEN:
        return 0, [2, 1]  # 6-7, 7-6 free; 6-6 costs one
    return 0, [1]


def component_polynomials(length: int, cycle: bool, cap: int) -> tuple[list[int], list[int]]:
    """(level-5 ways, level-6 ways) by extra penalty (coefficient k = ways costing k),
    for one path or cycle of 5+ cells, truncated at degree `cap`.

    Level 5 puts a 5 or a 6+ on each cell: a 6+ needs a 5 next to it; two adjacent 5s
    cost one, a 6+ between two 5s costs one. Level 6 then turns each adjacent pair of
    6+ cells into 6-7 or 7-6 (free) or 6-6 (cost one); a lone 6+ is a 6."""
    labels = [FIVE, OPEN]
    level5 = [0] * (cap + 1)
    level6 = [0] * (cap + 1)
    # Transfer-matrix DP along the sequence; state (first, second, previous, current)
    # labels, so a cycle can be closed at the end.
    if length == 1:
        level5[0] = level6[0] = 1  # a lone 5+ cell is a 5 (a 6+ would have no 5)
        return level5, level6

    # state: (first, second, prev, cur) -> (poly5, poly6)
    states: dict[tuple, tuple[list[int], list[int]]] = {}
    for a in labels:
        for b in labels:
            cost, factor = _edge_weight(a, b)
            if cost > cap:
                continue
            p5 = [0] * (cost + 1)
            p5[cost] = 1
            p6 = poly_mul(p5, factor, cap)
            states[(a, b, a, b)] = (p5, p6)
    for _ in range(2, length):
        nxt: dict[tuple, tuple[list[int], list[int]]] = {}
        for (first, second, prev, cur), (p5, p6) in states.items():
            for label in labels:
                # `cur` now has both neighbours known: charge it.
                cost_cur = _node_cost(prev, cur, label)
                if cost_cur is None:
                    continue
                cost_edge, factor = _edge_weight(cur, label)
                add = [0] * (cost_cur + cost_edge + 1)
                add[cost_cur + cost_edge] = 1
                q5 = poly_mul(p5, add, cap)
                q6 = poly_mul(poly_mul(p6, add, cap), factor, cap)
                key = (first, second, cur, label)
                if key in nxt:
                    r5, r6 = nxt[key]
                    q5 = _poly_add(q5, r5)
                    q6 = _poly_add(q6, r6)
                nxt[key] = (q5, q6)
        states = nxt
    for (first, second, prev, cur), (p5, p6) in states.items():
        if cycle:
            if length == 2:
                continue  # no 2-cycles in a simple graph
            cost_edge, factor = _edge_weight(cur, first)
            cost_last = _node_cost(prev, cur, first)
            cost_first = _node_cost(cur, first, second)
        else:
            cost_edge, factor = 0, [1]
            cost_last = _node_cost(prev, cur, None)
            cost_first = _node_cost(None, first, second)
        if cost_last is None or cost_first is None:
            continue
        total = cost_edge + cost_last + cost_first
        add = [0] * (total + 1)
        add[total] = 1
        level5 = _poly_add(level5, poly_mul(p5, add, cap))
        level6 = _poly_add(level6, poly_mul(poly_mul(p6, add, cap), factor, cap))
    return level5[: cap + 1] + [0] * (cap + 1 - len(level5)), level6[: cap + 1] + [0] * (cap + 1 - len(level6))


def _poly_add(a: list[int], b: list[int]) -> list[int]:
    out = [0] * max(len(a), len(b))
    for i, x in enumerate(a):
        out[i] += x
    for i, x in enumerate(b):
        out[i] += x
    return out
