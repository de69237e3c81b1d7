"""Scores, penalty edges and bounds (seed write-up, "Score by Edge Penalties").

An edge is *useful* when it carries the unique support of one value to the higher of
its two cells; otherwise it is a *penalty edge*: its two cells hold the same value, or
the higher cell already gets that lower value from another neighbour (of such a group
the earlier edges in the canonical order are the penalties, the last one is useful).
Every valid grid has exactly raw-score useful edges (a cell holding k draws k-1
distinct supports), so

    penalty edges + raw score = edges = 3(n-1)(3n-2),

and minimising penalty edges is maximising the score. Bounds on the raw score: the
number of edges, and the count bound floor(v/7)*21 + (v%7)(v%7-1)/2 (v cells: at least
ceil(v/7) ones, then twos among what is left, and so on).

Levels: after the values 1..k are placed and every other cell is only known to hold
more than k, the edges with an endpoint at most k are already decided; their penalty
count is the level-k penalty, which never decreases with k and equals the final penalty
at k = 6 (a lower bound on the final penalty at every k).
"""

from __future__ import annotations

from typing import Sequence

from puzzlelab.puzzles.hexagon.model import Hexagon, cell_count, edge_count

__all__ = [
    "raw_score",
    "cell_sum",
    "penalty_edges",
    "level_penalty",
    "count_bound",
    "edge_bound",
    "upper_bound",
    "raw_from_penalty",
    "penalty_from_raw",
]


def cell_sum(values: Sequence[int]) -> int:
    return int(sum(int(v) for v in values))


def raw_score(values: Sequence[int]) -> int:
    """The contest's raw score: cell sum minus cell count."""
    return cell_sum(values) - len(values)


def penalty_edges(geometry: Hexagon, values: Sequence[int], top: int = 7) -> list[int]:
    """Edge ids of the penalty edges, ascending in the canonical order.

    Values above `top` stand for 'more than top' (a partial grid at level `top`): an
    edge between two such cells is not decided yet and is not counted.
    """
    penalties: set[int] = set()
    edges, order = geometry.edges, geometry.incident
    for e in range(len(edges)):
        u, v = int(edges[e, 0]), int(edges[e, 1])
        if values[u] == values[v] and values[u] <= top:
            penalties.add(e)
    for c in range(geometry.cells):
        own = values[c]
        groups: dict[int, list[int]] = {}
        for k in range(6):
            j = int(geometry.neighbours[c, k])
            if j < 0:
                continue
            value = values[j]
            if value < own and value <= top:
                groups.setdefault(value, []).append(int(order[c, k]))
        for group in groups.values():
            if len(group) > 1:
                penalties.update(sorted(group)[:-1])
    return sorted(penalties)


def level_penalty(geometry: Hexagon, values: Sequence[int], level: int) -> int:
    """Penalty edges decided once the values 1..level are placed."""
    capped = [min(int(v), level + 1) for v in values]
    return len(penalty_edges(geometry, capped, top=level))


def count_bound(n: int) -> int:
    """floor(v/7)*21 + (v%7)(v%7-1)/2 for v cells: the write-up's first upper bound."""
    v = cell_count(n)
    return (v // 7) * 21 + (v % 7) * (v % 7 - 1) // 2


def edge_bound(n: int) -> int:
    """The number of edges: the raw score when no edge is wasted."""
    return edge_count(n)


def upper_bound(n: int) -> int:
    """The better of the two bounds on the raw score."""
    return min(count_bound(n), edge_bound(n))


def raw_from_penalty(n: int, penalty: int) -> int:
    return edge_count(n) - penalty


def penalty_from_raw(n: int, raw: int) -> int:
    return edge_count(n) - raw
