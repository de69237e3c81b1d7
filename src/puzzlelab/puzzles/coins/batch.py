"""`batch`: every puzzle of a font, grouped by start glyph, in worker processes.

One task per start glyph, shipped as a small descriptor (font, start, target glyphs,
method, options, work folder) through core/parallel.py, so the Ray backend can run the
same tasks on a cluster. With `bfs` a task makes one level-array run that reaches all of
its targets (the seed write-up's plan); with `bidir` it solves its targets one by one.
The parent verifies every answer independently (`puzzle.check`) before it goes to the
records store.

Resumable twice over: puzzles the store already holds as verified optima are skipped,
and a `bfs` task resumes its level array from the last completed level (its work
folder keeps `state.json`), so a killed batch loses at most one level of one start.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.coins import model

__all__ = ["plan", "run_group", "run_batch", "BatchReport", "METHODS", "done_keys"]

METHODS = ("auto", "bfs", "bidir")


def _glyphs(font: dict[str, Any], text: str | None, field: str) -> list[str]:
    if not text:
        return list(font["order"])
    chosen = []
    for part in text.split(","):
        part = part.strip()
        glyph = part.upper() if part.upper() in font["glyphs"] else part
        if glyph not in font["glyphs"]:
            raise InvalidInstance(f"{field}: no glyph {part!r} in the font; expected glyphs among {' '.join(font['order'])}", field)
        chosen.append(glyph)
    return chosen


def done_keys(store) -> set[str]:
    """Puzzle keys the records store holds as verified optimal results."""
    return {r.instance for r in store.results("coins") if r.status == Status.OPTIMAL.value}


def plan(font_name: str, starts: str | None = None, targets: str | None = None, skip: set[str] | None = None) -> list[dict[str, Any]]:
    """The groups still to solve: [{'font', 'start', 'targets'}] in glyph order."""
    if font_name not in model.fonts():
        raise InvalidInstance(f"font: no font {font_name!r}; expected one of {', '.join(model.fonts())}", "font", status=404)
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
    from puzzlelab.puzzles.coins.bfs import array_bytes, memory_available

    font = model.fonts()[font_name]
    cells = font["width"] * font["height"]
    coins = model.popcount(next(iter(font["glyphs"].values())))
    limit = memory_available() if max_memory_bytes is None else max_memory_bytes
    return "bfs" if array_bytes(cells, coins) <= limit else "bidir"


def run_group(descriptor: dict[str, Any], *, budget: Budget | None = None, interim: Callable | None = None) -> list[dict[str, Any]]:
    """Worker side: solve one start's targets; returns [{'key', 'result'}] (Result dicts).
    Module level so worker processes (and Ray) can import it by name."""
    budget = budget or Budget()
    font, start, method = descriptor["font"], descriptor["start"], descriptor["method"]
    options = dict(descriptor.get("options") or {})
    out: list[dict[str, Any]] = []
    if method == "bfs":
        from puzzlelab.puzzles.coins.bfs import LevelArrayRun

        folder = Path(descriptor["workdir"]) / f"{font}_{_safe(start)}"
        memory = options.get("max_memory_gb")
        run = LevelArrayRun(model.parse_start(f"{font}:{start}"), folder, max_memory_bytes=None if not memory else int(memory * 1e9))
        try:
            targets = {t: model.glyph_mask(font, t) for t in descriptor["targets"]}
            outcome = run.run(targets, budget=budget)
            for t in descriptor["targets"]:
                key = f"{font}:{start}-{t}"
                if t in outcome.found:
                    moves = run.moves(targets[t])
                    stats = {"seconds": round(outcome.seconds, 3), "levels": outcome.levels, "group": f"{font}:{start}"}
                    result = Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves), stats=stats)
                else:
                    result = Result(None, None, Status.UNKNOWN, "bfs", bound=outcome.complete_level + 1)
                out.append({"key": key, "result": result.to_dict()})
        finally:
            run.close()
        return out
    from puzzlelab.puzzles.coins.bidir import bidirectional

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
    solved: int = 0
    skipped: int = 0
    unsolved: int = 0
    failed_groups: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


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
    on_result: Callable[[str, Result], None] | None = None,
    on_error: Callable[[str, str], None] | None = None,
) -> BatchReport:
    """Solve every remaining puzzle of a font; store each verified result as it comes."""
    from puzzlelab.core import parallel
    from puzzlelab.core.store import Store

    started = time.perf_counter()
    store = Store()
    skip = set() if redo else done_keys(store)
    groups = plan(font_name, starts, targets, skip)
    report = BatchReport()
    all_pairs = sum(len(g["targets"]) for g in plan(font_name, starts, targets, set()))
    report.skipped = all_pairs - sum(len(g["targets"]) for g in groups)
    chosen = resolve_method(method, font_name)
    if workers is None and chosen == "bfs":
        from puzzlelab.puzzles.coins.bfs import array_bytes, memory_available

        font = model.fonts()[font_name]
        coins = model.popcount(next(iter(font["glyphs"].values())))
        fit = max(1, memory_available() // max(1, 2 * array_bytes(font["width"] * font["height"], coins)))
        workers = min(parallel.default_workers(), fit)
    tasks = []
    for group in groups:
        descriptor = dict(group, method=chosen, options=dict(options or {}), workdir=str(workdir))
        tasks.append(parallel.Task(run_group, (descriptor,), name=f"{font_name}:{group['start']}", context=True))
    stored: set[str] = set()

    def keep(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item["key"] in stored:
                continue
            result = Result.from_dict(item["result"])
            instance = model.parse_instance(item["key"])
            if result.solution is None:
                report.unsolved += 1
                stored.add(item["key"])
                if on_result is not None:
                    on_result(item["key"], result)
                continue
            puzzle.check(instance, result)  # raises WrongAnswer on a rejected solution
            store.add(puzzle.name, item["key"], result, puzzle.sense)
            stored.add(item["key"])
            report.solved += 1
            if on_result is not None:
                on_result(item["key"], result)

    for outcome in parallel.run_tasks(tasks, workers=workers, budget=budget, on_interim=lambda i, items: keep(items)):
        if outcome.value:
            keep(outcome.value)
        if not outcome.ok:
            report.failed_groups += 1
            if on_error is not None:
                on_error(outcome.name, outcome.error.strip().splitlines()[-1] if outcome.error else "failed")
    report.seconds = time.perf_counter() - started
    return report


def total_puzzles(font_name: str) -> int:
    n = len(model.fonts()[font_name]["order"])
    return n * (n - 1) if n > 1 else 0

