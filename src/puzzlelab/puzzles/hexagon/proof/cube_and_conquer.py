"""Cube-and-conquer proofs of lower bounds: "no level-k grid of order n has at most B
penalty edges", split into many small SAT calls that worker processes (or a Ray
cluster) refute side by side, with a checkpoint so a proof of hours survives a stop.

Why: a proof is one UNSAT call, and one CaDiCaL call neither uses a second core nor
survives an interruption (n = 8 at level 3, "at most 19": 4 million conflicts in
3356 s with no answer). The write-up proved n <= 11 with single calls of up to hours
(seed write-up, "Breaking Symmetry" and "Level by Level"); cube-and-conquer (Heule,
Kullmann, Wieringa and Biere, "Cube and Conquer", HVC 2011) is the standard way to
spread such a call.

The pieces: the cubes (proof/cubes.py), the tasks that refute and screen them (proof/refute.py),
the checkpoint (proof/cube_checkpoint.py) and the cover check (proof/cover.py). This module runs them:
screening passes at lower levels first, then rounds of refuting tasks in which a cube
that proved hard comes back split and its pieces are shared out. The checkpoint holds
the formula's digest, the cube list and the refuted cubes; a later run with the same
question resumes where the last one stopped, and refuses a checkpoint of another formula.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from puzzlelab.core.parallel import Outcome, Task, default_workers, run_tasks
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.fields import FieldsByName
from puzzlelab.puzzles.hexagon.proof.cover import uncovered_pattern
from puzzlelab.puzzles.hexagon.proof.cube_checkpoint import Checkpoint
from puzzlelab.puzzles.hexagon.proof.cubes import enumerate_cubes, extend_cube, formula_digest, proof_formula, split_cells
from puzzlelab.puzzles.hexagon.proof.refute import (
    SCREEN_CONFLICTS,
    SPLIT_CONFLICTS,
    Refuted,
    RefuteOutcome,
    ScreenOutcome,
    check_method,
    refute_cubes,
    screen_cubes,
)

__all__ = ["CubeOptions", "Counterexample", "ProofSummary", "CubeProof", "prove_below", "guided_runs", "resplit_open", "GUIDED_FACTOR"]

GUIDED_FACTOR = 3  # each run takes 1/(factor x workers) of the cubes left: long runs first, short last
SAVE_SECONDS = 5.0  # the checkpoint is written at most this often while cubes fall


@dataclass(frozen=True)
class CubeOptions:
    """How a proof runs: `depth` cells decided by the first cubes; a cube taking more
    than `split_conflicts` conflicts is split three cells deeper (None: never); each of
    `screen_levels` (below the proof's) gets a pass over the open cubes first
    (`screen_method` "sat": CaDiCaL, `screen_conflicts` per cube; "maxsat": a
    core-guided bound per cube, capped at `screen_seconds` if given); `cube_method` the
    same choice at the proof's level; `resplit` > 0 first splits every open cube that
    many cells deeper and screens the pieces, `resplit_rounds` times at most; the tasks
    run on `workers` local processes or a Ray cluster (`backend`, `address`);
    `certified`: every refutation comes with a DRAT proof that core.certificates.drat checks
    (proof/certify.py), at the proof's level only (screens and MaxSAT give no certificate)."""

    depth: int = 14
    symmetry: str = "lex"
    workers: int | None = None
    split_conflicts: int | None = SPLIT_CONFLICTS
    screen_levels: tuple[int, ...] = ()
    screen_conflicts: int = SCREEN_CONFLICTS
    screen_method: str = "sat"
    cube_method: str = "sat"
    resplit: int = 0
    resplit_rounds: int = 1
    screen_seconds: float | None = None
    backend: str = "local"
    address: str | None = None
    certified: bool = False


@dataclass(frozen=True)
class Counterexample(FieldsByName):
    """A cube found satisfiable: its pattern and the level grid (unchecked: the caller
    verifies it)."""

    pattern: str
    grid: list[int]


@dataclass
class ProofSummary(FieldsByName):
    """Where a proof stands: cubes, refuted, refuted_here (those refuted by this run:
    the rest are the checkpoint's record of earlier runs), open, screened (refuted by
    the lower levels in this run), proven, a counterexample, seconds (this run) and total_seconds (all
    runs of the checkpoint); cover_checked once the cover check has passed. Certified:
    proof_bytes, solve_seconds and check_seconds summed over the refuted cubes' DRAT
    certificates (all runs), and certificate_failure when one was refused; certified_here:
    the refuted cubes whose certificates this run checked (the others' were checked by
    earlier runs, whose figures the checkpoint keeps: the certificates themselves are
    not kept, so nothing can check them again)."""

    n: int
    level: int
    bound: int
    depth: int
    cubes: int = 0
    refuted: int = 0
    refuted_here: int = 0
    open: int = 0
    screened: int = 0
    proven: bool = False
    counterexample: Counterexample | None = None
    seconds: float = 0.0
    total_seconds: float = 0.0
    cover_checked: bool = False
    certified: bool = False
    proof_bytes: int = 0
    solve_seconds: float = 0.0
    check_seconds: float = 0.0
    certified_here: int = 0
    certificate_failure: str | None = None


def guided_runs(cubes: list[str], workers: int) -> list[list[str]]:
    """Consecutive runs of cubes, each a 1/(GUIDED_FACTOR x workers) share of those
    left (OpenMP's 'guided' schedule): neighbouring cubes share what a solver learns,
    and the short runs at the end keep every worker busy until the last cube (n = 8 in
    even runs of 80 cubes: one worker spent its last 300 s alone on a hard run)."""
    runs, start = [], 0
    while start < len(cubes):
        size = max(1, -(-(len(cubes) - start) // (GUIDED_FACTOR * workers)))
        runs.append(cubes[start : start + size])
        start += size
    return runs


def resplit_open(state: Checkpoint, n: int, level: int, bound: int, symmetry: str, extra: int) -> int:
    """Split every open cube `extra` cells deeper (its extensions that unit propagation
    keeps, which cover it), and forget the screening passes: the pieces have not been
    screened. Why: a cube left open by every screen holds lower-level grids within the
    bound, but most of its pieces do not (n = 9: 30 of the 36 pieces of the cube
    "centre 1, no other 1 among the 13 next cells" fell at level 1 in about 3 s each).
    Returns the number of cubes split."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    todo = [c for c in state.open_cubes() if len(c) + extra <= len(order)]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for parent in todo:
            state.split(parent, extend_cube(solver, enc, order, parent, len(parent) + extra))
    if todo:
        state.screened = []
    return len(todo)


def _refute_task(n, level, bound, symmetry, patterns, split_conflicts, method, certified, *, budget, interim) -> RefuteOutcome:
    return refute_cubes(n, level, bound, symmetry, patterns, split_conflicts=split_conflicts, method=method, budget=budget, interim=interim, certified=certified)


def _screen_task(n, level, bound, patterns, conflicts, method, seconds, *, budget, interim) -> ScreenOutcome:
    return screen_cubes(n, level, bound, patterns, conflicts=conflicts, method=method, seconds=seconds, budget=budget, interim=interim)


def _found_grid(outcome: Outcome) -> bool:
    """A counterexample, or a refused certificate: either ends the run."""
    return isinstance(outcome.value, RefuteOutcome) and (outcome.value.grid is not None or outcome.value.certificate_failure is not None)


class CubeProof:
    """One run of a proof: the checkpoint's state, the worker tasks, the summary."""

    def __init__(self, n: int, level: int, bound: int, options: CubeOptions, *, budget: Budget | None = None, checkpoint: str | os.PathLike | None = None, progress: Callable[[ProofSummary], None] | None = None):
        self.n, self.level, self.bound, self.options = n, level, bound, options
        self.budget = budget or Budget()
        self.checkpoint, self.progress = checkpoint, progress
        self.started = time.perf_counter()
        _, clauses = proof_formula(n, level, bound, options.symmetry)
        question = {"n": n, "level": level, "bound": bound, "depth": options.depth, "symmetry": options.symmetry, "digest": formula_digest(clauses)}
        if options.certified:  # a certified proof keeps its own checkpoint: no trusted refutation counts
            question["certified"] = True
        del clauses
        self.state = Checkpoint(checkpoint, question)
        if self.state.cubes is None:
            self.state.cubes = enumerate_cubes(n, level, bound, options.depth, options.symmetry)
            self.state.save()
        self.summary = ProofSummary(n, level, bound, options.depth, cubes=len(self.state.cubes), certified=options.certified)
        self.workers = max(1, options.workers or default_workers())
        self.last_save = time.perf_counter()
        self.certified_now: set[str] = set()
        self.refuted_before = set(self.state.refuted)

    def run(self) -> ProofSummary:
        """Screen, refute, save; once every cube is refuted, check that they cover every
        model (ValueError if not: then refuting them proves nothing)."""
        self.report()
        try:
            if any(not 1 <= at < self.level for at in self.options.screen_levels):
                raise ValueError(f"screen levels must lie in 1..{self.level - 1}, got {self.options.screen_levels}")
            if self.options.certified and (self.options.screen_levels or self.options.resplit or self.options.cube_method != "sat"):
                raise ValueError("certified: screens, resplit screening and MaxSAT give no certificate; a certified proof refutes every cube with CaDiCaL at its own level")
            self._screen_rounds()
            self._refute_rounds()
        finally:
            self.state.save(self.elapsed())
        if self.state.proven:
            gap = uncovered_pattern(self.n, self.level, self.bound, self.options.symmetry, self.state.cubes, certified=self.options.certified)
            if gap is not None:
                raise ValueError(f"checkpoint {self.checkpoint}: its cubes leave the pattern {gap} uncovered, so refuting them proves nothing")
            self.summary.cover_checked = True
        self.report()
        return self.summary

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def report(self) -> None:
        summary, state = self.summary, self.state
        summary.cubes, summary.refuted = len(state.cubes), len(state.refuted)
        summary.refuted_here = len(state.refuted - self.refuted_before)
        summary.open, summary.proven = summary.cubes - summary.refuted, state.proven
        summary.seconds = round(self.elapsed(), 1)
        summary.total_seconds = round(state.seconds + summary.seconds, 1)
        if summary.certified:
            kept = [state.certificates[c] for c in state.refuted if c in state.certificates]
            summary.solve_seconds = round(sum(k[0] for k in kept), 2)
            summary.proof_bytes = int(sum(k[1] for k in kept))
            summary.check_seconds = round(sum(k[2] for k in kept), 2)
            summary.certified_here = len(self.certified_now & state.refuted)
        if self.progress is not None:
            self.progress(replace(summary))

    def record(self, patterns: list[str]) -> None:
        """Cubes refuted: into the state, into the checkpoint every SAVE_SECONDS."""
        self.state.refuted.update(patterns)
        if time.perf_counter() - self.last_save > SAVE_SECONDS:
            self.state.save(self.elapsed())
            self.last_save = time.perf_counter()
        self.report()

    def _on_interim(self, _index: int, value: Refuted) -> None:
        if value.certificate is not None:
            self.state.certificates[value.refuted] = value.certificate
            self.certified_now.add(value.refuted)
        self.record([value.refuted])

    def _answers(self, tasks: list[Task], stop_when: Callable[[Outcome], bool] | None = None) -> Iterator[Any]:
        """Each task's final answer (None for a task stopped or failed), as they come."""
        o = self.options
        on_interim = self._on_interim if o.backend == "local" else None
        for outcome in run_tasks(tasks, workers=self.workers, budget=self.budget, grace=2.0, stop_when=stop_when, on_interim=on_interim, backend=o.backend, address=o.address):
            yield outcome.value if outcome.ok and not outcome.interim else None

    def _screen_rounds(self) -> None:
        """A screening pass per level not screened yet; with `resplit`, up to
        `resplit_rounds` rounds of "split the open cubes deeper, screen the pieces"
        (n = 9's last cubes took seven such rounds by hand)."""
        o = self.options
        for _ in range(max(1, o.resplit_rounds) if o.resplit else 1):
            if o.resplit:
                if self.state.proven or self.budget.expired() or not resplit_open(self.state, self.n, self.level, self.bound, o.symmetry, o.resplit):
                    break
                self.state.save(self.elapsed())
                self.report()
            for screen_level in o.screen_levels:
                done = self.state.screen_done(screen_level, o.screen_method, o.screen_conflicts, o.screen_seconds)
                if not done and not self.state.proven and not self.budget.expired():
                    self._screen(screen_level)

    def _screen(self, screen_level: int) -> None:
        o = self.options
        before = len(self.state.refuted)
        runs = guided_runs(self.state.open_cubes(), self.workers)
        arguments = (self.n, screen_level, self.bound)
        tasks = [Task(_screen_task, (*arguments, run, o.screen_conflicts, o.screen_method, o.screen_seconds), name=f"screen {screen_level}.{i}", context=True) for i, run in enumerate(runs)]
        complete = True
        for value in self._answers(tasks):
            if not isinstance(value, ScreenOutcome):
                complete = False
                continue
            self.record(value.refuted)
        self.summary.screened += len(self.state.refuted) - before
        if complete and not self.budget.expired():
            self.state.note_screen(screen_level, o.screen_method, o.screen_conflicts, o.screen_seconds)

    def _refute_rounds(self) -> None:
        """Rounds at the proof's level: a cube that proves hard comes back split, and the
        next round shares its pieces among the workers; a round with no progress
        (budget over, workers failing) ends the run, and so does a counterexample."""
        o = self.options
        arguments = (self.n, self.level, self.bound, o.symmetry)
        while not self.state.proven and self.summary.counterexample is None and self.summary.certificate_failure is None and not self.budget.expired():
            before = (len(self.state.refuted), len(self.state.cubes))
            runs = guided_runs(self.state.open_cubes(), self.workers)
            tasks = [Task(_refute_task, (*arguments, run, o.split_conflicts, o.cube_method, o.certified), name=f"cubes {i}", context=True) for i, run in enumerate(runs)]
            for value in self._answers(tasks, stop_when=_found_grid):
                if isinstance(value, RefuteOutcome):
                    self._absorb(value)
            if (len(self.state.refuted), len(self.state.cubes)) == before:
                break

    def _absorb(self, value: RefuteOutcome) -> None:
        for parent, children in value.split.items():
            self.state.split(parent, children)
        self.state.certificates.update(value.certificates)
        # Checked by this run's task: its final answer is all a Ray task sends back (no
        # interim reports), so this, not _on_interim alone, counts them as checked here.
        self.certified_now.update(value.certificates)
        if value.certificate_failure is not None and self.summary.certificate_failure is None:
            self.summary.certificate_failure = value.certificate_failure
        self.record(value.refuted)
        if value.grid is not None and self.summary.counterexample is None:
            self.summary.counterexample = Counterexample(value.pattern, value.grid)


def prove_below(
    n: int,
    level: int,
    bound: int,
    *,
    budget: Budget | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: Callable[[ProofSummary], None] | None = None,
    **options: Any,
) -> ProofSummary:
    """Try to prove 'no level-`level` grid has at most `bound` penalties' by cubes, with
    the CubeOptions given by keyword (depth, workers, screen_levels ...). A finished
    screening pass is noted in the checkpoint as [level, conflicts], conflicts 0 for a
    MaxSAT pass (then its cap, if any). `progress` sees the summary after each change."""
    settings = CubeOptions(**options)
    check_method("screen", settings.screen_method)
    check_method("cube", settings.cube_method)
    if bound < 0:  # a count is never negative: nothing to refute
        return ProofSummary(n, level, bound, settings.depth, proven=True)
    return CubeProof(n, level, bound, settings, budget=budget, checkpoint=checkpoint, progress=progress).run()
