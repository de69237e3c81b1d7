"""`batch`: every puzzle of a font, grouped by start glyph, in worker processes.

One task per start glyph, shipped as a small descriptor (font, start, target glyphs,
method, options, work folder) through the core driver (`core.parallel.solve_many`), so
the Ray backend can run the same tasks on a cluster. With `bfs` a task makes one
level-array run that reaches all of its targets (the seed write-up's plan; bfs_engine
picks the byte array, or for 5 x 9 the two-bit array with its levels on disk, and
checks the memory and disk of the machine, or Ray node, that runs the start); with
`bidir` it solves its targets one by one.
The driver verifies every answer independently (`puzzle.check`) before it goes to the
records store.

Resumable twice over: puzzles the store already holds as verified optima are skipped,
and a `bfs` task resumes its level array from the last completed level (its work
folder keeps `state.json`), so a killed batch loses at most one level of one start.
"""

from __future__ import annotations

import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from puzzlelab.core.inputs import shown
from puzzlelab.core.parallel import BACKENDS, Answer, Failure, Task, default_workers, solve_many
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles.coins import model
from puzzlelab.puzzles.coins.memory import cores_available

__all__ = ["plan", "descriptors", "run_group", "run_batch", "verified_batch", "BatchReport", "METHODS", "done_keys"]

METHODS = ("auto", "bfs", "bidir")


def _glyphs(font: dict[str, Any], text: str | None, field: str) -> list[str]:
    if not text:
        return list(font["order"])
    chosen = []
    for part in text.split(","):
        part = part.strip()
        glyph = part.upper() if part.upper() in font["glyphs"] else part
        if glyph not in font["glyphs"]:
            raise InvalidInstance(f"{field}: no glyph {shown(part)} in the font; expected glyphs among {' '.join(font['order'])}", field)
        chosen.append(glyph)
    return chosen


def done_keys(store, puzzle) -> set[str]:
    """Puzzle keys the records store holds as optimal results that its checker passes
    again now (`core.records_check`: a forged row must not make a batch skip a puzzle)."""
    return {r.instance for r in checked_best(store, {puzzle.name: puzzle}, puzzle.name, solutions=False).records if r.status == Status.OPTIMAL.value}


def plan(font_name: str, starts: str | None = None, targets: str | None = None, skip: set[str] | None = None) -> list[dict[str, Any]]:
    """The groups still to solve: [{'font', 'start', 'targets'}] in glyph order."""
    if font_name not in model.fonts():
        raise InvalidInstance(f"font: no font {shown(font_name)}; expected one of {', '.join(model.fonts())}", "font", status=404)
    font = model.fonts()[font_name]
    skip = skip or set()
    groups = []
    for start in _glyphs(font, starts, "starts"):
        chosen = [t for t in _glyphs(font, targets, "targets") if t != start and f"{font_name}:{start}-{t}" not in skip]
        if chosen:
            groups.append({"font": font_name, "start": start, "targets": chosen})
    return groups


def resolve_method(method: str, font_name: str, max_memory_bytes: int | None = None) -> str:
    """`auto`: bfs when its level array fits in memory here, else bidir."""
    if method != "auto":
        return method
    from puzzlelab.puzzles.coins.bfs.byte_bfs import array_bytes, memory_available

    font = model.fonts()[font_name]
    cells = font["width"] * font["height"]
    coins = model.popcount(next(iter(font["glyphs"].values())))
    limit = memory_available() if max_memory_bytes is None else max_memory_bytes
    return "bfs" if array_bytes(cells, coins) <= limit else "bidir"


def run_group(descriptor: dict[str, Any], *, budget: Budget | None = None, interim: Callable | None = None) -> list[dict[str, Any]]:
    """Worker side: solve one descriptor's targets; returns [{'key', 'result'}] (Result
    dicts). Module level so worker processes (and Ray) import it by name. The
    descriptor's `seconds` (if any) bounds the work; the parent also terminates the
    worker when the batch budget ends (a bfs group then resumes from its checkpoint)."""
    if budget is None:
        budget = Budget(descriptor.get("seconds"))
    font, start, method = descriptor["font"], descriptor["start"], descriptor["method"]
    options = dict(descriptor.get("options") or {})
    out: list[dict[str, Any]] = []
    if method == "bfs":
        from puzzlelab.puzzles.coins.bfs.engine import open_bfs_run

        folder = Path(descriptor["workdir"]) / f"{font}_{_safe(start)}"
        memory = options.get("max_memory_gb")
        begin = model.parse_start(f"{font}:{start}")
        # Checked here, on the machine that runs the start (a Ray node): its memory and disk.
        run = open_bfs_run(begin, folder, engine=options.get("engine") or "auto", max_memory_bytes=None if not memory else int(memory * 1e9),
                           threads=options.get("threads") or None)
        try:
            targets = {t: model.glyph_mask(font, t) for t in descriptor["targets"]}
            outcome = run.run(targets, budget=budget)
            for t in descriptor["targets"]:
                key = f"{font}:{start}-{t}"
                if t in outcome.found:
                    moves = run.moves(targets[t])
                    cpu = round(sum(level.get("cpu_seconds", 0.0) for level in outcome.history), 3)  # every level, resumed runs too
                    stats = {"seconds": round(outcome.seconds, 3), "cpu_seconds": cpu, "levels": outcome.levels, "group": f"{font}:{start}"}
                    result = Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves), stats=stats)
                elif outcome.finished:  # every board reachable from the start has its level: none is the target
                    result = Result(None, None, Status.INFEASIBLE, "bfs", stats={"levels": outcome.levels, "group": f"{font}:{start}"})
                else:
                    result = Result(None, None, Status.UNKNOWN, "bfs", bound=outcome.complete_level + 1)
                out.append({"key": key, "result": result.to_dict()})
        finally:
            run.close()
        if not options.get("keep_arrays") and all(item["result"]["status"] != Status.UNKNOWN.value for item in out):
            # Done with this start: its answers travel in `out`; the 834 MB array (x 37
            # starts a font) is only worth keeping to resume an unfinished run.
            shutil.rmtree(folder, ignore_errors=True)
        return out
    from puzzlelab.puzzles.coins.bidir.search import bidirectional

    for t in descriptor["targets"]:
        instance = model.parse_instance(f"{font}:{start}-{t}")
        result = bidirectional(instance, budget=budget, memory_mb=options.get("memory_mb", 1024), dedup=options.get("dedup", "auto"))
        item = {"key": instance.key, "result": result.to_dict()}
        out.append(item)
        if interim is not None:
            interim(list(out))
        if budget.expired():
            break
    return out


def _safe(glyph: str) -> str:
    return "slash" if glyph == "/" else glyph


@dataclass
class BatchReport:
    """What a batch did. `results` maps each puzzle solved in this run to its verified
    number of moves (puzzles skipped as already stored are not in it)."""

    solved: int = 0
    skipped: int = 0
    unsolved: int = 0
    infeasible: int = 0  # proven: the target is not reachable from the start
    failed_groups: int = 0
    seconds: float = 0.0
    results: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "results": dict(sorted(self.results.items()))}


def descriptors(groups: list[dict[str, Any]], method: str, options: dict[str, Any], workdir: str, seconds: float | None) -> list[dict[str, Any]]:
    """The tasks shipped to workers: one per start for bfs (one level array reaches all
    of that start's targets), one per puzzle for bidir (finer grain: a worker killed at
    the deadline loses one puzzle, and a cluster spreads the load evenly)."""
    out = []
    for group in groups:
        parts = [group["targets"]] if method == "bfs" else [[t] for t in group["targets"]]
        for targets in parts:
            out.append({
                "font": group["font"], "start": group["start"], "targets": targets, "method": method,
                "options": dict(options), "workdir": str(workdir), "seconds": seconds,
            })
    return out


def run_batch(
    puzzle,
    font_name: str,
    *,
    method: str = "auto",
    starts: str | None = None,
    targets: str | None = None,
    workers: int | None = None,
    budget: Budget | None = None,
    workdir: str = "puzzlelab-out/coins-batch",
    options: dict[str, Any] | None = None,
    redo: bool = False,
    store: bool = True,
    backend: str = "local",
    address: str | None = None,
    on_result: Callable[[str, Result], None] | None = None,
    on_error: Callable[[str, str], None] | None = None,
) -> BatchReport:
    """Solve every remaining puzzle of a font through the core driver
    (`core.parallel.solve_many`: local worker processes or, with backend='ray', a Ray
    cluster at `address`). Every answer is replayed by the independent checker there,
    on the driver, before it is reported and (with `store`) added to the records store
    as it arrives, which makes the batch resumable: a second run skips the stored
    optima. `store=False` neither reads nor writes the store (every chosen puzzle is
    solved)."""
    if backend not in BACKENDS:
        raise InvalidInstance(f"option --backend: expected one of {', '.join(BACKENDS)}, got {shown(backend)}", "backend")
    if method not in METHODS:
        raise InvalidInstance(f"option --method: expected one of {', '.join(METHODS)}, got {shown(method)}", "method")
    started = time.perf_counter()
    records = Store() if store else None
    groups = plan(font_name, starts, targets, done_keys(records, puzzle) if records is not None and not redo else set())
    report = BatchReport()
    report.skipped = sum(len(g["targets"]) for g in plan(font_name, starts, targets, set())) - sum(len(g["targets"]) for g in groups)
    chosen = resolve_method(method, font_name)
    if workers is None and chosen == "bfs" and backend == "local":
        workers = _bfs_workers(font_name)
    if chosen == "bfs" and backend == "local" and workers:  # each start's levels on its share of the cores
        options = {"threads": max(1, cores_available() // workers), **(options or {})}
    seconds = None if budget is None or not budget.limited else budget.seconds_left()
    items = descriptors(groups, chosen, options or {}, workdir, seconds)
    memory = _bfs_task_memory(font_name) if chosen == "bfs" else 0
    tasks = [Task(run_group, (item,), name=f"{font_name}:{item['start']}" + (f"-{item['targets'][0]}" if chosen != "bfs" else ""), memory=memory) for item in items]

    def count(answer: Answer) -> None:
        result = answer.result
        if result.status == Status.INFEASIBLE:
            report.infeasible += 1
        elif result.solution is None:
            report.unsolved += 1
        else:
            report.results[answer.key] = int(result.value)
            report.solved += 1
        if on_result is not None:
            on_result(answer.key, result)

    def failed(failure: Failure) -> None:
        if failure.stopped:
            report.unsolved += len(items[failure.task]["targets"])
            return
        report.failed_groups += 1
        if on_error is not None:
            on_error(failure.name, failure.reason)

    solve_many(puzzle, tasks, _answers, store=records, budget=budget, workers=workers, backend=backend, address=address, on_result=count, on_failure=failed)
    report.seconds = time.perf_counter() - started
    return report


def _answers(task: int, value: list[dict[str, Any]] | None) -> list[Answer]:
    """A `run_group` task's {'key', 'result'} items as answers for the driver to verify."""
    return [Answer(item["key"], model.parse_instance(item["key"]), Result.from_dict(item["result"]), task) for item in value or []]


def _bfs_workers(font_name: str) -> int:
    """As many bfs tasks at once as this machine's memory holds level arrays (two each)."""
    from puzzlelab.puzzles.coins.bfs.byte_bfs import array_bytes, memory_available

    font = model.fonts()[font_name]
    coins = model.popcount(next(iter(font["glyphs"].values())))
    fit = max(1, memory_available() // max(1, 2 * array_bytes(font["width"] * font["height"], coins)))
    return min(default_workers(), fit)


def verified_batch(
    font_name: str = "font5x7",
    starts: str | None = "O",
    targets: str | None = "C,J,U",
    *,
    method: str = "bidir",
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, int]:
    """{puzzle key: verified optimal moves} of a batch, without the records store: the
    call that compares backends. The defaults are three short 5 x 7 puzzles (O-C 3
    moves, O-J 5, O-U 4), about a second of bidir CPU time in all once numba's cache
    is warm."""
    from puzzlelab.puzzles.coins import PUZZLE

    report = run_batch(PUZZLE, font_name, method=method, starts=starts, targets=targets, workers=workers, store=False, backend=backend, address=address)
    if report.failed_groups or report.unsolved:
        raise RuntimeError(f"coins batch: {report.failed_groups} failed tasks, {report.unsolved} unsolved puzzles")
    return dict(sorted(report.results.items()))


def total_puzzles(font_name: str) -> int:
    n = len(model.fonts()[font_name]["order"])
    return n * (n - 1) if n > 1 else 0


def _bfs_task_memory(font_name: str) -> int:
    """The memory one bfs task holds: the smaller engine's array (a node picks the byte
    array when it has room, else the two-bit one; bfs/engine.py), so that on Ray each
    node runs only as many starts as fit (5 x 9: one per node below 37 GB)."""
    from puzzlelab.puzzles.coins.bfs.byte_array import CpuLevelKernels
    from puzzlelab.puzzles.coins.bfs.two_bit import two_bit_bytes
    from puzzlelab.puzzles.coins.bfs.two_bit_budget import ALLOWANCE

    font = model.fonts()[font_name]
    boards = math.comb(font["width"] * font["height"], model.popcount(next(iter(font["glyphs"].values()))))
    return min(CpuLevelKernels.bytes_needed(boards), two_bit_bytes(boards) + ALLOWANCE)

