"""`puzzlelab hexagon prove`: settle a claim "no grid of order n scores above R".

The claim holds when no level-k grid has E - R - 1 or fewer penalty edges (E = edges;
the level-k penalty never exceeds the final one, seed write-up "Level by Level": n = 8
and 9 need level 3, where the published level-3 minimum equals the final penalty).
`cube_proof.prove_below` does the SAT work; for small orders `run_dp_proof` asks the
row DP instead (rowdp/dp.py: exact, no solver; n = 7 at level 4 in under a minute where
one UNSAT call took 1298 s). What this module adds is what a user reads:

- proven: the bound, and, when a grid of exactly R is found by `sat` with the
  published arguments and passes the independent verifier, "R is optimal", with a
  Result of status optimal for the records store;
- a counterexample: the level grid is checked with the scorer (rule and level
  penalty, `verify.rule_violation` and `scoring.level_penalty`, which import no
  solver), completed to a whole grid and verified; a whole grid above R is a record;
- unfinished: how many cubes are left, and that the same command resumes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from puzzlelab.core.result import Budget, Result, Status, no_progress
from puzzlelab.puzzles.hexagon.completion.from_level import complete_partial
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.proof import certify
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import Counterexample, ProofSummary, prove_below
from puzzlelab.puzzles.hexagon.reference import level_table, published_arguments
from puzzlelab.puzzles.hexagon.rowdp.dp import TooLarge, grids_within
from puzzlelab.puzzles.hexagon.rowdp.tables import CheckpointMismatch, DPCheckpoint
from puzzlelab.puzzles.hexagon.sat.search import run_sat
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import checked, rule_violation, verify_grid

__all__ = ["run_proof", "run_dp_proof", "DP_MAX_ORDER", "proof_level", "check_counterexample", "ProofReport", "CheckedCounterexample"]

DEFAULT_LEVEL = 3  # where the published level table cannot tell: n = 8 and 9 were proven there
DP_MAX_ORDER = 12  # `prove --method auto` asks the row DP up to here (n = 9: 2 CPU min; n = 10: 14; n = 11: 17; n = 12: 47 CPU min and 5 GB of tables, where the cubes had 569 of 1751 left after 3 h; docs/hexagon.md)


@dataclass
class CheckedCounterexample:
    """A counterexample after the checks: its level penalty and cube, and, when it was
    completed to a whole grid that passed the verifier, that grid and its raw score."""

    level_penalty: int
    pattern: str
    raw: int | None = None
    grid: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level_penalty": self.level_penalty, "pattern": self.pattern}
        if self.grid is not None:
            out.update(raw=self.raw, grid=self.grid)
        return out


@dataclass
class ProofReport:
    """What `prove` tells: the claim, the cubes, `settled` (proven or disproved),
    `optimal` (a verified grid of the claimed score exists too), a `message` for people,
    and `record`: a verified Result worth keeping in the records store, if any."""

    n: int
    claim_raw: int
    level: int
    bound: int
    cubes: int
    refuted: int
    screened: int
    proven: bool
    seconds: float
    total_seconds: float
    checkpoint: str | None
    optimal: bool = False
    settled: bool = False
    counterexample: CheckedCounterexample | None = None
    grid: str | None = None
    message: str = ""
    record: Result | None = None
    certified: bool = False
    proof_bytes: int = 0
    solve_seconds: float = 0.0
    check_seconds: float = 0.0
    certificate_failure: str | None = None
    certified_here: int = 0
    refuted_here: int = 0
    method: str = "cubes"

    def to_dict(self) -> dict[str, Any]:
        """The JSON `prove --json` prints."""
        out: dict[str, Any] = {
            "n": self.n,
            "claim_raw": self.claim_raw,
            "level": self.level,
            "bound": self.bound,
            "cubes": self.cubes,
            "refuted": self.refuted,
            "refuted_here": self.refuted_here,
            "screened": self.screened,
            "proven": self.proven,
            "optimal": self.optimal,
            "settled": self.settled,
            "seconds": self.seconds,
            "total_seconds": self.total_seconds,
            "checkpoint": self.checkpoint,
            "certified": self.certified,
            "method": self.method,
        }
        if self.certified:
            out.update(
                proof_bytes=self.proof_bytes,
                solve_seconds=self.solve_seconds,
                check_seconds=self.check_seconds,
                certificate_failure=self.certificate_failure,
                certified_here=self.certified_here,
            )
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample.to_dict()
        if self.grid is not None:
            out["grid"] = self.grid
        out["message"] = self.message
        return out


def proof_level(n: int, bound: int) -> int:
    """The lowest level whose published minimum penalty is above `bound`, so that a
    proof there can succeed (seed write-up, "Level by Level": the fewer values a level
    places, the smaller the formula; n = 7 needs level 4, its level-3 minimum 16 being
    the bound of the claim 325, while n = 11 needs only level 2). DEFAULT_LEVEL where
    the table has no such level (no row, or a claim beyond every published minimum)."""
    row = level_table().get(n)
    if row is None:
        return DEFAULT_LEVEL
    for level, minimum in zip((1, 2, 3, 4), row):
        if minimum > bound:
            return level
    return DEFAULT_LEVEL


def check_counterexample(n: int, level: int, bound: int, grid: list[int]) -> int:
    """The level penalty of a level grid the solver called a counterexample, after the
    independent checks; raises AssertionError when the grid is not one (a solver bug)."""
    capped = [min(int(v), level + 1) for v in grid]
    problem = rule_violation(n, capped)
    if problem is not None:
        raise AssertionError(f"cube counterexample breaks the rule: {problem}")
    penalty = level_penalty(hexagon(n), capped, level)
    if penalty > bound:
        raise AssertionError(f"cube counterexample has {penalty} level-{level} penalties, above {bound}")
    return penalty


def run_proof(
    n: int,
    raw: int,
    *,
    level: int = 3,
    screen: bool = True,
    screen_levels: tuple[int, ...] | None = None,
    budget: Budget | None = None,
    checkpoint: str | None = None,
    grid_budget: float = 120.0,
    progress: Callable[[ProofSummary], None] | None = None,
    **cube_options: Any,
) -> ProofReport:
    """Run (or resume) the proof of the claim. `screen`: first refute what cubes the
    lower levels can (refute.screen_cubes): the levels in `screen_levels` (default all
    below `level`); the other cube_proof.CubeOptions (depth, workers, screen_method,
    cube_method, resplit ...) by keyword. `grid_budget`: seconds for the sat search for
    a grid of the claimed score once the bound is proven."""
    bound = edge_count(n) - raw - 1
    if not screen or (cube_options.get("certified") and screen_levels is None):
        screen_levels = ()  # a certified proof has no screens unless asked (and then refuses them)
    elif screen_levels is None:
        screen_levels = tuple(range(1, level))
    summary = prove_below(n, level, bound, budget=budget, checkpoint=checkpoint, progress=progress, screen_levels=tuple(screen_levels), **cube_options)
    report = ProofReport(
        n, raw, level, bound, summary.cubes, summary.refuted, summary.screened, summary.proven, summary.seconds, summary.total_seconds, checkpoint
    )
    report.certified, report.certificate_failure = summary.certified, summary.certificate_failure
    report.proof_bytes, report.solve_seconds, report.check_seconds = summary.proof_bytes, summary.solve_seconds, summary.check_seconds
    report.certified_here, report.refuted_here = summary.certified_here, summary.refuted_here
    question = f"no level-{level} grid of order {n} with at most {bound} penalty edges"
    if summary.certified:
        question += " (certified: every cube's UNSAT with a checked certificate)"
    if summary.certificate_failure is not None:
        report.message = f"not proven: a certificate was refused ({summary.certificate_failure}); {summary.refuted} of {summary.cubes} cubes refuted with checked certificates"
    elif summary.counterexample is not None:
        _disproved(report, summary.counterexample, grid_budget)
    elif not summary.proven:
        report.message = (
            f"not finished: {summary.refuted} of {summary.cubes} cubes refuted ({question}), "
            f"{summary.total_seconds:.0f} s in all; run the same command to resume from {checkpoint}"
        )
    else:
        _proven(report, question, grid_budget)
    return report


def run_dp_proof(n: int, raw: int, *, level: int = 3, budget: Budget | None = None, grid_budget: float = 120.0,
                 checkpoint: str | None = None, progress: Callable[[dict], None] | None = None) -> ProofReport:
    """The claim settled by the row DP: its min passes of levels 1..k under the bound
    keep every partial grid that can still end within it, so an empty table is a proof
    and a surviving state walks to a level grid (checked, then completed as a
    counterexample: several are tried, as one may complete to a lower score than
    another). With a checkpoint folder a run stopped by its budget keeps every finished
    step, and the same call resumes (rowdp/tables.py)."""
    bound = edge_count(n) - raw - 1
    report = ProofReport(n, raw, level, bound, 0, 0, 0, False, 0.0, 0.0, checkpoint, method="row-dp")
    earlier = _settled_before(checkpoint, n, bound, level)
    started = time.perf_counter()
    try:
        grids = grids_within(n, level, bound, budget=budget, checkpoint=checkpoint, progress=progress)
    except TooLarge as exc:
        report.seconds = report.total_seconds = time.perf_counter() - started
        kept = f"; every finished step is kept in {checkpoint}: run again to resume" if checkpoint else ""
        report.message = f"not finished: the row DP stopped ({exc}){kept}; raise --budget, or use --method cubes"
        return report
    report.seconds = report.total_seconds = time.perf_counter() - started
    for grid in grids:  # lowest level penalty first; the first one completed above the claim settles it
        _disproved(report, Counterexample(pattern="row DP", grid=grid), grid_budget / len(grids))
        if report.settled:
            break
    if grids:
        return report
    report.proven = True
    question = f"no level-{level} grid of order {n} with at most {bound} penalty edges"
    if earlier:
        question += f"; settled by an earlier run whose record is {checkpoint}, not derived again now (remove it to derive it again)"
    _proven(report, question, grid_budget)
    return report


def _settled_before(checkpoint: str | None, n: int, bound: int, level: int) -> bool:
    """Whether the DP's folder already says, before this run, that no level grid is
    within the bound (its tables are gone then: only its manifest says so)."""
    if checkpoint is None or not (Path(checkpoint) / "manifest.json").is_file():
        return False
    try:
        return DPCheckpoint(Path(checkpoint), n, bound).settles(level)
    except CheckpointMismatch:
        return False  # grids_within refuses the folder, saying why


def _disproved(report: ProofReport, counterexample: Counterexample, grid_budget: float) -> None:
    """A cube holds a level grid within the bound: check it, complete it to a whole grid
    and verify that. A whole grid above the claim disproves it (kept as a record);
    otherwise the claim is not settled: the level is too low to prove it (n = 7 at
    level 3, whose minimum 16 is the bound of the claim 325), and a higher --level may."""
    n, level = report.n, report.level
    level_pen = check_counterexample(n, level, report.bound, counterexample.grid)
    report.counterexample = checked_example = CheckedCounterexample(level_pen, counterexample.pattern)
    found = f"a level-{level} grid with {level_pen} penalty edges exists (checked)"
    full, _ = complete_partial(n, [min(int(v), level + 1) for v in counterexample.grid], level, Budget(grid_budget))
    text = format_grid(n, full)
    verdict = verify_grid(HexInstance(n), text)
    if verdict.ok:
        checked_example.raw, checked_example.grid = verdict.value, text
    if verdict.ok and verdict.value > report.claim_raw:
        report.settled = True
        report.message = f"claim fails: {found}; completed to a verified grid of raw {verdict.value}, above the claimed {report.claim_raw}"
        report.record = Result(verdict.value, text, Status.FEASIBLE, "prove", bound=None, stats={"found_by": "cube counterexample"}, verdict=verdict)
        return
    completed = f"completed, it scores raw {verdict.value}" if verdict.ok else "it was not completed to a whole grid"
    report.message = (
        f"not settled at level {level}: {found}, within the bound {report.bound}, so level {level} cannot prove "
        f"raw {report.claim_raw} optimal ({completed}); try a higher --level (5 = the whole puzzle)"
    )


def _proven(report: ProofReport, question: str, grid_budget: float) -> None:
    """The bound holds: look for a verified grid of exactly the claimed score, which
    makes the claim the optimum."""
    n, raw = report.n, report.claim_raw
    report.settled = True
    message = (
        f"proven: {question} ({_how(report)}, {report.total_seconds:.0f} s in all), "
        f"so every grid has at least {report.bound + 1} penalty edges and raw score at most {raw}"
    )
    if report.certified:
        message += (
            f"; certificates: {report.proof_bytes / 1e6:.1f} MB of {certify.PROOF_FORMAT.upper()}, {report.solve_seconds:.1f} s solving, "
            f"{report.check_seconds:.1f} s checking (core.{certify.PROOF_FORMAT}), cover checked by it too"
        )
        if report.certified_here < report.refuted:
            message += (
                f"; {report.certified_here} of the {report.refuted} cubes were certified by this run, the other "
                f"{report.refuted - report.certified_here} by earlier runs whose checks {report.checkpoint} records (certificates are not kept: not re-checked)"
            )
    elif report.method == "cubes" and report.refuted_here < report.refuted:
        message += (
            f"; {report.refuted - report.refuted_here} of the {report.refuted} cubes were refuted by earlier runs "
            f"whose record is {report.checkpoint}, not refuted again now"
        )
    found = _grid_of_score(n, raw, grid_budget)
    if found.verified and found.value > raw:  # a checked grid the proof says cannot exist
        report.settled = report.proven = False
        source = f"the checkpoint {report.checkpoint} it rests on is damaged or edited" if report.checkpoint else "this is a bug: please report it"
        report.message = (
            f"contradiction, nothing proven: the proof says {question}, so no grid above raw {raw}, "
            f"but the sat search found a verified grid of raw {found.value}; {source}"
        )
        report.record = Result(found.value, found.solution, Status.FEASIBLE, "prove", bound=None, stats=dict(found.stats), verdict=found.verdict)
        return
    if not (found.verified and found.value == raw):
        best = "no grid" if not found.verified else f"raw {found.value}"
        message += f"; the sat search (at most {grid_budget:.0f} s) found {best}, not {raw}, so {raw} is not shown optimal"
    else:
        report.optimal, report.grid = True, found.solution
        message += f"; a verified grid of raw {raw} exists, so {raw} is optimal"
        stats = dict(found.stats, proven=f"optimal: {question} ({_how(report)})", proof_seconds=report.total_seconds)
        report.record = Result(raw, found.solution, Status.OPTIMAL, "prove", bound=raw, stats=stats, verdict=found.verdict)
    report.message = message


def _how(report: ProofReport) -> str:
    return f"cube-and-conquer, {report.cubes} cubes refuted" if report.method == "cubes" else "row DP: no partial grid within the bound survives"


def _grid_of_score(n: int, raw: int, budget: float) -> Result:
    """The `sat` method with the published arguments, stopping at `raw`: a verified
    grid of exactly `raw` when it finds one."""
    instance = HexInstance(n)
    options = dict(published_arguments(n), target=raw)
    return checked(instance, run_sat(instance, budget=Budget(budget), progress=no_progress, seed=0, **options))
