"""Plain-Python backtracking: the naive oracle the numba enumerator is checked against.

Deliberately different from the enumerator: cells in index order (not ring first), every
piece tried in all k rotations (no reduction to distinct orientations), each placement
checked against the border and the already placed neighbours; solutions are collected as
tuples of side colours, so a symmetric piece placed in two equivalent rotations counts
once. Slow (a few thousand placements a second per core): for small boards.
"""

from __future__ import annotations

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.macmahon.model import Instance
from puzzlelab.puzzles.macmahon.tiles import rotate

__all__ = ["backtrack_solutions"]


def backtrack_solutions(inst: Instance, budget: Budget | None = None, limit: int | None = None) -> tuple[set[tuple[int, ...]], bool]:
    """(set of solutions as flat side-colour tuples, finished). Stops early when the
    budget ends or `limit` solutions were found."""
    geometry = inst.board
    k, n = geometry.sides, geometry.cells
    neighbour = geometry.neighbour.tolist()
    counts = list(inst.counts)
    pieces = [p for p in range(len(inst.tiles)) if counts[p]]
    rotations = {p: [rotate(inst.tiles[p], r) for r in range(k)] for p in pieces}
    colours = [-1] * (n * k)
    found: set[tuple[int, ...]] = set()
    stack = [(0, 0)]  # (cell, next option index); options enumerate (piece, rotation)
    options = [(p, r) for p in pieces for r in range(k)]
    placed: list[int] = []  # piece of each placed cell
    steps = 0
    while stack:
        cell, i = stack.pop()
        if cell < len(placed):  # backtracking into this cell: lift its piece
            counts[placed.pop()] += 1
        while i < len(options):
            p, r = options[i]
            i += 1
            if not counts[p]:
                continue
            edges = rotations[p][r]
            ok = True
            for s in range(k):
                nb = neighbour[cell][s]
                if nb < 0:
                    if inst.border is not None and edges[s] != inst.border:
                        ok = False
                        break
                elif nb // k < cell and colours[nb] != edges[s]:
                    ok = False
                    break
            if not ok:
                continue
            colours[cell * k : cell * k + k] = edges
            counts[p] -= 1
            placed.append(p)
            stack.append((cell, i))
            if cell + 1 == n:
                found.add(tuple(colours))
                if limit is not None and len(found) >= limit:
                    return found, False
            else:
                stack.append((cell + 1, 0))
            break
        steps += 1
        if budget is not None and steps % 4096 == 0 and budget.expired():
            return found, False
    return found, True
