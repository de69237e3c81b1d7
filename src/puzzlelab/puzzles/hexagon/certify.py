"""Certified UNSAT answers for cube proofs (`hexagon prove --certified`, issue 25).

An UNSAT answer from CaDiCaL is otherwise trusted. Here the solver logs a DRAT proof
(PySAT's `with_proof`: CaDiCaL 1.9.5 writes binary DRAT), and `core.drat`, a checker
that imports no solver, checks it. One incremental solver refutes a run of cubes
under assumptions; after each UNSAT call the clause "not this cube" must follow by
unit propagation from the formula and the proof so far (a goal at that byte of the
proof; lemmas must be RUP: see core.drat.check_drat). The proof is checked every
CHUNK_SECONDS of solving, and the solver is then started afresh with an empty proof,
so a run stopped by its budget loses one chunk at most and no proof grows without end.

Why one solver per run and not a fresh one per cube with the cube as unit clauses (the
plainest certificate): in a one-off measurement (n = 6, level 3, 484 cubes, one loaded
core) the fresh solvers took 70 s of solving against 7.3 s on one incremental solver,
whose proof of all 484 goals (5.2 MB) checked in 15.3 s. What it costs in a proof:
benchmarks/bench_hexagon_certified.py (docs/hexagon.md).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from puzzlelab.core.drat import DratVerdict, check_drat
from puzzlelab.puzzles.hexagon.sat_solver import SOLVER

__all__ = ["CHUNK_SECONDS", "CubeCertificate", "ProofLog"]

CHUNK_SECONDS = 30.0  # of solving, between checks (and fresh solvers) in a certified run


@dataclass(frozen=True)
class CubeCertificate:
    """What one cube's refutation cost: solving seconds, its share of the DRAT proof in
    bytes (the proof written during its call) and of the checking seconds (pro rata to
    its bytes)."""

    solve_seconds: float
    proof_bytes: int
    check_seconds: float

    def as_list(self) -> list[float]:
        return [round(self.solve_seconds, 4), self.proof_bytes, round(self.check_seconds, 4)]


def _proof_file(solver):
    """The file PySAT's solver writes its binary proof to, flushed (PySAT keeps it in
    `prfile`/`prfp`; `get_proof()` would decode it into text line by line)."""
    import pysolvers  # PySAT's C extension

    backend = solver.solver
    pysolvers.flushpr(backend.prfp)
    return backend.prfile


@dataclass
class ProofLog:
    """One proof-logging solver for `clauses` and the cubes refuted on it since its last
    check: `mark` after each UNSAT call, `check` to verify them and start afresh."""

    clauses: list
    solver: object = None
    goals: list = field(default_factory=list)
    patterns: list = field(default_factory=list)
    seconds: list = field(default_factory=list)
    started: float = 0.0

    def __post_init__(self) -> None:
        self.renew()

    def renew(self) -> None:
        from pysat.solvers import Solver

        if self.solver is not None:
            self.solver.delete()
        self.solver = Solver(name=SOLVER, bootstrap_with=self.clauses, with_proof=True)
        self.goals, self.patterns, self.seconds = [], [], []
        self.started = time.perf_counter()

    def mark(self, pattern: str, assumptions: list[int], seconds: float) -> None:
        """The call under `assumptions` just answered UNSAT: their negation is a goal at
        the proof's current end."""
        at = os.fstat(_proof_file(self.solver).fileno()).st_size
        self.goals.append((at, [-lit for lit in assumptions]))
        self.patterns.append(pattern)
        self.seconds.append(seconds)

    def due(self) -> bool:
        return bool(self.patterns) and time.perf_counter() - self.started >= CHUNK_SECONDS

    def proof(self) -> bytes:
        handle = _proof_file(self.solver)
        handle.seek(0)
        return handle.read()

    def check(self, proof: bytes | None = None) -> tuple[DratVerdict | None, dict[str, CubeCertificate]]:
        """Check the goals marked since the last check against the proof (this solver's,
        unless given): (verdict, each refuted cube's certificate), no certificates when
        the check fails, (None, {}) when nothing was marked. `renew` goes on afresh."""
        if not self.patterns:
            return None, {}
        verdict = check_drat(self.clauses, self.proof() if proof is None else proof, binary=True, goals=self.goals, rat=False)
        certificates: dict[str, CubeCertificate] = {}
        if verdict.ok:
            before = 0
            for pattern, (at, _), seconds in zip(self.patterns, self.goals, self.seconds):
                share = (at - before) / max(1, verdict.proof_bytes)
                certificates[pattern] = CubeCertificate(seconds, at - before, verdict.seconds * share)
                before = at
        return verdict, certificates

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None
