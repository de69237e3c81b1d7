"""The `sat` method: minimise penalty edges with CaDiCaL 1.9.5 (PySAT's `Cadical195`),
tightening a cardinality bound on one incremental solver until it answers UNSAT
(seed write-up, "Satisfiability Solvers" to "Bounds on Penalties in Rings").

The bound is any PySAT cardinality encoding (`--encoding`) of "count_lits plus K0
dummy literals <= K0", where K0 is one less than the first grid's penalty; forcing j of
the dummies true by *assumption* tightens the bound to K0 - j, so one solver serves the
whole descent and a bound can be loosened again (the proof phase of `--levels` needs
that). With `--levels k` < 5 only the values 1..k are searched (the level-k penalty is a
lower bound on the final one); every level-k grid found is completed by SAT (levels
k+1..5) or, from level 4, by the linear-time argument of `completion.py`; once the
level bound is proven, the level-k grids below the best final penalty are enumerated
and completed one by one, so an exhausted enumeration proves the best final grid
optimal (how the write-up proved n = 11 from level 2).

Each SAT call of the search runs in rounds of ROUND_CONFLICTS conflicts: after a round
it reports the question it is asking (a proof is one call that can run for hours) and
gives up once the budget is over; a call given up proves nothing. CaDiCaL itself cannot
be stopped by a timer, so `run_sat` also runs the search in a worker process
(core/parallel.py) that reports every better grid as it is found; when the budget ends
the worker is terminated if it has not stopped, and the last reported grid is the answer.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from puzzlelab.core.result import Budget, Progress, Result, Status
from puzzlelab.puzzles.hexagon.completion import complete_from_level4, split_sixes
from puzzlelab.puzzles.hexagon.model import edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.sat_encoding import HexEncoding
from puzzlelab.puzzles.hexagon.sat_solver import DEFAULT_ENCODING, ENCODINGS, BoundedSolver, PenaltyBound, descend, penalty_estimate
from puzzlelab.puzzles.hexagon.scoring import level_penalty, penalty_edges, upper_bound

__all__ = ["ENCODINGS", "DEFAULT_ENCODING", "PenaltyBound", "sat_search", "given_grid", "complete_partial", "run_sat", "run_in_worker", "result_from_search", "result_from_worker"]

TARGET_SHARE = 0.25  # of the time left, spent asking for a --target penalty at once: where that
# call stalls (n = 10, -r 5 -I 6 -b 2), the descent needs the rest (728 in 714 s of a 900 s run)
TARGET_CONFLICTS = 300_000  # and never more conflicts than this, however long the budget: the
# call answers early where it answers at all (n = 23 with the published -O list: after 100-150
# thousand conflicts, 19-42 s; n = 11: 3 s) or stalls, where the descent gets there (n = 27,
# -r 4 -I 1 -b 1: no answer in 67 s, then the descent reached 6077 in 162 s). Counted in
# conflicts, not seconds, so that a loaded machine does not cut off the n = 23 answer.
ROUND_CONFLICTS = 50_000  # conflicts per round of a SAT call (a few seconds): progress, budget


def complete_partial(n: int, partial: list[int], top: int, budget: Budget | None = None) -> tuple[list[int], int]:
    """The best full grid extending a level-`top` grid (values > top meaning 'more'),
    and its penalty. Levels 5-6 are linear-time; lower levels are re-solved by SAT
    (levels top+1..4, every level-4 grid found completed in linear time)."""
    geometry = hexagon(n)
    if top >= 5:
        grid = split_sixes(geometry, partial)
        return grid, len(penalty_edges(geometry, grid))
    if top == 4:
        grid, _ = complete_from_level4(geometry, partial)
        return grid, len(penalty_edges(geometry, grid))
    encoding = HexEncoding(geometry, top=4, fixed={c: v for c, v in enumerate(partial) if v <= top})
    for c, v in enumerate(partial):
        if v > top:
            for value in range(1, top + 1):
                encoding.clauses.append([-encoding.x(c, value)])
    best: dict[str, Any] = {"grid": None, "penalty": None}
    with BoundedSolver(encoding.clauses, encoding.count_lits, encoding.n_vars) as solver:
        if not solver.solve(None):
            raise ValueError("level grid cannot be completed (not a valid level grid)")

        def found() -> int:
            level4 = encoding.decode(solver.model())
            grid, _ = complete_from_level4(geometry, level4)
            penalty = len(penalty_edges(geometry, grid))
            if best["penalty"] is None or penalty < best["penalty"]:
                best["grid"], best["penalty"] = grid, penalty
            return level_penalty(geometry, level4, 4)

        upper = found()
        base = level_penalty(geometry, partial, top)
        descend(
            solver.solve,
            found,
            upper=upper,
            estimate=base + 4,
            stop=lambda: (budget is not None and budget.expired()) or best["penalty"] <= base,
        )
    return best["grid"], best["penalty"]


def sat_search(
    n: int,
    options: dict[str, Any],
    *,
    seed: int = 0,
    budget: Budget | None = None,
    report: Callable[[dict[str, Any]], None] | None = None,
    start: list[int] | None = None,
) -> dict[str, Any]:
    """Close in on the least (level) penalty; returns a summary dict: grid, penalty,
    raw, proven ('optimal' | 'level' | 'restricted' | 'infeasible' | None), lower
    (proven lower bound on the level penalty, hence on the final one when
    unrestricted), steps (every SAT call: bound, answer, seconds).

    `start`, a valid grid (unrestricted runs only), is the first upper bound instead of
    the first SAT answer: when it is below the estimate, the next call asks for one
    penalty fewer, so proving a grid optimal (through level k) is one UNSAT call."""
    budget = budget or Budget()
    started = time.perf_counter()
    geometry = hexagon(n)
    top = int(options.get("levels") or 5)
    ring = options.get("ring")
    break_ = int(options.get("break") or 0)
    target = options.get("target")
    target_penalty = None if target is None else edge_count(n) - int(target)
    restricted = is_restricted(options)
    encoding = HexEncoding(
        geometry,
        top=top,
        ring=ring,
        inner=int(options.get("inner") or 0),
        allow_at=tuple(options.get("allow_at") or ()),
        break_=break_,
        symmetry=options.get("symmetry", "lex"),
        ladder=bool(options.get("ladder", True)),
    )
    solver = BoundedSolver(encoding.clauses, encoding.count_lits, encoding.n_vars, options.get("encoding") or DEFAULT_ENCODING, seed)
    steps: list[dict[str, Any]] = []
    state: dict[str, Any] = {"grid": None, "penalty": None, "level_penalty": None, "lower": None, "proven": None, "partial": None, "asking": None}

    def summary(final: bool) -> dict[str, Any]:
        return {
            "n": n,
            "grid": state["grid"],
            "penalty": state["penalty"],
            "raw": None if state["penalty"] is None else edge_count(n) - state["penalty"],
            "level_penalty": state["level_penalty"],
            "level": top,
            "lower": state["lower"],
            "proven": state["proven"],
            "restricted": restricted,
            "steps": steps,
            "variables": encoding.n_vars,
            "clauses": len(encoding.clauses),
            "card_clauses": solver.card_clauses,
            "rebuilds": solver.rebuilds,
            "final": final,
            "asking": state["asking"],
            "seconds": round(time.perf_counter() - started, 3),
        }

    def timed_solve(bound: int | None, kind: str = "descend", until: Callable[[], bool] | None = None) -> bool | None:
        """One SAT call in rounds of ROUND_CONFLICTS: after each round the question being
        asked is reported (a proof can run for hours with no better grid to show), and
        the call gives up with None once the budget (or `until`) is over."""
        t0 = time.perf_counter()
        conflicts0 = solver.conflicts()

        def after_round() -> bool:
            if report is not None:
                state["asking"] = {"kind": kind, "bound": bound, "seconds": round(time.perf_counter() - t0, 1), "conflicts": solver.conflicts() - conflicts0}
                report(summary(False))
            return budget.expired() or (until is not None and until())

        answer = solver.solve_until(bound, after_round, ROUND_CONFLICTS)
        state["asking"] = None
        steps.append({"kind": kind, "bound": bound, "sat": answer, "seconds": round(time.perf_counter() - t0, 3)})
        return answer

    def found() -> int:
        partial = encoding.decode(solver.model())
        level = level_penalty(geometry, partial, top)
        state["level_penalty"] = level if state["level_penalty"] is None else min(level, state["level_penalty"])
        grid, penalty = complete_partial(n, partial, top, budget)
        if state["penalty"] is None or penalty < state["penalty"]:
            state["grid"], state["penalty"] = grid, penalty
            if report is not None:
                report(summary(False))
        return level

    def proven_lower(lower: int) -> None:
        state["lower"] = lower
        if report is not None:
            report(summary(False))

    def stop() -> bool:
        return budget.expired() or (target_penalty is not None and state["penalty"] is not None and state["penalty"] <= target_penalty)

    try:
        if start is not None:
            if restricted:
                raise ValueError("a start grid bounds only unrestricted runs (no --ring or --break)")
            state["grid"], state["penalty"] = list(start), len(penalty_edges(geometry, start))
            upper = state["level_penalty"] = level_penalty(geometry, start, top)
            if report is not None:
                report(summary(False))
        else:
            first = timed_solve(None, "first")
            if first is None:  # out of time before any grid
                return summary(True)
            if not first:
                state["proven"] = "infeasible"
                return summary(True)
            upper = found()
        lower = 0
        if target_penalty is not None and upper > target_penalty and not stop():
            # Ask for the target at once, stopping after part of the time or after
            # TARGET_CONFLICTS conflicts, whichever comes first: one call at
            # the published penalty is the published program's run (n = 11: 3 s CPU
            # against 10 s for the step-by-step descent), but on hard settings (n = 10,
            # -r 5 -I 6 -b 2; n = 6, -b 2: nothing in 7 s CPU where the descent had 225)
            # it can stall, and then the descent takes over for the rest (TARGET_SHARE).
            phase_end = (time.perf_counter() + budget.seconds_left() * TARGET_SHARE) if budget.limited else float("inf")
            conflicts_end = solver.conflicts() + TARGET_CONFLICTS
            answer = timed_solve(target_penalty, "target", until=lambda: time.perf_counter() > phase_end or solver.conflicts() >= conflicts_end)
            if answer:
                upper = min(upper, found())
            elif answer is False:
                lower = target_penalty + 1
                proven_lower(lower)
        lower, upper = descend(timed_solve, found, upper=upper, estimate=penalty_estimate(n, top), stop=stop, on_unsat=proven_lower, lower=lower)
        if lower >= upper:
            state["lower"] = upper
        # Levels < 5: list the level grids below the best final penalty and complete each.
        if state["lower"] is not None and top < 5 and state["penalty"] > state["lower"] and not options.get("lower_only"):
            while not stop():
                answer = timed_solve(state["penalty"] - 1, "enumerate")
                if answer is None:
                    break
                if not answer:
                    state["lower"] = state["penalty"]
                    break
                partial = encoding.decode(solver.model())
                grid, penalty = complete_partial(n, partial, top, budget)
                if penalty < state["penalty"]:
                    state["grid"], state["penalty"] = grid, penalty
                    if report is not None:
                        report(summary(False))
                solver.add_clause(encoding.block(partial))
        if state["lower"] is not None and state["lower"] >= state["penalty"]:
            state["proven"] = "restricted" if restricted else "optimal"
        elif state["lower"] is not None:
            state["proven"] = "level"
        return summary(True)
    finally:
        solver.delete()


# ------------------------------------------------------------------- worker plumbing


def _sat_task(n: int, options: dict[str, Any], seed: int, start: list[int] | None, *, budget: Budget, interim) -> dict[str, Any]:
    return sat_search(n, options, seed=seed, budget=budget, report=interim, start=start)


def is_restricted(options: dict[str, Any]) -> bool:
    """--ring or --break: what such a run proves holds only within its restrictions."""
    return options.get("ring") is not None or bool(options.get("break"))


def describe_restrictions(options: dict[str, Any]) -> str:
    parts = []
    if options.get("ring") is not None:
        parts.append(f"--ring {options['ring']}")
    if options.get("inner"):
        parts.append(f"--inner {options['inner']}")
    if options.get("allow_at"):
        parts.append("--allow-at " + ",".join(map(str, options["allow_at"])))
    if options.get("break"):
        parts.append(f"--break {options['break']}")
    return " ".join(parts)


def result_from_search(n: int, summary: dict[str, Any] | None, options: dict[str, Any], method: str, seconds: float) -> Result:
    """A Result from a search summary (final, or the last interim of a stopped run)."""
    if not summary or summary.get("grid") is None:
        status = Status.INFEASIBLE if summary and summary.get("proven") == "infeasible" and not summary.get("restricted") else Status.UNKNOWN
        stats = {"seconds": round(seconds, 3)}
        if summary and summary.get("proven") == "infeasible":
            stats["proven"] = f"no grid within {describe_restrictions(options)}"
        return Result(None, None, status, method, bound=upper_bound(n), stats=stats)
    geometry = hexagon(n)
    grid = summary["grid"]
    edges = penalty_edges(geometry, grid)
    raw = edge_count(n) - len(edges)
    lower = summary.get("lower")
    proven = summary.get("proven") if summary.get("final") else None
    restricted = summary.get("restricted")
    stats: dict[str, Any] = {
        "seconds": round(seconds, 3),
        "cell_sum": raw + geometry.cells,
        "penalty": len(edges),
        "penalty_edges": [[int(geometry.edges[e, 0]), int(geometry.edges[e, 1])] for e in edges],
        "level": summary.get("level"),
        "level_penalty": summary.get("level_penalty"),
        "steps": len(summary.get("steps") or ()),
        "sat_calls": summary.get("steps"),
        "variables": summary.get("variables"),
        "clauses": summary.get("clauses"),
    }
    bound = upper_bound(n)
    status = Status.FEASIBLE
    if proven == "optimal":
        status, bound = Status.OPTIMAL, raw
        stats["proven"] = "optimal"
    elif restricted and lower is not None:
        what = "best" if lower >= len(edges) else f"no grid with fewer than {lower} penalties (level {summary.get('level')})"
        stats["proven"] = f"{what} within {describe_restrictions(options)}"
    elif lower is not None:
        bound = edge_count(n) - lower
        stats["proven"] = f"level-{summary.get('level')} penalty >= {lower}, so raw score <= {bound}"
    return Result(raw, format_grid(n, grid), status, method, bound=bound, stats=stats)


def run_in_worker(fn, args: tuple, budget: Budget, on_interim=None) -> dict[str, Any] | None:
    """Run fn(*args, budget=, interim=) in a worker process; its return value, or the
    last interim value it reported when the budget ended first (CaDiCaL cannot be
    interrupted, so the worker is terminated)."""
    from puzzlelab.core.parallel import Task, run_tasks

    last: dict[str, Any] = {}

    def interim(_index: int, value: dict[str, Any]) -> None:
        last["value"] = value
        if on_interim is not None:
            on_interim(value)

    summary = None
    task = Task(fn, args, name=getattr(fn, "__name__", "task"), context=True)
    for outcome in run_tasks([task], workers=1, budget=budget, grace=0.5, on_interim=interim):
        if outcome.ok or outcome.interim:
            summary = outcome.value
        elif outcome.error not in ("deadline", "cancelled"):
            raise RuntimeError(f"worker failed: {outcome.error}")
    return summary if summary is not None else last.get("value")


def result_from_worker(n: int, summary: dict[str, Any] | None, method: str, seconds: float, extra: dict[str, Any] | None = None) -> Result:
    """A feasible Result from a heuristic's summary ({'grid': values, ...})."""
    if not summary or summary.get("grid") is None:
        return Result(None, None, Status.UNKNOWN, method, bound=upper_bound(n), stats={"seconds": round(seconds, 3)})
    geometry = hexagon(n)
    grid = summary["grid"]
    edges = penalty_edges(geometry, grid)
    raw = edge_count(n) - len(edges)
    stats = {
        "seconds": round(seconds, 3),
        "cell_sum": raw + geometry.cells,
        "penalty": len(edges),
        "penalty_edges": [[int(geometry.edges[e, 0]), int(geometry.edges[e, 1])] for e in edges],
    }
    stats.update(extra or {})
    return Result(raw, format_grid(n, grid), Status.FEASIBLE, method, bound=upper_bound(n), stats=stats)


def run_sat(instance, *, budget: Budget, progress, seed: int = 0, **options) -> Result:
    """Method entry: the search in a worker process under the budget. A given grid (the
    instance's start) is the first upper bound: `solve grid.txt --method sat --levels 3`
    tries to prove it optimal through level 3."""
    n = instance.n
    _check_options(n, options)
    started = time.perf_counter()

    def on_interim(value: dict[str, Any]) -> None:
        progress(Progress(phase="sat", message=progress_message(value), best=value["raw"]))

    start = given_grid(instance, "to start from")
    if start is not None and is_restricted(options):
        from puzzlelab.core.puzzle import InvalidInstance

        raise InvalidInstance("a given grid bounds only unrestricted sat runs: drop --ring/--break, or use --method improve", "grid")
    summary = run_in_worker(_sat_task, (n, dict(options), seed, start), budget, on_interim)
    return result_from_search(n, summary, options, "sat", time.perf_counter() - started)


def progress_message(summary: dict[str, Any]) -> str:
    """E.g. 'penalty 20 (level 3 proven >= 18); descend: <= 19 penalties at level 3,
    1.20M conflicts, 95 s'."""
    parts = ["no grid yet" if summary.get("penalty") is None else f"penalty {summary['penalty']}"]
    if summary.get("lower") is not None:
        parts[0] += f" (level {summary.get('level')} proven >= {summary['lower']})"
    asking = summary.get("asking")
    if asking:
        question = "any grid" if asking["bound"] is None else f"<= {asking['bound']} penalties at level {summary.get('level')}"
        parts.append(f"{asking['kind']}: {question}, {asking['conflicts'] / 1e6:.2f}M conflicts, {asking['seconds']:.0f} s")
    return "; ".join(parts)


def given_grid(instance, purpose: str) -> list[int] | None:
    """The instance's grid as cell values, None when none was given; a grid that breaks
    the rule is refused (the parser keeps such grids so `verify` can report them)."""
    if instance.start is None:
        return None
    from puzzlelab.core.puzzle import InvalidInstance
    from puzzlelab.puzzles.hexagon.verify import rule_violation

    values = [int(v) for v in instance.start]
    problem = rule_violation(instance.n, values)
    if problem:
        raise InvalidInstance(f"grid: not a valid grid {purpose}: {problem}", "grid")
    return values


def _check_options(n: int, options: dict[str, Any]) -> None:
    from puzzlelab.core.puzzle import InvalidInstance

    if options.get("ring") is None and (options.get("inner") or options.get("allow_at")):
        raise InvalidInstance("options --inner and --allow-at restrict penalties beyond --ring: give --ring too", "ring")
    for distance in options.get("allow_at") or ():
        if not 2 <= distance <= 2 * n - 1:
            raise InvalidInstance(f"option --allow-at: edge distances run from 2 to {2 * n - 1} at order {n}, got {distance}", "allow_at")
