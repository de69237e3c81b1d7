"""The `sat` method: minimise penalty edges with CaDiCaL 1.9.5 (PySAT's `Cadical195`),
tightening a cardinality bound on one incremental solver until it answers UNSAT
(seed write-up, "Satisfiability Solvers" to "Bounds on Penalties in Rings").

The bound is any PySAT cardinality encoding (`--encoding`) of "count_lits plus K0
dummy literals <= K0", where K0 is one less than the first grid's penalty; forcing j of
the dummies true by *assumption* tightens the bound to K0 - j, so one solver serves the
whole descent and a bound can be loosened again (the proof phase of `--levels` needs
that). With `--levels k` < 5 only the values 1..k are searched (the level-k penalty is a
lower bound on the final one); every level-k grid found is completed by SAT (levels
k+1..5) or, from level 4, by the linear-time argument of `completion/linear.py`; once the
level bound is proven, the level-k grids below the best final penalty are enumerated
and completed one by one, so an exhausted enumeration proves the best final grid
optimal (how the write-up proved n = 11 from level 2).

Each SAT call of the search runs in rounds of ROUND_CONFLICTS conflicts: after a round
it reports the question it is asking (a proof is one call that can run for hours) and
gives up once the budget is over; a call given up proves nothing. CaDiCaL itself cannot
be stopped by a timer, so `run_sat` also runs the search in a worker process
(worker.py) that reports every better grid as it is found; when the budget ends the
worker is terminated if it has not stopped, and the last reported grid is the answer.

`PenaltySearch` is one run: the encoding, one incremental solver, and what the run has
found and proven so far, reported as a `SatSummary` (sat/summary.py) after every change.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget, Progress, Result, Status
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding
from puzzlelab.puzzles.hexagon.cnf.solver import BoundedSolver, descend, penalty_estimate
from puzzlelab.puzzles.hexagon.completion.from_level import complete_partial
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.reference import published_arguments, published_raw
from puzzlelab.puzzles.hexagon.results import grid_figures
from puzzlelab.puzzles.hexagon.sat.summary import Asking, SatCall, SatOptions, SatSummary
from puzzlelab.puzzles.hexagon.scoring import level_penalty, penalty_edges, upper_bound
from puzzlelab.puzzles.hexagon.verify import given_grid
from puzzlelab.puzzles.hexagon.worker import run_in_worker

__all__ = ["PenaltySearch", "sat_search", "sat_task", "run_sat", "result_from_search", "progress_message"]

TARGET_SHARE = 0.25  # of the time left, spent asking for a --target penalty at once: where that
# call stalls (n = 10, -r 5 -I 6 -b 2), the descent needs the rest (728 in 714 s of a 900 s run)
TARGET_CONFLICTS = 300_000  # and never more conflicts than this, however long the budget: the
# call answers early where it answers at all (n = 23 with the published -O list: after 100-150
# thousand conflicts, 19-42 s; n = 11: 3 s) or stalls, where the descent gets there (n = 27,
# -r 4 -I 1 -b 1: no answer in 67 s, then the descent reached 6077 in 162 s). Counted in
# conflicts, not seconds, so that a loaded machine does not cut off the n = 23 answer.
ROUND_CONFLICTS = 50_000  # conflicts per round of a SAT call (a few seconds): progress, budget
SEEDED_ORDERS = 6  # above this order an unrestricted run starts from the published arguments' grid
# (up to 6 it proves the optimum in seconds by itself: auto.SAT_ORDERS)
SEED_SHARE = 0.5  # of the budget, at most, for that first run


class PenaltySearch:
    """Close in on the least (level) penalty of order n under `options` on one
    incremental solver; `report` sees a SatSummary after every change (a better grid, a
    proven bound, a round of a long call)."""

    def __init__(self, n: int, options: SatOptions, *, seed: int = 0, budget: Budget | None = None, report: Callable[[SatSummary], None] | None = None):
        self.n, self.options, self.report = n, options, report
        self.budget = budget or Budget()
        self.started = time.perf_counter()
        self.geometry = hexagon(n)
        self.top = options.levels
        self.target_penalty = None if options.target is None else edge_count(n) - int(options.target)
        self.encoding = HexEncoding(
            self.geometry,
            top=self.top,
            ring=options.ring,
            inner=options.inner,
            allow_at=options.allow_at,
            break_=options.break_,
            symmetry=options.symmetry,
            ladder=options.ladder,
        )
        self.solver = BoundedSolver(self.encoding.clauses, self.encoding.count_lits, self.encoding.n_vars, options.encoding, seed)
        self.steps: list[SatCall] = []
        self.grid: list[int] | None = None
        self.penalty: int | None = None
        self.level_penalty: int | None = None
        self.lower: int | None = None
        self.proven: str | None = None
        self.asking: Asking | None = None

    def summary(self, final: bool = False) -> SatSummary:
        return SatSummary(
            n=self.n,
            level=self.top,
            restricted=self.options.restricted,
            grid=self.grid,
            penalty=self.penalty,
            level_penalty=self.level_penalty,
            lower=self.lower,
            proven=self.proven,
            steps=self.steps,
            variables=self.encoding.n_vars,
            clauses=len(self.encoding.clauses),
            card_clauses=self.solver.card_clauses,
            rebuilds=self.solver.rebuilds,
            final=final,
            asking=self.asking,
            seconds=round(time.perf_counter() - self.started, 3),
        )

    def run(self, start: list[int] | None = None) -> SatSummary:
        """The search to its end (or the budget's); the final summary.

        `start`, a valid grid (unrestricted runs only), is the first upper bound instead
        of the first SAT answer: when it is below the estimate, the next call asks for
        one penalty fewer, so proving a grid optimal (through level k) is one UNSAT call."""
        try:
            upper = self._first_upper(start)
            if upper is None:
                return self.summary(True)
            lower, upper = self._ask_target(upper)
            estimate = penalty_estimate(self.n, self.top)
            lower, upper = descend(self.ask, self.found, upper=upper, estimate=estimate, stop=self.stop, on_unsat=self.proven_lower, lower=lower)
            if lower >= upper:
                self.lower = upper
            if self.lower is not None and self.top < 5 and self.penalty > self.lower and not self.options.lower_only:
                self._enumerate_level_grids()
            if self.lower is not None and self.lower >= self.penalty:
                self.proven = "restricted" if self.options.restricted else "optimal"
            elif self.lower is not None:
                self.proven = "level"
            return self.summary(True)
        finally:
            self.solver.delete()

    def ask(self, bound: int | None, kind: str = "descend", until: Callable[[], bool] | None = None) -> bool | None:
        """One SAT call in rounds of ROUND_CONFLICTS: after each round the question being
        asked is reported (a proof can run for hours with no better grid to show), and
        the call gives up with None once the budget (or `until`) is over."""
        t0 = time.perf_counter()
        conflicts0 = self.solver.conflicts()

        def after_round() -> bool:
            if self.report is not None:
                self.asking = Asking(kind, bound, round(time.perf_counter() - t0, 1), self.solver.conflicts() - conflicts0)
                self._tell()
            return self.budget.expired() or (until is not None and until())

        answer = self.solver.solve_until(bound, after_round, ROUND_CONFLICTS)
        self.asking = None
        self.steps.append(SatCall(kind, bound, answer, round(time.perf_counter() - t0, 3)))
        return answer

    def found(self) -> int:
        """Read the model just found: complete its level grid, keep the grid if better;
        returns its level penalty."""
        partial = self.encoding.decode(self.solver.model())
        level = level_penalty(self.geometry, partial, self.top)
        self.level_penalty = level if self.level_penalty is None else min(level, self.level_penalty)
        self._keep(*complete_partial(self.n, partial, self.top, self.budget))
        return level

    def proven_lower(self, lower: int) -> None:
        self.lower = lower
        self._tell()

    def stop(self) -> bool:
        """The budget is over, or the --target score is reached."""
        reached = self.target_penalty is not None and self.penalty is not None and self.penalty <= self.target_penalty
        return self.budget.expired() or reached

    def _tell(self) -> None:
        if self.report is not None:
            self.report(self.summary(False))

    def _keep(self, grid: list[int], penalty: int) -> None:
        if self.penalty is None or penalty < self.penalty:
            self.grid, self.penalty = grid, penalty
            self._tell()

    def _first_upper(self, start: list[int] | None) -> int | None:
        """The first upper bound on the level penalty: the start grid's, else the first
        SAT answer's; None when there is none (out of time, or no grid: infeasible)."""
        if start is not None:
            if self.options.restricted:
                raise ValueError("a start grid bounds only unrestricted runs (no --ring or --break)")
            self.grid, self.penalty = list(start), len(penalty_edges(self.geometry, start))
            self.level_penalty = level_penalty(self.geometry, start, self.top)
            self._tell()
            return self.level_penalty
        first = self.ask(None, "first")
        if first is None:  # out of time before any grid
            return None
        if not first:
            self.proven = "infeasible"
            return None
        return self.found()

    def _ask_target(self, upper: int) -> tuple[int, int]:
        """(lower, upper) after asking for the --target penalty at once, stopping after
        part of the time or after TARGET_CONFLICTS conflicts, whichever comes first: one
        call at the published penalty is the published program's run (n = 11: 3 s CPU
        against 10 s for the step-by-step descent), but on hard settings (n = 10, -r 5
        -I 6 -b 2; n = 6, -b 2: nothing in 7 s CPU where the descent had 225) it can
        stall, and then the descent takes over for the rest (TARGET_SHARE)."""
        target = self.target_penalty
        if target is None or upper <= target or self.stop():
            return 0, upper
        budget = self.budget
        phase_end = (time.perf_counter() + budget.seconds_left() * TARGET_SHARE) if budget.limited else float("inf")
        conflicts_end = self.solver.conflicts() + TARGET_CONFLICTS
        answer = self.ask(target, "target", until=lambda: time.perf_counter() > phase_end or self.solver.conflicts() >= conflicts_end)
        if answer:
            return 0, min(upper, self.found())
        if answer is False:
            self.proven_lower(target + 1)
            return target + 1, upper
        return 0, upper

    def _enumerate_level_grids(self) -> None:
        """Levels < 5: list the level grids below the best final penalty and complete
        each; an exhausted list proves the best grid optimal."""
        while not self.stop():
            answer = self.ask(self.penalty - 1, "enumerate")
            if answer is None:
                break
            if not answer:
                self.lower = self.penalty
                break
            partial = self.encoding.decode(self.solver.model())
            self._keep(*complete_partial(self.n, partial, self.top, self.budget))
            self.solver.add_clause(self.encoding.block(partial))


def sat_search(
    n: int,
    options: SatOptions | Mapping[str, Any] | None,
    *,
    seed: int = 0,
    budget: Budget | None = None,
    report: Callable[[SatSummary], None] | None = None,
    start: list[int] | None = None,
) -> SatSummary:
    """One search (see PenaltySearch.run); `options` typed or in the keyword form."""
    return PenaltySearch(n, SatOptions.of(options), seed=seed, budget=budget, report=report).run(start)


def sat_task(n: int, options: SatOptions, seed: int, start: list[int] | None = None, *, budget: Budget | None = None, interim=None) -> SatSummary:
    """Worker side of one search (module-level so any backend ships it by name).
    `budget`/`interim` come with context=True tasks; a backend that passes neither still
    gets the final summary (the search then runs until done or its `target`)."""
    return sat_search(n, options, seed=seed, budget=budget, report=interim, start=start)


def run_sat(instance: HexInstance, *, budget: Budget, progress, seed: int = 0, published_start: bool = True, **options: Any) -> Result:
    """Method entry: the search in a worker process under the budget. A given grid (the
    instance's start) is the first upper bound: `solve grid.txt --method sat --levels 3`
    tries to prove it optimal through level 3. `published_start`: an unrestricted
    whole-puzzle run of an order above SEEDED_ORDERS first runs the published
    arguments (`_published_start`) and starts from their grid."""
    n = instance.n
    sat_options = SatOptions.of(options)
    _check_options(n, sat_options)
    started = time.perf_counter()

    def on_interim(summary: SatSummary) -> None:
        progress(Progress(phase="sat", message=progress_message(summary), best=summary.raw))

    start = given_grid(instance, "to start from")
    if start is not None and sat_options.restricted:
        raise InvalidInstance("a given grid bounds only unrestricted sat runs: drop --ring/--break, or use --method improve", "grid")
    seeded = None
    if start is None and published_start:
        seeded = _published_start(n, sat_options, seed, budget, on_interim)
        start = None if seeded is None else seeded.grid
    summary = run_in_worker(sat_task, (n, sat_options, seed, start), budget, on_interim)
    result = result_from_search(n, summary, sat_options, "sat", time.perf_counter() - started)
    if seeded is not None:
        result.stats["started_from"] = f"published arguments {SatOptions.of(published_arguments(n)).describe_restrictions()}: raw {seeded.raw} in {seeded.seconds:.1f} s"
    return result


def _published_start(n: int, options: SatOptions, seed: int, budget: Budget, on_interim) -> SatSummary | None:
    """For an unrestricted whole-puzzle run of order n > SEEDED_ORDERS: the summary of
    a run with the published arguments (their ring, inner and break restrictions),
    stopped at the published score or after SEED_SHARE of the budget, when it found a
    grid. Why: n = 7 unrestricted did not reach 325 in 120 s, where the published
    arguments reach it in 3 s; the unrestricted search then goes on below that grid
    (its next call asks for one penalty fewer: the proof that it is optimal)."""
    arguments = published_arguments(n)
    if n <= SEEDED_ORDERS or not arguments or options.restricted or options.levels != 5:
        return None
    raw = published_raw(n) if options.target is None else options.target
    phase = SatOptions.of(dict(arguments, target=raw, encoding=options.encoding))
    summary = run_in_worker(sat_task, (n, phase, seed, None), budget.sub(fraction=SEED_SHARE), on_interim)
    return summary if summary is not None and summary.grid is not None else None


def result_from_search(n: int, summary: SatSummary | None, options: SatOptions | Mapping[str, Any], method: str, seconds: float) -> Result:
    """A Result from a search summary (final, or the last interim of a stopped run)."""
    options = SatOptions.of(options)
    if summary is None or summary.grid is None:
        infeasible = summary is not None and summary.proven == "infeasible"
        status = Status.INFEASIBLE if infeasible and not summary.restricted else Status.UNKNOWN
        stats: dict[str, Any] = {"seconds": round(seconds, 3)}
        if infeasible:
            stats["proven"] = f"no grid within {options.describe_restrictions()}"
        return Result(None, None, status, method, bound=upper_bound(n), stats=stats)
    raw, figures = grid_figures(n, summary.grid)
    stats = {
        "seconds": round(seconds, 3),
        **figures,
        "level": summary.level,
        "level_penalty": summary.level_penalty,
        "steps": len(summary.steps),
        "sat_calls": [step.to_dict() for step in summary.steps],
        "variables": summary.variables,
        "clauses": summary.clauses,
    }
    lower = summary.lower
    bound = upper_bound(n)
    status = Status.FEASIBLE
    if summary.final and summary.proven == "optimal":
        status, bound = Status.OPTIMAL, raw
        stats["proven"] = "optimal"
    elif summary.restricted and lower is not None:
        what = "best" if lower >= figures["penalty"] else f"no grid with fewer than {lower} penalties (level {summary.level})"
        stats["proven"] = f"{what} within {options.describe_restrictions()}"
    elif lower is not None:
        bound = edge_count(n) - lower
        stats["proven"] = f"level-{summary.level} penalty >= {lower}, so raw score <= {bound}"
    return Result(raw, format_grid(n, summary.grid), status, method, bound=bound, stats=stats)


def progress_message(summary: SatSummary) -> str:
    """E.g. 'penalty 20 (level 3 proven >= 18); descend: <= 19 penalties at level 3,
    1.20M conflicts, 95 s'."""
    parts = ["no grid yet" if summary.penalty is None else f"penalty {summary.penalty}"]
    if summary.lower is not None:
        parts[0] += f" (level {summary.level} proven >= {summary.lower})"
    asking = summary.asking
    if asking is not None:
        question = "any grid" if asking.bound is None else f"<= {asking.bound} penalties at level {summary.level}"
        parts.append(f"{asking.kind}: {question}, {asking.conflicts / 1e6:.2f}M conflicts, {asking.seconds:.0f} s")
    return "; ".join(parts)


def _check_options(n: int, options: SatOptions) -> None:
    if options.ring is None and (options.inner or options.allow_at):
        raise InvalidInstance("options --inner and --allow-at restrict penalties beyond --ring: give --ring too", "ring")
    for distance in options.allow_at:
        if not 2 <= distance <= 2 * n - 1:
            raise InvalidInstance(f"option --allow-at: edge distances run from 2 to {2 * n - 1} at order {n}, got {distance}", "allow_at")
