"""A hand-written dancing-links exact cover, the peer miniexact is measured against.

Knuth's Algorithm X with dancing links (D. E. Knuth, "Dancing Links", 2000): the items
and options in four arrays of links, an item of fewest options chosen first, every
solution counted. Compiled by numba and searched without recursion (a stack of the
option chosen at each depth), so the comparison is of two native searches, not of
Python against C. Only `benchmarks/bench_hexagon_level_solvers.py --exact-cover` uses it:
the package itself calls miniexact (puzzles/hexagon/levels/dlx.py).
"""

from __future__ import annotations

import numba as nb
import numpy as np


def build_links(items: int, options: list[list[int]]) -> tuple[np.ndarray, ...]:
    """The link arrays of an exact cover of `items` primary items (0..items-1) by `options`
    (each a list of distinct items): node 0 is the root, 1..items the item headers, then
    one node per (option, item)."""
    nodes = 1 + items + sum(len(o) for o in options)
    left, right, up, down, column = (np.zeros(nodes, dtype=np.int32) for _ in range(5))
    size = np.zeros(items + 1, dtype=np.int32)
    for h in range(items + 1):
        left[h], right[h] = (h - 1) % (items + 1), (h + 1) % (items + 1)
        up[h] = down[h] = column[h] = h
    node = items + 1
    for option in options:
        first = node
        for item in option:
            h = item + 1
            column[node] = h
            up[node], down[node] = up[h], h
            down[up[h]] = node
            up[h] = node
            size[h] += 1
            left[node], right[node] = node - 1, node + 1
            node += 1
        left[first], right[node - 1] = node - 1, first
    return left, right, up, down, column, size


@nb.njit(cache=True)
def _cover(c, left, right, up, down, column, size):
    left[right[c]] = left[c]
    right[left[c]] = right[c]
    i = down[c]
    while i != c:
        j = right[i]
        while j != i:
            up[down[j]] = up[j]
            down[up[j]] = down[j]
            size[column[j]] -= 1
            j = right[j]
        i = down[i]


@nb.njit(cache=True)
def _uncover(c, left, right, up, down, column, size):
    i = up[c]
    while i != c:
        j = left[i]
        while j != i:
            size[column[j]] += 1
            up[down[j]] = j
            down[up[j]] = j
            j = left[j]
        i = up[i]
    left[right[c]] = c
    right[left[c]] = c


@nb.njit(cache=True)
def count_covers(left, right, up, down, column, size, depth_max):
    """Every exact cover counted (the arrays are restored on return). Three states: enter
    depth k (a cover found, or an item chosen and covered), try the next option of depth
    k's item, back up to depth k - 1 (undoing the option chosen there)."""
    chosen = np.zeros(depth_max + 1, dtype=np.int32)
    item = np.zeros(depth_max + 1, dtype=np.int32)
    enter, attempt, back = 0, 1, 2
    count, k, state = 0, 0, enter
    while True:
        if state == enter:
            if right[0] == 0:
                count += 1
                state = back
            else:
                best, c = 1 << 30, right[0]
                while c != 0:
                    if size[c] < best:
                        best, item[k] = size[c], c
                    c = right[c]
                _cover(item[k], left, right, up, down, column, size)
                chosen[k] = down[item[k]]
                state = attempt
        elif state == attempt:
            r = chosen[k]
            if r == item[k]:
                _uncover(item[k], left, right, up, down, column, size)
                state = back
            else:
                j = right[r]
                while j != r:
                    _cover(column[j], left, right, up, down, column, size)
                    j = right[j]
                k += 1
                state = enter
        else:
            k -= 1
            if k < 0:
                return count
            r = chosen[k]
            j = left[r]
            while j != r:
                _uncover(column[j], left, right, up, down, column, size)
                j = left[j]
            chosen[k] = down[r]
            state = attempt


PENTOMINOES = {  # Knuth's test of "Dancing Links": the 12 pentominoes, cells as (row, column)
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)), "I": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)), "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)), "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)), "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)), "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)), "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}


def pentomino_cover(rows: int, columns: int) -> tuple[int, list[list[int]]]:
    """The pentominoes packing a rows x columns box as an exact cover: items 0..11 the
    pieces, then the cells; an option per piece, orientation and place. Every packing
    counts (its mirror images and turns too): 6 x 10 has 2,339 up to symmetry, 9,356 in all."""
    options = set()
    for p, cells in enumerate(PENTOMINOES.values()):
        for turn in range(8):
            shape = [(c, r) if turn & 4 else (r, c) for r, c in cells]
            shape = [(-r if turn & 1 else r, -c if turn & 2 else c) for r, c in shape]
            low_r, low_c = min(r for r, _ in shape), min(c for _, c in shape)
            shape = sorted((r - low_r, c - low_c) for r, c in shape)
            for dr in range(rows):
                for dc in range(columns):
                    placed = [(r + dr, c + dc) for r, c in shape]
                    if all(r < rows and c < columns for r, c in placed):
                        options.add((p, *sorted(12 + r * columns + c for r, c in placed)))
    return 12 + rows * columns, [list(o) for o in sorted(options)]
