"""Certified UNSAT answers for cube proofs (`hexagon prove --certified`).

An UNSAT answer from CaDiCaL is otherwise trusted. Here the solver logs a proof and a
checker that imports no solver checks it: binary LRAT (PROOF_FORMAT "lrat", the
default; core.certificates.lrat) or binary DRAT (PySAT's `with_proof`; core.certificates.drat, which checks
every lemma forwards). One incremental solver refutes a run of cubes under
assumptions; after each UNSAT call the clause "not this cube" must follow by unit
propagation from the formula and the proof so far (a goal at that byte of the proof;
lemmas must be RUP: see core.certificates.drat.check_drat). Every CHUNK_SECONDS of solving, the
bytes the solver wrote since the last check go to an incremental checker
(core.certificates.lrat.LratChecker or core.certificates.drat.DratChecker) with the goals marked since, and the
cubes whose goals follow are certified; the solver goes on with all it learned (a
fresh solver per chunk lost it, and n = 8's hard cubes need it: docs/hexagon.md). So
a run stopped by its budget loses one chunk at most; the checked bytes are cut from
the proof file (it stays sparse, the size of one chunk on disk) and the checker drops
deleted clauses, so neither disk nor memory grows with the proof.

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

from puzzlelab.core.certificates.drat import DratChecker
from puzzlelab.core.certificates.lrat import LratChecker
from puzzlelab.core.certificates.verdict import ProofVerdict
from puzzlelab.puzzles.hexagon.cnf.solver import SOLVER

__all__ = ["CHUNK_SECONDS", "PROOF_FORMAT", "CubeCertificate", "ProofLog"]

CHUNK_SECONDS = 30.0  # of solving, between checks of the proof in a certified run
# CaDiCaL 1.9.5 logs the deletion of the clauses it moves to its extension stack
# (variable elimination, equivalent-literal substitution) but not their restoring when a
# later call assumes such a variable, and then names them as hints: n = 7's certified
# proof was refused at cube 403 for a lemma whose hint had been deleted 500,000 steps
# before (variable 201, assumed by the cubes). Without those two techniques nothing is
# ever restored. Freezing the assumed variables would do it, but PySAT has no `freeze`.
# Blocked-clause, covered-clause and conditioning elimination use the same stack; they
# are off by default and kept off. (PySAT's `configure` ignores an unknown name, so
# the slow test in tests/hexagon/proof/test_hexagon_certified.py is what shows this works.)
NO_RESTORED_CLAUSES = {"elim": 0, "decompose": 0, "block": 0, "cover": 0, "condition": 0}
PROOF_FORMAT = "lrat"  # "lrat" (CaDiCaL's hints, checked by core.certificates.lrat) or "drat" (core.certificates.drat, forwards)


def _solver(clauses: list, proof_format: str):
    """CaDiCaL logging its proof to a temporary file: binary DRAT through PySAT's
    `with_proof`, or binary LRAT: PySAT traces the proof as soon as the solver is made, so
    CaDiCaL's `lrat` option (which must be set before) is set first and the trace
    started here the way PySAT starts it (its `prfile` and `prfp`, which its
    `delete` closes)."""
    import tempfile

    import pysolvers  # PySAT's C extension
    from pysat.solvers import Solver

    if proof_format == "drat":
        solver = Solver(name=SOLVER, with_proof=True)
        solver.solver.configure(NO_RESTORED_CLAUSES)
        solver.append_formula(clauses)
        return solver
    solver = Solver(name=SOLVER)
    backend = solver.solver
    backend.configure({"lrat": 1, "binary": 1, **NO_RESTORED_CLAUSES})
    backend.prfile = tempfile.TemporaryFile()
    backend.prfp = pysolvers.cadical195_tracepr(backend.cadical, backend.prfile)
    solver.append_formula(clauses)
    return solver


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
    """The file PySAT's solver writes its binary proof to, flushed: PySAT keeps it in
    `prfile` and CaDiCaL writes through a C FILE on the same descriptor (`prfp`), which
    buffers; `flushpr` empties that buffer, after which the file holds every step of
    the calls made so far (tests/core/certificates/test_drat_incremental.py checks it)."""
    import pysolvers  # PySAT's C extension

    backend = solver.solver
    pysolvers.flushpr(backend.prfp)
    return backend.prfile


def _proof_end(solver) -> int:
    """The proof's length so far: where CaDiCaL's next step goes (the descriptor's
    offset: the file's size is no guide once its checked bytes are cut, ProofLog.proof)."""
    return os.lseek(_proof_file(solver).fileno(), 0, os.SEEK_CUR)


@dataclass
class ProofLog:
    """One proof-logging solver for `clauses`, kept for the whole run, and a checker
    that follows its proof: `mark` after each UNSAT call, `check` to verify the cubes
    marked since (goals, patterns, seconds: those not yet certified) against the bytes
    the solver wrote since the last check."""

    clauses: list
    solver: object = None
    checker: DratChecker | LratChecker | None = None
    goals: list = field(default_factory=list)
    patterns: list = field(default_factory=list)
    seconds: list = field(default_factory=list)
    started: float = 0.0
    read: int = 0  # bytes of the proof read so far
    handed: int = 0  # of the goals above, those the checker has been given
    certified: int = 0  # goals certified so far
    before: int = 0  # the offset of the last certified goal

    def __post_init__(self) -> None:
        self.solver = _solver(self.clauses, PROOF_FORMAT)
        if PROOF_FORMAT == "drat":
            self.checker = DratChecker(self.clauses, binary=True, rat=False)
        else:
            self.checker = LratChecker(self.clauses, binary=True)
        self.started = time.perf_counter()

    def mark(self, pattern: str, assumptions: list[int], seconds: float) -> None:
        """The call under `assumptions` just answered UNSAT: their negation is a goal at
        the proof's current end."""
        self.goals.append((_proof_end(self.solver), [-lit for lit in assumptions]))
        self.patterns.append(pattern)
        self.seconds.append(seconds)

    def due(self) -> bool:
        return bool(self.patterns) and time.perf_counter() - self.started >= CHUNK_SECONDS

    def proof(self) -> bytes:
        """The proof's bytes since the last read. Those read are then cut from the file
        (ftruncate: the solver writes on at its own offset, so the file becomes sparse
        and its disk use is the bytes not yet read, while offsets stay the proof's)."""
        end = _proof_end(self.solver)
        fd = _proof_file(self.solver).fileno()
        parts = []
        while self.read < end:
            part = os.pread(fd, min(end - self.read, 1 << 26), self.read)
            if not part:
                raise OSError(f"the proof file ends at byte {self.read}, before its end {end}")
            parts.append(part)
            self.read += len(part)
        os.ftruncate(fd, 0)
        return b"".join(parts)

    def check(self, final: bool = False) -> tuple[ProofVerdict | None, dict[str, CubeCertificate]]:
        """Check the goals marked since the last check against the proof's new bytes:
        (verdict, the certificate of each cube whose goal now follows), no certificates
        when the check fails (failed_goal counts from the first cube not certified),
        (None, {}) when nothing was marked. `final`: the proof ends here (the run is
        over), so every goal is settled. The cubes not certified stay marked."""
        if not self.patterns:
            return None, {}
        was = self.checker.progress()
        data = self.proof()
        done = self.checker.feed(data, self.goals[self.handed :], final=final)
        self.handed = len(self.goals)
        seconds = done.seconds - was.seconds
        counts = dict(lemmas=done.lemmas - was.lemmas, deletions=done.deletions - was.deletions, seconds=seconds, proof_bytes=len(data))
        if done.error is not None:
            failed = None if done.failed_goal is None else done.failed_goal - self.certified
            return ProofVerdict(False, done.error, failed_goal=failed, **counts), {}
        k = done.goals - self.certified
        shares = [at - before for (at, _), before in zip(self.goals[:k], [self.before] + [at for at, _ in self.goals[: k - 1]])]
        certificates = {
            pattern: CubeCertificate(solved, share, seconds * share / max(1, sum(shares)))
            for pattern, solved, share in zip(self.patterns[:k], self.seconds[:k], shares)
        }
        if k:
            self.before = self.goals[k - 1][0]
        del self.goals[:k], self.patterns[:k], self.seconds[:k]
        self.handed -= k
        self.certified += k
        self.started = time.perf_counter()
        return ProofVerdict(True, f"{k} goals follow", **counts), certificates

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None
