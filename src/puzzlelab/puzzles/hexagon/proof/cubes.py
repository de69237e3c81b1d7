"""The cubes of a cube-and-conquer proof that "no level-k grid of order n has at most
B penalty edges" (the proof itself: proof/cube_and_conquer.py).

The formula: the rule at level k, lex-leader symmetry breaking and "at most B penalty
edges" as a fixed cardinality constraint. The cubes: every assignment of "holds a 1" to
the `depth` cells nearest the centre (centre first, ring by ring) that unit propagation
of the whole formula does not refute at once. A pruned branch has no model, so the cubes
cover every model: when every cube is UNSAT, so is the formula, and the level-k penalty
(hence the final one) is at least B + 1 (Heule, Kullmann, Wieringa and Biere, "Cube and
Conquer", HVC 2011). A cube is a pattern of '1' (holds a 1) and '0' (does not) over the
first cells of `split_cells`.
"""

from __future__ import annotations

import hashlib

from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.model import hexagon

__all__ = ["proof_formula", "formula_digest", "split_cells", "cube_assumptions", "extend_cube", "enumerate_cubes"]


def proof_formula(n: int, level: int, bound: int, symmetry: str = "lex", encoding: str = "totalizer"):
    """(HexEncoding, clauses): the rule at `level`, symmetry breaking, and 'at most
    `bound` penalty edges' as a fixed cardinality constraint."""
    from pysat.card import CardEnc, EncType

    enc = HexEncoding(hexagon(n), top=level, symmetry=symmetry)
    card = CardEnc.atmost(enc.count_lits, bound=bound, top_id=enc.n_vars, encoding=getattr(EncType, encoding))
    return enc, enc.clauses + card.clauses


def formula_digest(clauses) -> str:
    """A short fingerprint of the clause list: a checkpoint only resumes its own formula."""
    h = hashlib.sha256()
    for clause in clauses:
        h.update((" ".join(map(str, clause)) + "\n").encode())
    return h.hexdigest()[:16]


def split_cells(n: int, depth: int | None = None) -> list[int]:
    """The cells the cubes decide, in order: centre first, then ring by ring outwards
    (all of them when depth is None; a pattern of length d decides the first d)."""
    g = hexagon(n)
    order = sorted(range(g.cells), key=lambda c: (-int(g.ring[c]), c))
    if depth is None:
        return order
    if not 1 <= depth <= g.cells:
        raise ValueError(f"depth: expected 1..{g.cells} cells, got {depth}")
    return order[:depth]


def cube_assumptions(enc: HexEncoding, order: list[int], pattern: str) -> list[int]:
    """The literals a pattern assumes: cell order[i] holds a 1 or does not."""
    return [enc.x(c, 1) if bit == "1" else -enc.x(c, 1) for c, bit in zip(order, pattern)]


def extend_cube(solver, enc: HexEncoding, order: list[int], pattern: str, depth: int) -> list[str]:
    """The extensions of `pattern` to `depth` cells that unit propagation does not
    refute (depth first, '1' before '0'); they cover every model of the pattern."""
    found: list[str] = []
    stack = [pattern]
    while stack:
        cube = stack.pop()
        ok, _ = solver.propagate(assumptions=cube_assumptions(enc, order, cube))
        if not ok:
            continue
        if len(cube) >= depth:
            found.append(cube)
            continue
        stack.append(cube + "0")  # popped second: '1' branches come first
        stack.append(cube + "1")
    return found


def enumerate_cubes(n: int, level: int, bound: int, depth: int, symmetry: str = "lex") -> list[str]:
    """Every pattern over the first `depth` cells of `split_cells` that unit
    propagation does not refute."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    if not 1 <= depth <= len(order):
        raise ValueError(f"depth: expected 1..{len(order)} cells, got {depth}")
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return extend_cube(solver, enc, order, "", depth)
