"""The `enumerate` and `first` methods' engine: every solution counted (or listed),
classified under the symmetry group as it comes, the search split into subtrees.

Work units. The search is cut into units, each a small descriptor: a prefix of forced
placements `[[cell, code], ...]` (code = piece*k + rotation) and a list of board
symmetries, `images`, to apply to every solution found below the prefix. By default the
board symmetry is used to search less (the pivot reduction): a piece that every board
symmetry maps to itself (here the all-white square: one copy, the same when turned
over) is forced into one cell of each orbit of cells, and the solutions with it in the
other cells of that orbit are the images of those, under one symmetry per cell. For the
4 x 6 board that searches a quarter of the tree and still yields every solution, each
exactly once (the images have the pivot in different cells). Units are split further
by extending their prefixes, for worker processes (`core/parallel/`).

Counting: solutions come out of the kernel in blocks, are expanded by their images, and
are classified by `classify_kernel`, so no list of all solutions is ever held. A count
carries a certificate for the independent checker (`verify/checker.py`).
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterator

import numpy as np

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.result import Budget, Progress
from puzzlelab.puzzles.macmahon.checkpoint import load_checkpoint, save_checkpoint
from puzzlelab.puzzles.macmahon.kernels import BUFFER_FULL, DONE, STOPPED, classify_kernel, expand_kernel
from puzzlelab.puzzles.macmahon.model import Instance, format_instance, parse_instance
from puzzlelab.puzzles.macmahon.search import SearchRun, SearchTables
from puzzlelab.puzzles.macmahon.symmetry import group_arrays, instance_group, named_subgroups, subgroup_from
from puzzlelab.puzzles.macmahon.tiles import mirror

__all__ = [
    "count_subtree",
    "count_solutions",
    "first_solution",
    "list_solutions",
    "codes_to_grid",
    "plan_units",
    "split_units",
    "block_rows",
]

BLOCK = 4096  # solutions emitted per kernel call (fewer on big boards: block_rows)
BLOCK_CELLS = BLOCK * 64  # cells per block of solutions: 2 MB of codes, 25 MB with 12 images
SYM_CAP = 5000  # symmetric classes kept in a certificate
MAX_UNITS = 200_000  # subtrees of a split count
EXAMPLES = 3


def block_rows(cells: int) -> int:
    """Solutions a block holds: BLOCK, fewer on boards of over 64 cells, so the buffers
    of a search (and of each worker process) stay tens of MB on a 2,048-cell board."""
    return max(16, min(BLOCK, BLOCK_CELLS // max(1, cells)))


def codes_to_grid(inst: Instance, codes) -> list[list[list[int]]]:
    """Kernel codes per cell -> the solution format: rows of [piece, rotation]."""
    k = inst.sides
    return [[list(divmod(int(codes[c]), k)) for c in row] for row in inst.board.rows]


# --------------------------------------------------------------------------- work units


def _pivot(inst: Instance, board_syms) -> int | None:
    """A piece with one copy that every board symmetry of the instance maps to itself
    (achiral when reflections are among them). Preference: the most sides in the border
    colour (such a piece is pinned to the border, where the search starts, so forcing it
    cuts the tree most: 7.6 million nodes for 4x6 with the all-white square against 38
    million with the all-red one), then the fewest initial places."""
    reflect = any(s.reflection for s in board_syms)
    geometry = inst.board
    k = geometry.sides
    # cells by which of their sides lie on the border: a place depends on that alone
    # (a handful of patterns, so a 2,048-cell board costs no more than a small one)
    patterns: dict[tuple[bool, ...], int] = {}
    for cell in range(geometry.cells):
        pattern = tuple(bool(geometry.neighbour[cell, s] < 0) for s in range(k))
        patterns[pattern] = patterns.get(pattern, 0) + 1
    best, best_key = None, None
    for p, t in enumerate(inst.tiles):
        if inst.counts[p] != 1 or (reflect and mirror(t) != t):
            continue
        places = 0
        for r in range(k):
            edges = [t[(s - r) % k] for s in range(k)]
            for pattern, cells in patterns.items():
                if all(not outside or inst.border is None or edges[s] == inst.border for s, outside in enumerate(pattern)):
                    places += cells
        key = (-(t.count(inst.border) if inst.border is not None else 0), places, p)
        if best_key is None or key < best_key:
            best, best_key = p, key
    return best


def plan_units(inst: Instance, reduce: bool = True, pivot: int | None = None) -> list[dict[str, Any]]:
    """The base work units (see the module docstring): one unit with no prefix, or with
    the pivot reduction one per (orbit representative, orientation of the pivot)."""
    if not reduce or inst.board.cells < 2:  # one cell: a forced pivot would be the whole board
        return [{"prefix": [], "images": ["id"]}]
    syms = [e.board for e in instance_group(inst, colour_moves=False)]
    if len(syms) < 2:
        return [{"prefix": [], "images": ["id"]}]
    pivot = _pivot(inst, syms) if pivot is None else pivot
    if pivot is None:
        return [{"prefix": [], "images": ["id"]}]
    geometry = inst.board
    k = geometry.sides
    t = inst.tiles[pivot]
    period = next(q for q in range(1, k + 1) if k % q == 0 and all(t[(s - q) % k] == t[s] for s in range(k)))
    tables = SearchTables.build(inst, "mrv")
    units, seen = [], set()
    for x in range(geometry.cells):
        if x in seen:
            continue
        images = {}
        for sym in syms:
            y = sym.perm[x * k] // k
            images.setdefault(y, sym.name)
        seen.update(images)
        for r in range(period):
            prefix = [[x, pivot * k + r]]
            if SearchRun(tables, prefix).valid:
                units.append({"prefix": prefix, "images": [images[y] for y in sorted(images)]})
    return units


def split_units(inst: Instance, units: list[dict[str, Any]], extra: int, order: str = "mrv", budget: Budget | None = None) -> list[dict[str, Any]] | None:
    """Each unit cut into the subtrees `extra` cells deeper (for worker processes); None
    when `budget` ends first. More than MAX_UNITS subtrees are refused (InvalidInstance,
    413): a split that deep costs more memory and time than the count it serves."""
    if extra <= 0:
        return units
    tables = SearchTables.build(inst, order)
    out = []
    control = (budget or Budget()).control
    for unit in units:
        depth = min(len(unit["prefix"]) + extra, tables.cells - 1)
        if depth <= len(unit["prefix"]):
            out.append(unit)
            continue
        run = SearchRun(tables, unit["prefix"], stop=depth, capacity=1)  # one leaf per call: `chosen` is its path
        while run.valid:
            status = run.step(control)
            for row in run.buf[: run.emitted]:
                out.append({"prefix": run.prefix_of(row), "images": unit["images"]})
            run.drain()
            if len(out) > MAX_UNITS:
                raise InvalidInstance(
                    f"split_depth: {extra} cells deeper makes more than {MAX_UNITS:,} subtrees; use a smaller --split-depth", "split_depth", 413
                )
            if status == DONE:
                break
            if status == STOPPED:
                return None
    return out


class _Expander:
    """Board-symmetry images of emitted solutions (the pivot reduction)."""

    def __init__(self, inst: Instance, tables: SearchTables, images: list[str]):
        geometry = inst.board
        self.identity = images == ["id"]
        self.perms = np.array([geometry.symmetry(name).perm for name in images], dtype=np.int64)
        c, k = tables.colours, tables.sides
        self.decode = np.full(c**k, -1, dtype=np.int64)
        for code in range(len(tables.code_colour) - 1, -1, -1):  # least rotation wins
            key = sum(int(tables.code_colour[code, s]) * c**s for s in range(k))
            self.decode[key] = code
        self.colours = c
        self.code_colour = tables.code_colour
        self.out = np.zeros((block_rows(tables.cells) * len(images), tables.cells), dtype=np.int64)

    def __call__(self, buf: np.ndarray, n: int) -> tuple[np.ndarray, int]:
        if self.identity:
            return buf, n
        expand_kernel(buf, np.int64(n), self.code_colour, self.perms, self.decode, np.int64(self.colours), self.out)
        return self.out, n * len(self.perms)


def _blocks(inst: Instance, tables: SearchTables, unit: dict[str, Any], budget: Budget, report=None) -> Iterator[tuple[np.ndarray, int, SearchRun]]:
    """Blocks of solutions below one unit, images included; the run's state tells
    whether it finished (`run.done`)."""
    run = SearchRun(tables, unit["prefix"], capacity=block_rows(tables.cells))
    expand = _Expander(inst, tables, unit["images"])
    while run.valid:
        status = run.step(budget.control)
        n = run.emitted
        if n:
            rows, m = expand(run.buf, n)
            yield rows, m, run
            run.drain()
        if report is not None:
            report(run)
        if status in (DONE, STOPPED):
            break
    # Always end with the run itself (no rows): a search stopped by its budget before it
    # emitted anything must still tell the caller it did not finish (a budget-stopped
    # count once came back 'complete, 0 solutions' after 0 nodes).
    yield run.buf, 0, run


# --------------------------------------------------------------------------- classification


class _Classifier:
    """Symmetry bookkeeping for one count: the group, its subgroups, the accumulators."""

    def __init__(self, inst: Instance, tables: SearchTables, generators, collect, collect_cap: int, symmetry: bool):
        self.group = instance_group(inst) if symmetry else instance_group(inst)[:1]
        subgroups = named_subgroups(self.group) if symmetry else {"full": [0]}
        if generators:
            subgroups["custom"] = subgroup_from(self.group, generators)
        self.names = ["full"] + [n for n in subgroups if n != "full"]
        self.members = [subgroups[n] for n in self.names]
        g = len(self.group)
        self.member = np.zeros((len(self.names), g), dtype=np.bool_)
        for i, m in enumerate(self.members):
            self.member[i, m] = True
        self.order = np.array([len(m) for m in self.members], dtype=np.int64)
        self.perm, self.cmap = group_arrays(inst, self.group)
        self.code_colour = tables.code_colour
        self.fix = np.zeros(g, dtype=np.int64)
        self.classes = np.zeros(len(self.names), dtype=np.int64)
        self.hist = np.zeros((len(self.names), g + 1), dtype=np.int64)
        self.occupancy = np.zeros((tables.cells, len(inst.tiles)), dtype=np.int64)
        self.sym_reps = np.zeros((SYM_CAP, tables.cells), dtype=np.int64)
        self.sym_count = np.zeros(1, dtype=np.int64)
        self.collect_group = self.names.index(collect) if collect in self.names else -1
        self.collected = np.zeros((block_rows(tables.cells) * 16 if self.collect_group >= 0 else 0, tables.cells), dtype=np.int64)
        self.collect_count = np.zeros(1, dtype=np.int64)
        self.collect_cap = collect_cap
        self.kept: list[np.ndarray] = []
        self.kept_rows = 0
        self.collected_total = 0

    def feed(self, rows: np.ndarray, n: int) -> None:
        # in chunks no larger than the `collected` buffer, so no representative is lost
        step = self.collected.shape[0] if self.collect_group >= 0 else max(n, 1)
        for lo in range(0, n, step):
            m = min(n - lo, step)
            classify_kernel(
                rows[lo : lo + m], np.int64(m), self.code_colour, self.perm, self.cmap, self.member, self.order,
                self.fix, self.classes, self.hist, self.occupancy, self.sym_reps, self.sym_count,
                np.int64(self.collect_group), self.collected, self.collect_count,
            )
            got = int(self.collect_count[0])
            if got:
                room = max(0, self.collect_cap - self.kept_rows)
                if room:
                    self.kept.append(self.collected[: min(got, room)].copy())
                    self.kept_rows += min(got, room)
                self.collected_total += got
                self.collect_count[0] = 0

    def stats(self, total: int, complete: bool, nodes: int, seconds: float, examples: list, occupancy: bool) -> dict[str, Any]:
        return {
            "total": total,
            "complete": complete,
            "nodes": nodes,
            "seconds": seconds,
            "elements": [e.name for e in self.group],
            "groups": self.names,
            "members": self.members,
            "fix": self.fix.tolist(),
            "classes": self.classes.tolist(),
            "hist": {name: {int(s): int(v) for s, v in enumerate(self.hist[i]) if v} for i, name in enumerate(self.names)},
            "sym_reps": self.sym_reps[: min(int(self.sym_count[0]), SYM_CAP)].tolist(),
            "sym_count": int(self.sym_count[0]),
            "collected": np.concatenate(self.kept).tolist() if self.kept else [],
            "collect_count": self.collected_total,
            "occupancy": self.occupancy.tolist() if occupancy else None,
            "examples": examples,
        }


def count_subtree(instance_json: Any, units: list[dict[str, Any]], options: dict[str, Any], budget: Budget | None = None, progress=None) -> dict[str, Any]:
    """Count the solutions of some work units with their symmetry statistics (a worker
    task: plain data in and out)."""
    inst = parse_instance(instance_json)
    budget = budget or Budget()
    tables = SearchTables.build(inst, options.get("order", "mrv"))
    cls = _Classifier(inst, tables, options.get("generators"), options.get("collect"), int(options.get("collect_cap", 0)), options.get("symmetry", True))
    examples: list[list[int]] = []
    total = nodes = 0
    complete = True
    started = time.perf_counter()
    for index, unit in enumerate(units):
        run = None
        report = None if progress is None else (lambda r, i=index: progress(i, r, total))
        for rows, n, run in _blocks(inst, tables, unit, budget, report):
            if n:
                if len(examples) < EXAMPLES:
                    examples += rows[: min(n, EXAMPLES - len(examples))].tolist()
                cls.feed(rows, n)
                total += n
        if run is not None:
            nodes += int(run.state[4])
            if run.valid and not run.done:
                complete = False
                break
    if len(units) == 0:
        complete = True
    return cls.stats(total, complete, nodes, time.perf_counter() - started, examples, bool(options.get("occupancy")))


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    merged = dict(parts[0])
    for key in ("total", "nodes", "sym_count", "collect_count"):
        merged[key] = sum(p[key] for p in parts)
    merged["seconds"] = sum(p["seconds"] for p in parts)
    merged["complete"] = all(p["complete"] for p in parts)
    merged["fix"] = [sum(v) for v in zip(*(p["fix"] for p in parts))]
    merged["classes"] = [sum(v) for v in zip(*(p["classes"] for p in parts))]
    hist: dict[str, dict[int, int]] = {}
    for p in parts:
        for name, h in p["hist"].items():
            for size, v in h.items():
                hist.setdefault(name, {}).setdefault(int(size), 0)
                hist[name][int(size)] += v
    merged["hist"] = hist
    merged["sym_reps"] = [r for p in parts for r in p["sym_reps"]][:SYM_CAP]
    merged["collected"] = [r for p in parts for r in p["collected"]]
    merged["examples"] = [r for p in parts for r in p["examples"]][:EXAMPLES]
    if parts[0].get("occupancy") is not None:
        merged["occupancy"] = np.sum([np.array(p["occupancy"]) for p in parts], axis=0).tolist()
    return merged


def count_solutions(
    inst: Instance,
    *,
    budget: Budget,
    progress=None,
    workers: int = 1,
    split_depth: int = 3,
    order: str = "mrv",
    symmetry: bool = True,
    reduce: bool = True,
    generators: list[str] | None = None,
    collect: str | None = None,
    collect_cap: int = 0,
    occupancy: bool = False,
    checkpoint: str | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, Any]:
    """Count every solution (merged statistics of all work units; see count_subtree).

    With one worker, no checkpoint and the local backend the units run in this process;
    otherwise they are split `split_depth` cells deeper and shipped as descriptors
    (instance JSON, units, options) to `core.parallel.run_tasks` on `backend` ('local'
    worker processes or a 'ray' cluster at `address`)."""
    options = {
        "order": order,
        "symmetry": symmetry,
        "generators": list(generators or []),
        "collect": collect,
        "collect_cap": collect_cap,
        "occupancy": occupancy,
    }
    started = time.perf_counter()
    units = plan_units(inst, reduce)
    instance_json = format_instance(inst)
    if workers <= 1 and not checkpoint and backend == "local":

        def report(i: int, run: SearchRun, found: int) -> None:
            progress(Progress("enumerate", done=(i + run.fraction()) / len(units), total=1.0, best=found + run.total, stats={"nodes": int(run.state[4])}))

        merged = count_subtree(instance_json, units, options, budget, report if progress is not None else None)
        merged["subtrees"] = len(units)
        merged["wall_seconds"] = time.perf_counter() - started
        return merged
    from puzzlelab.core.parallel import Task, run_tasks

    empty = count_subtree(instance_json, [], options)
    header = {"instance": instance_json, "options": options, "split_depth": split_depth, "reduce": reduce}
    state = load_checkpoint(checkpoint, header, empty, inst.board.cells, len(inst.tiles) * inst.sides)
    units = split_units(inst, units, split_depth, order, budget)
    if units is None:  # the budget ended while splitting: nothing counted
        return dict(_merge([empty]), complete=False, errors=[], subtrees=0, wall_seconds=time.perf_counter() - started)
    done: dict[str, dict[str, Any]] = state["done"]
    names = [json.dumps(u, sort_keys=True) for u in units]
    tasks = [Task(count_subtree, (instance_json, [u], options), name=name) for u, name in zip(units, names) if name not in done]
    parts = [done[name] for name in names if name in done]
    resumed = len(parts)  # read back from the checkpoint, not counted now
    errors: list[str] = []
    for outcome in run_tasks(tasks, workers=max(1, workers), budget=budget, backend=backend, address=address or None):
        if outcome.ok and outcome.value["complete"]:
            parts.append(outcome.value)
            done[outcome.name] = outcome.value
            save_checkpoint(checkpoint, state)
        elif not outcome.ok:
            errors.append(outcome.error.strip().splitlines()[-1] if outcome.error.strip() else "failed")
        if progress is not None:
            progress(Progress("subtrees", done=len(parts), total=len(units), best=sum(p["total"] for p in parts)))
    merged = _merge([empty] + parts)
    merged["complete"] = len(parts) == len(units)
    merged["errors"] = errors[:5]
    merged["subtrees"] = len(units)
    merged["resumed_subtrees"] = resumed
    merged["wall_seconds"] = time.perf_counter() - started
    return merged


def first_solution(inst: Instance, budget: Budget, order: str = "mrv") -> tuple[list[int] | None, str, int]:
    """The first solution in search order: (codes per cell or None, status, nodes)."""
    tables = SearchTables.build(inst, order)
    run = SearchRun(tables, (), capacity=1)
    while True:
        status = run.step(budget.control)
        if status == BUFFER_FULL:
            return run.buf[0].tolist(), "found", int(run.state[4])
        if status == DONE:
            return None, "none", int(run.state[4])
        if status == STOPPED:
            return None, "stopped", int(run.state[4])


def list_solutions(inst: Instance, order: str = "mrv", budget: Budget | None = None, reduce: bool = True) -> np.ndarray:
    """Every solution as rows of codes per cell (piece*k + least rotation)."""
    tables = SearchTables.build(inst, order)
    budget = budget or Budget()
    blocks = []
    for unit in plan_units(inst, reduce):
        for rows, n, _ in _blocks(inst, tables, unit, budget):
            blocks.append(rows[:n].copy())
    return np.concatenate(blocks) if blocks else np.zeros((0, tables.cells), dtype=np.int64)
