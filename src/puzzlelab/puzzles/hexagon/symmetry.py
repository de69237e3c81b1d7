"""The twelve symmetries of the hexagon, and lex-leader clauses that keep one grid of
each orbit.

The rule and the score only look at which cells are neighbours, so each rotation by a
multiple of 60 degrees and each mirror maps a grid to a grid with the same score; a
proof by UNSAT need only look at one grid per orbit. The seed write-up breaks symmetry
by fixing 1s near the centre, which a proof cannot use; the sound alternative is the
lex-leader predicate of Crawford, Ginsberg, Luks and Roy ("Symmetry-breaking predicates
for search problems", KR 1996): for every symmetry g, the vector of value literals is
lexicographically at most its image under g, so only the least grid of an orbit
survives. Clauses: the chained form of Aloul, Markov and Sakallah ("Efficient
symmetry breaking for Boolean satisfiability", IJCAI 2003), three clauses and one
"prefix equal so far" variable per position that g moves.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from puzzlelab.puzzles.hexagon.model import Hexagon

__all__ = ["cell_symmetries", "lex_at_most", "lex_leader_clauses"]


def _rotate(q: int, s: int) -> tuple[int, int]:
    """60 degrees in cube coordinates (q, s, t = -q-s) -> (-s, -t, -q)."""
    return -s, q + s


def _mirror(q: int, s: int) -> tuple[int, int]:
    """Swap the q and s axes (t = -q-s stays)."""
    return s, q


def cell_symmetries(geometry: Hexagon) -> list[np.ndarray]:
    """The 12 symmetries as cell permutations (perm[c] = image of c), identity first.
    Each is checked to map neighbours to neighbours."""
    perms = []
    for mirrored in (False, True):
        for turns in range(6):
            perm = np.empty(geometry.cells, dtype=np.int64)
            for c in range(geometry.cells):
                q, s = int(geometry.q[c]), int(geometry.s[c])
                if mirrored:
                    q, s = _mirror(q, s)
                for _ in range(turns):
                    q, s = _rotate(q, s)
                perm[c] = geometry.index[(q, s)]
            perms.append(perm)
    edges = {(int(u), int(v)) for u, v in geometry.edges}
    for perm in perms:
        for u, v in geometry.edges:
            a, b = int(perm[u]), int(perm[v])
            if (min(a, b), max(a, b)) not in edges:
                raise AssertionError("a hexagon symmetry maps an edge to a non-edge")
    if geometry.n == 1:
        return perms[:1]
    return perms


def lex_at_most(xs: Sequence[int], ys: Sequence[int], new_var: Callable[[], int], clauses: list[list[int]]) -> None:
    """Clauses for xs <=lex ys (false < true), positions with xs[i] == ys[i] skipped.

    e_i ("xs and ys agree on positions < i+1") is forced true when the prefix agrees;
    a solver may leave it false only once xs is already smaller, which frees the rest."""
    pairs = [(a, b) for a, b in zip(xs, ys) if a != b]
    equal = None  # None: the empty prefix, which always agrees
    for i, (a, b) in enumerate(pairs):
        guard = [] if equal is None else [-equal]
        clauses.append(guard + [-a, b])
        if i == len(pairs) - 1:
            break
        nxt = new_var()
        clauses.append(guard + [-a, nxt])
        clauses.append(guard + [b, nxt])
        equal = nxt


def lex_leader_clauses(
    perms: Sequence[np.ndarray],
    cell_order: Sequence[int],
    values: int,
    literal: Callable[[int, int], int],
    new_var: Callable[[], int],
    clauses: list[list[int]],
) -> None:
    """For every non-identity symmetry g: the vector literal(c, v) (v = 1..values, then
    cells in `cell_order`) is at most its image literal(g(c), v)."""
    vector = [(c, v) for v in range(1, values + 1) for c in cell_order]
    xs = [literal(c, v) for c, v in vector]
    for perm in perms:
        if all(int(perm[c]) == c for c in cell_order):
            continue
        ys = [literal(int(perm[c]), v) for c, v in vector]
        lex_at_most(xs, ys, new_var, clauses)
