"""Placement tables and subtree descriptors: what the kernel is given to search.

Every placement of every size is listed once, up front (as in the write-up's "pre-compute
everything"): its corner in area coordinates and its row and column bit masks. A search
*space* is fixed by (n, roam, free_below):

- `roam` m widens the area to n + 2m units, the largest square sitting at (m, m);
- `free_below` k (the diagonal method) keeps, for sizes k and up, only the corners on
  the main diagonal (x == y); the sizes below k are free.

A *descriptor* is a small JSON-able dict that names one subtree of one search: the space,
the restrictions (greedy, max_added), whether ties are counted, the bound, and the
`prefix` -- the squares of the largest sizes, in solution coordinates (the largest
square at (0, 0), or with `free_span`, see `offset_roots`, wherever its root put it). Worker processes and, later, cluster nodes receive descriptors and
nothing else; each rebuilds its tables locally (`tables_for`, cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from puzzlelab.puzzles.matchsticks.model import MAX_AREA

__all__ = ["Tables", "search_area", "tables_of", "tables_for", "root_prefixes", "offset_roots", "roots_of", "prefix_ids", "prefix_squares", "space_key"]


@dataclass(frozen=True)
class Tables:
    """All placements of one search space, in the kernel's array form."""

    n: int
    roam: int
    area: int
    free_below: int | None
    start: np.ndarray  # int64[n + 2]: ids of size t are start[t]:start[t+1]
    x: np.ndarray  # int64 corner column, area coordinates
    y: np.ndarray  # int64 corner row
    h: np.ndarray  # uint64 row mask (t bits from x)
    v: np.ndarray  # uint64 column mask (t bits from y)

    def ids_of_size(self, t: int) -> range:
        return range(int(self.start[t]), int(self.start[t + 1]))

    def find(self, t: int, x: int, y: int) -> int:
        """Placement id of a size-t square at area corner (x, y); -1 if not listed."""
        for p in self.ids_of_size(t):
            if self.x[p] == x and self.y[p] == y:
                return p
        return -1


def search_area(descriptor: dict[str, Any]) -> int:
    """The side of a search's area: n + span for the free-placement search (its
    configurations are at most that wide), else n + 2*roam (a margin of roam on every
    side of the largest square)."""
    span = descriptor.get("free_span")
    return descriptor["n"] + (int(span) if span is not None else 2 * descriptor["roam"])


def tables_of(descriptor: dict[str, Any]) -> "Tables":
    """The placement tables a search descriptor searches (its area from `search_area`)."""
    return tables_for(descriptor["n"], descriptor["roam"], descriptor["free_below"], search_area(descriptor))


@lru_cache(maxsize=32)
def tables_for(n: int, roam: int = 0, free_below: int | None = None, area: int | None = None) -> Tables:
    """Placements of sizes 1..n in an area of `area` units (default n + 2*roam), scan
    order (row-major) within each size; sizes `free_below` and up only on the main
    diagonal. Solution coordinates are area coordinates less roam."""
    area = n + 2 * roam if area is None else area
    if area > MAX_AREA:
        raise ValueError(f"area {area} (n = {n}) exceeds the {MAX_AREA} units a search row holds")
    if area < n:
        raise ValueError(f"area {area} is smaller than the largest square (n = {n})")
    start = np.zeros(n + 2, np.int64)
    xs: list[int] = []
    ys: list[int] = []
    hs: list[int] = []
    vs: list[int] = []
    for t in range(1, n + 1):
        start[t] = len(xs)
        diagonal_only = free_below is not None and t >= free_below
        run = (1 << t) - 1
        for y in range(area - t + 1):
            for x in range(area - t + 1):
                if diagonal_only and x != y:
                    continue
                xs.append(x)
                ys.append(y)
                hs.append(run << x)
                vs.append(run << y)
    start[n + 1] = len(xs)
    start[0] = 0
    return Tables(
        n,
        roam,
        area,
        free_below,
        start,
        np.array(xs, np.int64),
        np.array(ys, np.int64),
        np.array(hs, np.uint64),
        np.array(vs, np.uint64),
    )


def root_prefixes(n: int, roam: int = 0, free_below: int | None = None) -> list[list[list[int]]]:
    """The first two squares, symmetry broken (write-up, "Avoiding symmetry"): the
    largest at (0, 0) and the second sharing its top-left corner. With roam m the second
    may also stick out: its offset (dx, dy) is taken from one octant, -m <= dx <= dy <= 0,
    which meets every orbit of the largest square's eight symmetries exactly once."""
    if n <= 0:
        return []
    if n == 1:
        return [[[1, 0, 0]]]
    roots = []
    for dy in range(-roam, 1):
        for dx in range(-roam, dy + 1):
            if free_below is not None and n - 1 >= free_below and dx != dy:
                continue
            roots.append([[n, 0, 0], [n - 1, dx, dy]])
    return roots


def offset_roots(n: int, roam: int, span: int) -> list[list[list[int]]]:
    """The roots of the free-placement search (`free.py`): the largest square alone, at
    every offset (ox, oy) from the corner of an area of n + span units with
    0 <= ox <= oy <= span // 2. Every configuration whose bounding box is at most
    n + span wide and high, moved so that its box starts at the area's corner, has its
    largest square at such an offset after one of the area's eight symmetries. The
    search area is that area (`search_area`); roam only moves the solution coordinates
    (area coordinates less roam)."""
    if span < 0 or roam < 0:
        raise ValueError(f"offset roots: span {span} and roam {roam} must be at least 0")
    if n <= 0:
        return []
    return [[[n, ox - roam, oy - roam]] for oy in range(span // 2 + 1) for ox in range(oy + 1)]


def roots_of(descriptor: dict[str, Any]) -> list[list[list[int]]]:
    """The root prefixes of a search descriptor: the offset roots when it names a
    `free_span`, else the symmetry-broken pair of `root_prefixes`."""
    span = descriptor.get("free_span")
    if span is not None:
        return offset_roots(descriptor["n"], descriptor["roam"], int(span))
    return root_prefixes(descriptor["n"], descriptor["roam"], descriptor["free_below"])


def prefix_ids(tables: Tables, prefix: list[list[int]]) -> np.ndarray:
    """Placement ids of a prefix given in solution coordinates (largest square first)."""
    ids = np.empty(len(prefix), np.int64)
    for d, (size, x, y) in enumerate(prefix):
        if size != tables.n - d:
            raise ValueError(f"prefix: depth {d} must hold size {tables.n - d}, got {size}")
        p = tables.find(size, x + tables.roam, y + tables.roam)
        if p < 0:
            raise ValueError(f"prefix: square ({size}, {x}, {y}) is not a placement of this search space")
        ids[d] = p
    return ids


def prefix_squares(tables: Tables, ids: Any) -> list[list[int]]:
    """Solution-coordinate squares of placement ids (inverse of `prefix_ids`)."""
    out = []
    for d, p in enumerate(ids):
        p = int(p)
        out.append([tables.n - d, int(tables.x[p]) - tables.roam, int(tables.y[p]) - tables.roam])
    return out


def space_key(descriptor: dict[str, Any]) -> dict[str, Any]:
    """The part of a descriptor that fixes the search (everything but prefix and bound).
    `free_span` joins it only when set, so the keys of the other searches (and their
    checkpoints) are as they were."""
    key = {k: descriptor.get(k) for k in ("n", "roam", "free_below", "greedy", "greedy_slack", "max_added", "count")}
    if descriptor.get("free_span") is not None:
        key["free_span"] = int(descriptor["free_span"])
    return key
