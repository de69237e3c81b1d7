"""The check that a proof's cubes cover every model of its formula, independent of how
the cubes were made (enumerated, split, resplit, resumed): when it passes, refuting
every cube refutes the formula (proof/cube_and_conquer.py runs it once every cube is refuted)."""

from __future__ import annotations

from puzzlelab.puzzles.hexagon.proof.cubes import cube_assumptions, proof_formula, split_cells

__all__ = ["uncovered_pattern"]


def uncovered_pattern(n: int, level: int, bound: int, symmetry: str, cubes: list[str], conflicts: int = 1_000_000, certified: bool = False) -> str | None:
    """Walk the tree of 1-patterns from the root; a node is covered when it is a cube,
    when plain unit propagation (MiniSat) of the proof formula refutes it, when both its
    children are covered, or, for a node outside every cube, when a CaDiCaL call (at
    most `conflicts`) finds it unsatisfiable. (The cubes were cut with CaDiCaL's
    propagation, which also uses clauses it learned on the way, so plain propagation
    misses a few of its cuts: n = 9, 29 nodes, each UNSAT in well under a second.)
    `certified`: the nodes pruned by propagation and those CaDiCaL refutes are goals
    of a DRAT check (core.certificates.drat: each negated node follows by unit propagation from
    the formula, or from it and CaDiCaL's logged proof); the walk itself is this code.
    Returns the first uncovered pattern, or None when the cubes cover every model."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    leaves = set(cubes)
    prefixes = {c[:i] for c in leaves for i in range(len(c))}
    outside: list[str] = []
    pruned: list[str] = []
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        stack = [""]
        while stack:
            node = stack.pop()
            if node in leaves:
                continue
            ok, _ = solver.propagate(assumptions=cube_assumptions(enc, order, node))
            if not ok:
                pruned.append(node)
                continue
            if node in prefixes:
                stack.extend((node + "0", node + "1"))
            else:
                outside.append(node)
    if certified:
        return _certified_gap(enc, clauses, order, pruned, outside, conflicts)
    if outside:
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for node in outside:
                solver.conf_budget(conflicts)
                if solver.solve_limited(assumptions=cube_assumptions(enc, order, node)) is not False:
                    return node
    return None


def _certified_gap(enc, clauses, order, pruned: list[str], outside: list[str], conflicts: int) -> str | None:
    """The certified half of `uncovered_pattern`: the pruned nodes are goals at the
    proof's start (unit propagation of the formula alone refutes them), the outside
    nodes goals after CaDiCaL's UNSAT call on each; the first node whose refutation
    does not hold or check is returned."""
    from puzzlelab.puzzles.hexagon.proof.certify import ProofLog

    log = ProofLog(clauses)
    try:
        for node in pruned:
            log.goals.append((0, [-lit for lit in cube_assumptions(enc, order, node)]))
            log.patterns.append(node)
            log.seconds.append(0.0)
        for node in outside:
            assumptions = cube_assumptions(enc, order, node)
            log.solver.conf_budget(conflicts)
            if log.solver.solve_limited(assumptions=assumptions) is not False:
                return node
            log.mark(node, assumptions, 0.0)
        patterns = list(log.patterns)
        verdict, _ = log.check(final=True)
        if verdict is not None and not verdict.ok:  # a bad lemma fails them all: name the first
            return patterns[verdict.failed_goal or 0]
    finally:
        log.delete()
    return None
