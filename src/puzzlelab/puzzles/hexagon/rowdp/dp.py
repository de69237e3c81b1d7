"""Row-by-row dynamic programming over level-k grids (seed write-up, "Other Programs":
"another used row-by-row dynamic programming"): exact counts of the level-k grids by
penalty, the lowest penalty, and the grids themselves, without enumerating them.

The cells are placed in submission (row) order. What the cells still to come need to
know of those placed is the frontier: the placed cells with a neighbour still to come,
each with its value (1..k, or k+1 for "more than k") and the set of lower values it
still lacks. Placing a cell only touches its placed neighbours (an equal pair costs a
penalty, a second support of the same value costs one, as scoring.py defines them), so
partial grids with the same frontier and penalty have the same futures and are counted
together: one table (frontier, penalty) -> count per step; the frontier is about a row
and a half of cells.

Pruning, both exact: a cell that lacks more supports than it has neighbours to come is
dead; and a state whose penalty plus a lower bound of what the remaining cells must
cost exceeds the bound is dropped. The lower bound comes from a first pass (lowest
penalty per step, no counts): the cells after step i are, turned by 180 degrees, the
cells up to step V-2-i, and the lowest penalty the first pass reached there cannot be
beaten by any grid within the bound (the turned grid is one too). In the first half,
where step V-2-i is not reached yet, the lowest penalty of step i-1 serves (the
cells up to step i-1 are among those up to V-2-i, and penalties only grow along a
path), so even the first half prunes: n = 9's level-1 pass under the level-2 bound
was out of reach without it.

The kernels are in rowdp/kernels.py; where the tables live (memory, spilled files, a
checkpoint folder a later run resumes from) is rowdp/tables.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.beam.search import beam_plan
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.rowdp import forms
from puzzlelab.puzzles.hexagon.rowdp.tables import CheckpointMismatch, DPCheckpoint, Tables, layout_digest, table_kind
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation

__all__ = ["DPStats", "count_levels", "level_counts", "level_grids", "lowest_penalty", "grids_within", "open_checkpoint", "TooLarge"]

MAX_STATES = 20_000_000  # about 1 GB of tables at two words a state; refused beyond
SPILL_BYTES: int | None = None  # None: tables.SPILL_BYTES (tests set 0 to spill every table)
TABLES = "compact"  # the min tables' form (tables.table_kind: wide past a byte's bound); "wide" is the earlier form


class TooLarge(RuntimeError):
    """The program ran out of its budget or its state limit (the message says where)."""


@dataclass
class DPStats:
    """What a run measured: peak table entries, seconds, the step it stopped at."""

    peak_states: int = 0
    seconds: float = 0.0
    first_pass_seconds: float = 0.0
    sizes: list[int] = field(default_factory=list)
    resumed_steps: int = 0  # steps a checkpoint already held


Progress = Callable[[dict], None]  # {"level", "pass", "step", "steps", "states", "peak", "seconds"}


def codes(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The frontier codes of level k: 1.. numbers the pairs (value v, missing lower
    values M), M a subset of 1..min(v-1, k) as a bit mask; 0 is the empty slot.
    Returns (value of code, mask of code, code of [v, M], bits per code)."""
    values, masks = [0], [0]
    code_of = np.zeros((k + 2, 128), dtype=np.int64)
    for v in range(1, k + 2):
        for m in range(1 << min(v - 1, k)):
            code_of[v, m] = len(values)
            values.append(v)
            masks.append(m)
    return np.array(values, dtype=np.int64), np.array(masks, dtype=np.int64), code_of, len(values).bit_length()


@dataclass(frozen=True)
class _Setup:
    n: int
    k: int
    plan: object
    code_v: np.ndarray
    code_m: np.ndarray
    code_of: np.ndarray
    bits: int
    spw: int
    words: int

    def args(self):
        p = self.plan
        return (p.own_slot, p.own_rem, p.prev_slot, p.prev_rem, p.allowed, self.code_v, self.code_m, self.code_of, self.k, self.bits, self.spw)


def _setup(n: int, k: int) -> _Setup:
    if not 1 <= k <= 6:
        raise ValueError(f"level: expected 1..6, got {k}")
    geometry = hexagon(n)
    plan = beam_plan(geometry, list(range(geometry.cells)), k)
    code_v, code_m, code_of, bits = codes(k)
    spw = 64 // bits
    words = -(-plan.slots // spw)
    return _Setup(n, k, plan, code_v, code_m, code_of, bits, spw, words)


def _projection(upper: _Setup, lower: _Setup) -> np.ndarray:
    """Code of level k -> code of level k-1 (values above k-1 become "more than k-1",
    the missing set keeps the values below k)."""
    keep = (1 << lower.k) - 1
    proj = np.zeros(len(upper.code_v), dtype=np.int64)
    for c in range(1, len(upper.code_v)):
        proj[c] = lower.code_of[min(int(upper.code_v[c]), lower.k + 1), int(upper.code_m[c]) & keep]
    return proj


def _layout(setup: _Setup) -> str:
    return layout_digest((setup.n, setup.k, *setup.args()))


def _sweep(setup: _Setup, bound: int, count_mode: bool, budget: Budget, stats: DPStats, guide=None,
           checkpoint: DPCheckpoint | None = None, progress: Progress | None = None):
    """The transfer over every cell. `guide` = (setup, tables) of a min pass of this
    level or the one below, whose least penalties still to come prune the states;
    without one (level 1's first pass) the second half is pruned by the lowest
    penalties of the first half, turned by 180 degrees (see the module docstring).
    Returns the tables of every step of a min pass, the last table only of a counting
    pass, [] when a step has no state left. A min pass with a checkpoint keeps every
    table in its folder and resumes after the last step it holds."""
    from puzzlelab.puzzles.hexagon.rowdp.kernels import dp_step, new_table

    steps = len(setup.plan.order)
    lowest = np.zeros(steps, dtype=np.int64)
    tables, done = [], []  # a counting pass keeps no table
    if checkpoint is not None and not count_mode:
        tables, done = checkpoint.start_level(setup.k, _layout(setup))
        lowest[: len(done)] = done
        stats.resumed_steps += len(done)
    elif not count_mode:
        tables = Tables(spill_bytes=SPILL_BYTES, compact=table_kind(TABLES, bound) == "compact")
    if tables:
        tk, tp, tv = forms.step_input(tables[-1])
    else:
        tk, tp, tv = new_table(2, setup.words)
        tp[0], tv[0] = 0, 1
    proj = _projection(setup, guide[0]) if guide is not None and guide[0].k != setup.k else np.zeros(1, dtype=np.int64)
    what = "counting pass" if count_mode else "min pass"
    started = time.perf_counter()
    for i in range(len(done), steps):
        if budget.expired():
            raise TooLarge(f"n={setup.n} level {setup.k} {what}: out of time at cell {i} of {steps} ({stats.peak_states:,} states at the peak so far)")
        turned = min(steps - 2 - i, i - 1)  # see the module docstring: the cells after step i hold, turned, those up to any step <= V-2-i
        future = int(lowest[turned]) if guide is None and turned >= 0 else 0
        if guide is not None:
            below = guide[0]
            extra = (True, forms.guide_arrays(guide[1][i]), proj, below.bits, below.spw, below.k == setup.k)
        else:
            extra = (False, forms.no_guide(), proj, setup.bits, setup.spw, True)
        tk, tp, tv, size = dp_step(tk, tp, tv, i, *setup.args(), bound - future, count_mode, *extra, MAX_STATES, budget.control)
        if size < 0 or size > MAX_STATES:
            why = "out of time" if budget.expired() else f"more than {MAX_STATES:,} states"
            raise TooLarge(f"n={setup.n} level {setup.k} {what}: {why} at cell {i} of {steps} ({stats.peak_states:,} states at the peak before)")
        stats.peak_states = max(stats.peak_states, size)
        stats.sizes.append(size)
        if progress is not None:
            progress({"level": setup.k, "pass": what, "step": i + 1, "steps": steps, "states": size, "peak": stats.peak_states,
                      "seconds": time.perf_counter() - started})
        if size == 0:
            if checkpoint is not None and not count_mode:
                checkpoint.settle(setup.k, i)
            return []
        lowest[i] = int(tp[tp >= 0].min())
        if count_mode:
            continue  # a counting pass is read only at its end: no table is kept
        kept, (tk, tp, tv) = forms.kept_form(tables, tk, tp, tv)
        tables.keep(kept)
        if checkpoint is not None:
            checkpoint.step_done(setup.k, lowest[: i + 1].tolist())
    return [(tk, tp, tv)] if count_mode else tables


def _min_pass(n: int, level: int, bound: int, budget: Budget, stats: DPStats, guide, checkpoint: DPCheckpoint | None, progress: Progress | None):
    """The level's min pass, pruned by the guide below, its tables turned into the least
    penalty still to come: the guide of the next level. None when no state is left. A
    checkpoint that already holds the filled level returns it without work, and the
    level below, no longer needed, leaves the folder."""
    setup = _setup(n, level)
    if checkpoint is not None:
        if checkpoint.settles(level):
            return None
        if checkpoint.usable(level):
            entry = checkpoint.level(level)
            if entry["layout"] != _layout(setup):
                checkpoint.start_level(level, _layout(setup))  # refuses, saying why
            stats.resumed_steps += entry["steps_done"]
            return setup, Tables.load(checkpoint.tables_folder(level), entry["steps_done"], checkpoint.compact)
    tables = _sweep(setup, bound, False, budget, stats, guide, checkpoint, progress)
    if not tables:
        return None
    forms.fill_futures(setup, tables)
    if checkpoint is not None:
        checkpoint.level_filled(level)
    return setup, tables


def _first_level(checkpoint: DPCheckpoint | None, k: int, counted=()) -> int:
    """Where a chain of min passes up to level k starts: the highest level a checkpoint
    holds filled (the levels below it are not needed again), provided every level in
    `counted` below it has its count recorded; else level 1."""
    if checkpoint is not None:
        for level in range(k, 1, -1):
            if checkpoint.usable(level) and all(checkpoint.count(w) is not None for w in counted if w < level):
                return level
    return 1


def _guides(n: int, k: int, bound: int, budget: Budget, stats: DPStats, checkpoint: DPCheckpoint | None = None, progress: Progress | None = None):
    """Min passes of levels 1..k, each pruned by the one below; returns the level-k
    (setup, tables) with the least penalty still to come in each table, or None when
    no level-k grid is within the bound."""
    t0 = time.perf_counter()
    if checkpoint is not None and checkpoint.settles(k):
        return None
    guide = None
    first = _first_level(checkpoint, k)
    for level in range(first, k + 1):
        guide = _min_pass(n, level, bound, budget, stats, guide, checkpoint, progress)
        if guide is None:
            return None
        if checkpoint is not None and level > 1:
            checkpoint.drop(level - 1)
    stats.first_pass_seconds = time.perf_counter() - t0
    return guide


def open_checkpoint(folder: str | Path | None, n: int, bound: int) -> DPCheckpoint | None:
    """The checkpoint folder of this question (made if new; CheckpointMismatch if it
    holds another), or None without a folder."""
    return DPCheckpoint(Path(folder), n, bound, table_kind(TABLES, bound)) if folder is not None else None


def _histogram(tables) -> dict[int, int]:
    out: dict[int, int] = {}
    if tables:
        _, tp, tv = tables[-1]
        for pen, cnt in zip(tp[tp >= 0].tolist(), tv[tp >= 0].tolist()):
            out[pen] = out.get(pen, 0) + cnt
    return dict(sorted(out.items()))


def count_levels(n: int, levels, bound: int, *, budget: Budget | None = None, on_level=None,
                 checkpoint: str | Path | None = None, progress: Progress | None = None) -> dict[int, tuple[dict[int, int], list[int] | None]]:
    """level -> (penalty -> number of level grids, for penalties up to `bound`; one
    grid of the lowest penalty, checked) for each wanted level, from one chain of min
    passes (levels 1..max) all under the same bound. on_level(level, histogram,
    seconds) is called as each level is done (seconds None: the count was read back from
    the checkpoint, not counted now). With a checkpoint folder the min passes
    resume from it and each finished count is kept there (its sample grid checked again
    when read back); a stopped counting pass starts again."""
    budget = budget or Budget()
    wanted = sorted(set(levels))
    folder = open_checkpoint(checkpoint, n, bound)
    out: dict[int, tuple[dict[int, int], list[int] | None]] = {}
    guide = None
    if folder is not None:  # every count asked for is already recorded (or below where a pass ran dry): read back
        dry = folder.settled["level"] if folder.settles(wanted[-1]) else None
        if all(folder.count(w) is not None for w in wanted if dry is None or w < dry):
            out = {w: _checked_count(n, w, bound, folder.count(w)) if dry is None or w < dry else ({}, None) for w in wanted}
            for level, (histogram, _) in out.items():
                if on_level and histogram:
                    on_level(level, histogram, None)
            return out
    first = _first_level(folder, wanted[-1], wanted)
    for level in [w for w in wanted if w < first]:  # counted by an earlier run: read back, checked
        out[level] = _checked_count(n, level, bound, folder.count(level))
        if on_level:
            on_level(level, out[level][0], None)
    for level in range(first, wanted[-1] + 1):
        t0 = time.perf_counter()
        stats = DPStats()
        guide = _min_pass(n, level, bound, budget, stats, guide, folder, progress)
        if guide is None:
            out.update({k: ({}, None) for k in wanted if k >= level})
            return out
        if level in wanted:
            kept = folder.count(level) if folder is not None else None
            if kept is not None:
                out[level] = _checked_count(n, level, bound, kept)
                t0 = None
            else:
                histogram = _histogram(_sweep(guide[0], bound, True, budget, stats, guide, progress=progress))
                low = min(histogram) if histogram else None
                sample = _walk(n, guide, low, True, 1, allow_more=True)[0] if histogram else None
                out[level] = (histogram, sample)
                if folder is not None:
                    folder.record_count(level, histogram, sample)
            if on_level:
                on_level(level, out[level][0], None if t0 is None else time.perf_counter() - t0)
        if folder is not None and level > first:
            folder.drop(level - 1)
    return out


def _grid_check(n: int, grid: list[int], level: int, geometry) -> tuple[str | None, int]:
    """(the first rule the grid breaks or None, its level penalty): the independent
    checks every grid the DP gives goes through before it is returned."""
    return rule_violation(n, grid), level_penalty(geometry, grid, level)


def _checked_count(n: int, level: int, bound: int, kept) -> tuple[dict[int, int], list[int] | None]:
    """A count read back from a checkpoint, its sample grid checked as _walk checks."""
    histogram, sample = kept
    if histogram:
        problem, penalty = _grid_check(n, sample, level, hexagon(n))
        if problem is not None or penalty != min(histogram) or penalty > bound:
            raise CheckpointMismatch(f"checkpoint: the recorded level-{level} count's sample grid fails its check (penalty {penalty}, {problem or 'rules kept'}); the folder was altered: use another")
    return histogram, sample


def level_counts(n: int, k: int, bound: int, *, budget: Budget | None = None, stats: DPStats | None = None) -> dict[int, int]:
    """penalty -> number of level-k grids of order n with that level penalty, for every
    penalty up to `bound` (no symmetry factored out)."""
    budget = budget or Budget()
    stats = stats if stats is not None else DPStats()
    t0 = time.perf_counter()
    guide = _guides(n, k, bound, budget, stats)
    out = _histogram(_sweep(guide[0], bound, True, budget, stats, guide)) if guide is not None else {}
    stats.seconds = time.perf_counter() - t0
    return out


def lowest_penalty(n: int, k: int, bound: int, *, budget: Budget | None = None, stats: DPStats | None = None) -> tuple[int, int] | None:
    """(lowest level-k penalty, number of grids reaching it), or None when no level-k
    grid has penalty <= bound. Exact: the table holds every grid within the bound."""
    counts = level_counts(n, k, bound, budget=budget, stats=stats)
    if not counts:
        return None
    low = min(counts)
    return low, counts[low]


def grids_within(n: int, k: int, bound: int, *, max_grids: int = 8, budget: Budget | None = None, stats: DPStats | None = None,
                 checkpoint: str | Path | None = None, progress: Progress | None = None) -> list[list[int]]:
    """Up to `max_grids` checked level-k grids of the lowest penalty, when it is <=
    bound; [] when no level-k grid is within the bound. The min passes alone settle
    the question (no counting pass): the cheapest exact answer to "is any level-k grid
    within the bound?" (`hexagon prove --method dp`). With a checkpoint folder a run
    stopped by its budget resumes where it stopped (rowdp/tables.py)."""
    stats = stats if stats is not None else DPStats()
    guide = _guides(n, k, bound, budget or Budget(), stats, open_checkpoint(checkpoint, n, bound), progress)
    if guide is None:
        return []
    low = int(forms.penalties(guide[1][-1]).min())
    return _walk(n, guide, low, True, max_grids, allow_more=True)


def level_grids(n: int, k: int, bound: int, *, exact: bool = False, max_grids: int = 100_000, budget: Budget | None = None, check_every: int = 1) -> list[list[int]]:
    """Every level-k grid with penalty <= bound (== bound when `exact`), values in cell
    order with k+1 for "more than k", each checked by the verifier's rule check and the
    scoring module's penalty count (every check_every-th grid only, for a caller that
    keeps none of them: checking costs about a millisecond a grid in Python). TooLarge
    if there are more than max_grids."""
    budget = budget or Budget()
    guide = _guides(n, k, bound, budget, DPStats())
    if guide is None:
        return []
    return _walk(n, guide, bound, exact, max_grids, check_every=check_every)


def _walk(n: int, guide, bound: int, exact: bool, max_grids: int, allow_more: bool = False, check_every: int = 1) -> list[list[int]]:
    """The grids of the guide's min tables within the bound, each checked (see level_grids)."""
    from puzzlelab.puzzles.hexagon.rowdp.kernels import walk_grids

    setup, tables = guide
    k = setup.k
    grids, found = walk_grids(*forms.walk_columns(tables), *setup.args(), bound, exact, max_grids)  # the tables in place, not copied
    if found > max_grids:
        if not allow_more:
            raise TooLarge(f"n={n} level {k}: more than {max_grids:,} grids within penalty {bound}")
        found = max_grids
    geometry = hexagon(n)
    out = []
    for index, row in enumerate(grids[:found]):
        values = [int(v) for v in row]  # row order = cell order
        out.append(values)
        if index % check_every:
            continue
        problem, penalty = _grid_check(n, values, k, geometry)
        if problem is not None or penalty > bound or (exact and penalty != bound):
            raise AssertionError(f"row DP produced a bad level-{k} grid (penalty {penalty}, bound {bound}): {problem}")
    return out
