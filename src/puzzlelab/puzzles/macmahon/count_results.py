"""The run functions of the `enumerate`, `first` and `backtrack` methods (declared in
methods.py): they turn the enumerator's and the plain backtracking's output into Results
with certificates the checker (verify/checker.py) can test. They sit here rather than in
enumerator.py (long enough already) and brute.py (plain Python, importing no kernel).

`count_verified` is the driver side of a split count: subtrees on worker processes or
a Ray cluster, the merged certificate checked here by verify/checker.py before it is believed."""

from __future__ import annotations

import os
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Budget, Result, Status, Verdict
from puzzlelab.puzzles.macmahon.brute import backtrack_solutions
from puzzlelab.puzzles.macmahon.enumerator import SYM_CAP, codes_to_grid, count_solutions, first_solution
from puzzlelab.puzzles.macmahon.model import Instance, group_generators, instance_key, parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import verify

__all__ = [
    "run_enumerate",
    "run_first",
    "run_backtrack",
    "certificate",
    "checked",
    "count_verified",
    "BACKTRACK_MAX_CELLS",
    "collect_cap",
]

BACKTRACK_MAX_CELLS = 30
COLLECT_CAP = 2_000_000  # class representatives `count --list` writes ...
COLLECT_CELLS = 12_000_000  # ... and their cells in all (each a [piece, rotation] list in memory)


def collect_cap(inst: Instance) -> int:
    """How many class representatives `count --list` may gather for this board."""
    return max(1, min(COLLECT_CAP, COLLECT_CELLS // inst.board.cells))


def certificate(inst: Instance, stats: dict[str, Any]) -> dict[str, Any]:
    """The count certificate (see verify/checker.py) from merged enumeration statistics."""
    elements = stats["elements"]
    groups = {}
    for i, name in enumerate(stats["groups"]):
        groups[name] = {
            "members": [elements[m] for m in stats["members"][i]],
            "classes": int(stats["classes"][i]),
            "orbit_sizes": {str(s): v for s, v in sorted(stats["hist"].get(name, {}).items())},
        }
    return {
        "kind": "count",
        "total": int(stats["total"]),
        "complete": bool(stats["complete"]),
        "elements": elements,
        "groups": groups,
        "fixed_points": {name: int(v) for name, v in zip(elements, stats["fix"])},
        "symmetric": [codes_to_grid(inst, r) for r in stats["sym_reps"]],
        "symmetric_complete": stats["sym_count"] <= SYM_CAP,
        "examples": [codes_to_grid(inst, r) for r in stats["examples"]],
    }


def run_enumerate(inst: Instance, *, budget: Budget, progress, seed: int, workers: int = 1, split_depth: int = 3,
                  order: str = "mrv", symmetry: bool = True, group: str = "", checkpoint: str = "",
                  backend: str = "local", address: str = "",
                  collect: str | None = None, collect_into: list | None = None) -> Result:
    """`collect` (a group name) with `collect_into` (a list): also gather one least
    representative per class of that group, as grids (for `count --list`).
    `backend`/`address`: where the subtrees run (`core.parallel`: local processes or
    a Ray cluster; the address defaults to $RAY_ADDRESS)."""
    generators = group_generators(group)
    stats = count_solutions(
        inst, budget=budget, progress=progress, workers=workers, split_depth=split_depth, order=order,
        symmetry=symmetry, generators=generators, checkpoint=checkpoint or None,
        collect=collect, collect_cap=collect_cap(inst) if collect else 0,
        backend=backend, address=address or os.environ.get("RAY_ADDRESS") or None,
    )
    if collect_into is not None:
        if stats["collect_count"] > collect_cap(inst):
            raise InvalidInstance(
                f"--list: {stats['collect_count']:,} classes of {inst.board.cells} cells, more than the {collect_cap(inst):,} that can be listed", "list", 413
            )
        collect_into.extend(codes_to_grid(inst, r) for r in stats["collected"])
    cert = certificate(inst, stats)
    complete = stats["complete"]
    return Result(
        value=cert["total"],
        solution=cert,
        status=Status.OPTIMAL if complete else Status.FEASIBLE,
        method="enumerate",
        bound=None,
        stats={
            "nodes": stats["nodes"],
            "seconds": round(stats["wall_seconds"], 6),
            "search_seconds": round(stats["seconds"], 6),
            "order": order,
            "workers": workers,
            "subtrees": stats["subtrees"],
            **({"resumed_subtrees": stats["resumed_subtrees"]} if stats.get("resumed_subtrees") else {}),
            "backend": backend,
            "failed_subtrees": stats.get("errors", []),
            "classes": {name: g["classes"] for name, g in cert["groups"].items()},
            "group_orders": {name: len(g["members"]) for name, g in cert["groups"].items()},
        },
    )


def run_first(inst: Instance, *, budget: Budget, progress, seed: int, order: str = "mrv") -> Result:
    codes, what, nodes = first_solution(inst, budget, order)
    if codes is None:
        status = Status.INFEASIBLE if what == "none" else Status.UNKNOWN
        return Result(None, None, status, "first", stats={"nodes": nodes})
    return Result(1, codes_to_grid(inst, codes), Status.FEASIBLE, "first", stats={"nodes": nodes, "order": order})


def run_backtrack(inst: Instance, *, budget: Budget, progress, seed: int) -> Result:
    """Count by plain-Python backtracking (the naive peer; small boards only)."""
    if inst.board.cells > BACKTRACK_MAX_CELLS:
        raise InvalidInstance(
            f"method backtrack: {inst.board.cells} cells is too many for plain Python (at most {BACKTRACK_MAX_CELLS}); use --method enumerate",
            "method",
            413,
        )
    found, finished = backtrack_solutions(inst, budget)
    k = inst.sides
    examples = []
    if found:
        colours = min(found)
        index = {t: i for i, t in enumerate(inst.tiles)}
        codes = []
        for c in range(inst.board.cells):
            edges = colours[c * k : c * k + k]
            for r in range(k):
                base = tuple(edges[(s + r) % k] for s in range(k))
                if base in index:
                    codes.append(index[base] * k + r)
                    break
        examples = [codes_to_grid(inst, codes)]
    cert = {"kind": "count", "total": len(found), "complete": finished, "elements": ["id"], "groups": {}, "fixed_points": {"id": len(found)}, "symmetric": [], "symmetric_complete": True, "examples": examples}
    return Result(len(found), cert, Status.OPTIMAL if finished else Status.FEASIBLE, "backtrack")


def checked(inst: Instance, result: Result) -> Result:
    """`result` with the independent checker's verdict attached, as `Puzzle.check` does
    for `Puzzle.solve`, for callers below the puzzle object (a count split over workers,
    the facts verb): WrongAnswer when the checker rejects the solution or its value."""
    if result.solution is None:
        result.verdict = Verdict(ok=False, value=None, message="no solution to check")
        return result
    verdict = verify(inst, result.solution)
    if verdict.ok and result.value is not None and verdict.value != result.value:
        verdict = Verdict(False, verdict.value, f"solver claims solutions = {result.value}, checker counts {verdict.value}", verdict.figures)
    result.verdict = verdict
    if not verdict.ok:
        raise WrongAnswer(f"macmahon: method {result.method!r} returned a rejected solution: {verdict.message}")
    return result


def count_verified(instance: Any, *, workers: int = 2, split_depth: int = 3, budget: float | None = None,
                   backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """One count split into subtrees that run as a batch on `backend` ('local' worker
    processes or 'ray' at `address`), merged and checked by the independent checker on
    this (the driver's) side. Returns plain data, the same for every backend:
    {'instance', 'total', 'classes' (by group name), 'subtrees', 'complete', 'verified'}.

    Example: count_verified("2x3/free", backend="local") -> total 416 (136 subtrees).
    """
    inst = parse_instance(instance)
    result = run_enumerate(inst, budget=Budget(budget), progress=None, seed=0, workers=workers,
                           split_depth=split_depth, backend=backend, address=address or "")
    result = checked(inst, result)
    return {
        "instance": instance_key(inst),
        "total": result.value,
        "classes": dict(result.stats["classes"]),
        "subtrees": result.stats["subtrees"],
        "complete": result.solution["complete"],
        "verified": bool(result.verified),
    }
