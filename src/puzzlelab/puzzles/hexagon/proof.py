"""`puzzlelab hexagon prove`: settle a claim "no grid of order n scores above R".

The claim holds when no level-k grid has E - R - 1 or fewer penalty edges (E = edges;
the level-k penalty never exceeds the final one, seed write-up "Level by Level": n = 8
and 9 need level 3, where the published level-3 minimum equals the final penalty).
`cubes.prove_below` does the SAT work. What this module adds is what a user reads:

- proven: the bound, and, when a grid of exactly R is found by `sat` with the
  published arguments and passes the independent verifier, "R is optimal", kept in the
  records store with status optimal;
- a counterexample: the level grid is checked with the scorer (rule and level
  penalty, `verify.rule_violation` and `scoring.level_penalty`, which import no
  solver), completed to a whole grid and verified; a whole grid above R is a record;
- unfinished: how many cubes are left, and that the same command resumes.
"""

from __future__ import annotations

from typing import Any, Callable

from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.hexagon.cubes import SCREEN_CONFLICTS, SPLIT_CONFLICTS, prove_below
from puzzlelab.puzzles.hexagon.model import HexInstance, edge_count, format_grid, hexagon

__all__ = ["run_proof", "check_counterexample"]


def check_counterexample(n: int, level: int, bound: int, grid: list[int]) -> int:
    """The level penalty of a level grid the solver called a counterexample, after the
    independent checks; raises AssertionError when the grid is not one (a solver bug)."""
    from puzzlelab.puzzles.hexagon.scoring import level_penalty
    from puzzlelab.puzzles.hexagon.verify import rule_violation

    capped = [min(int(v), level + 1) for v in grid]
    problem = rule_violation(n, capped)
    if problem is not None:
        raise AssertionError(f"cube counterexample breaks the rule: {problem}")
    penalty = level_penalty(hexagon(n), capped, level)
    if penalty > bound:
        raise AssertionError(f"cube counterexample has {penalty} level-{level} penalties, above {bound}")
    return penalty


def _grid_of_score(n: int, raw: int, budget: float) -> Result:
    """The `sat` method with the published arguments, stopping at `raw`: a verified
    grid of exactly `raw` when it finds one."""
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.reference import published_arguments

    return PUZZLE.solve(HexInstance(n), "sat", budget=budget, **dict(published_arguments(n), target=raw))


def _store(result: Result, n: int) -> None:
    from puzzlelab.core.store import Store
    from puzzlelab.puzzles.hexagon import PUZZLE

    Store().add(PUZZLE.name, str(n), result, PUZZLE.sense)


def run_proof(
    n: int,
    raw: int,
    *,
    level: int = 3,
    depth: int = 14,
    workers: int | None = None,
    split_conflicts: int | None = SPLIT_CONFLICTS,
    screen: bool = True,
    screen_conflicts: int = SCREEN_CONFLICTS,
    screen_method: str = "sat",
    screen_levels: tuple[int, ...] | None = None,
    cube_method: str = "sat",
    resplit: int = 0,
    resplit_rounds: int = 1,
    screen_seconds: float | None = None,
    budget: Budget | None = None,
    checkpoint: str | None = None,
    backend: str = "local",
    address: str | None = None,
    grid_budget: float = 120.0,
    store: bool = True,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) the proof; returns a JSON-able report with `settled` (proven or
    disproved) and a `message` for people. `screen`: first refute what cubes the lower
    levels can (cubes.screen_cubes): the levels in `screen_levels` (default all below
    `level`), by `screen_method` "sat" (CaDiCaL, `screen_conflicts` per cube) or "maxsat"
    (a core-guided lower bound per cube); `cube_method` the same choice for the cubes
    at `level` itself; `resplit`, `resplit_rounds` and `screen_seconds` as in
    cubes.prove_below."""
    edges = edge_count(n)
    bound = edges - raw - 1
    summary = prove_below(
        n, level, bound, depth=depth, workers=workers, split_conflicts=split_conflicts, budget=budget,
        screen_levels=(tuple(range(1, level)) if screen_levels is None else tuple(screen_levels)) if screen else (),
        screen_conflicts=screen_conflicts, screen_method=screen_method, cube_method=cube_method, resplit=resplit, resplit_rounds=resplit_rounds, screen_seconds=screen_seconds, checkpoint=checkpoint, backend=backend, address=address, progress=progress,
    )
    report: dict[str, Any] = {
        "n": n,
        "claim_raw": raw,
        "level": level,
        "bound": bound,
        "cubes": summary["cubes"],
        "refuted": summary["refuted"],
        "screened": summary.get("screened", 0),
        "proven": summary["proven"],
        "optimal": False,
        "settled": False,
        "seconds": summary["seconds"],
        "total_seconds": summary["total_seconds"],
        "checkpoint": checkpoint,
    }
    question = f"no level-{level} grid of order {n} with at most {bound} penalty edges"
    if summary["counterexample"] is not None:
        grid = summary["counterexample"]["grid"]
        level_pen = check_counterexample(n, level, bound, grid)
        report.update(settled=True, counterexample={"level_penalty": level_pen, "pattern": summary["counterexample"]["pattern"]})
        message = f"claim fails: a level-{level} grid with {level_pen} penalty edges exists (checked)"
        from puzzlelab.puzzles.hexagon import PUZZLE
        from puzzlelab.puzzles.hexagon.level_completion import complete_partial

        full, _ = complete_partial(n, [min(int(v), level + 1) for v in grid], level, Budget(grid_budget))
        verdict = PUZZLE.verify(HexInstance(n), format_grid(n, full))
        if verdict.ok:
            report["counterexample"].update(raw=verdict.value, grid=format_grid(n, full))
            message += f"; completed to a verified grid of raw {verdict.value}"
            if verdict.value > raw:
                message += f", above the claimed {raw}"
                if store:
                    _store(Result(verdict.value, format_grid(n, full), Status.FEASIBLE, "prove", bound=None, stats={"found_by": "cube counterexample"}, verdict=verdict), n)
        report["message"] = message
        return report
    if not summary["proven"]:
        report["message"] = (
            f"not finished: {summary['refuted']} of {summary['cubes']} cubes refuted ({question}), "
            f"{summary['total_seconds']:.0f} s in all; run the same command to resume from {checkpoint}"
        )
        return report
    report["settled"] = True
    message = (
        f"proven: {question} ({summary['cubes']} cubes refuted, {summary['total_seconds']:.0f} s in all), "
        f"so every grid has at least {bound + 1} penalty edges and raw score at most {raw}"
    )
    found = _grid_of_score(n, raw, grid_budget)
    if not (found.verified and found.value == raw):
        best = "no grid" if not found.verified else f"raw {found.value}"
        message += f"; the sat search (at most {grid_budget:.0f} s) found {best}, not {raw}, so {raw} is not shown optimal"
    else:
        report.update(optimal=True, grid=found.solution)
        message += f"; a verified grid of raw {raw} exists, so {raw} is optimal"
        if store:
            stats = dict(found.stats, proven=f"optimal: {question} (cube-and-conquer, {summary['cubes']} cubes)", proof_seconds=summary["total_seconds"])
            _store(Result(raw, found.solution, Status.OPTIMAL, "prove", bound=raw, stats=stats, verdict=found.verdict), n)
    report["message"] = message
    return report
