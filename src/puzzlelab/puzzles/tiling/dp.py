"""The exact column DP (seed write-up, section 1) and its Python driver.

`ColumnDP` runs the kernels over an oriented boolean grid (rows x columns, the DP
sweeps the columns), keeps every column's parent links and rebuilds the squares of any
state. Heights up to 15 use the packed one-word states, all columns in one call of
`sweep.packed_sweep`; taller grids use the general multi-word step (the beam
heuristic's too, with its margins), which without pruning is still exact: the limit past 15 is
the number of frontier states a column holds (A242551 for a full rectangle: 67,635 at
height 15, about 2.2 times more per extra row), i.e. memory and time, not the packing.

`solve_exact` is the `dp` method's core (its run function is `runners.run_dp`): crop
to the free cells' bounding box, turn the grid so the short side is the height, run,
map the squares back.

Memory: `max_memory_mb` bounds everything a run holds (stored states and parent links,
and the column's hash table and output arrays before they are allocated), and it is
never more than `limits.memory_allowed` (the budget's bound, else a share of the
machine): a tall grid whose column states explode stops with DPStopped("memory")
instead of taking the machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from puzzlelab.core.result import Budget, Progress, ProgressFn, no_progress
from puzzlelab.puzzles.tiling import kernels, sweep
from puzzlelab.puzzles.tiling.limits import memory_allowed
from puzzlelab.puzzles.tiling.sweep import NO_UPPER, PACKED_MAX_HEIGHT, STATE_BYTES, PackedSweep

__all__ = ["ColumnDP", "DPStopped", "UpperTooLow", "solve_exact", "PACKED_MAX_HEIGHT", "bits_for"]

PROGRESS_EVERY_NS = 250_000_000
NO_ALLOW = np.full((1, 1), -1, dtype=np.int64)  # the general step without width pruning


class UpperTooLow(Exception):
    """An aspiration sweep (`ColumnDP.aspiration`) found no tiling within `upper`."""


class DPStopped(Exception):
    """The budget ended (or was cancelled), or the states outgrew the memory limit."""

    def __init__(self, reason: str, column: int):
        super().__init__(reason)
        self.reason = reason
        self.column = column


def bits_for(largest: int) -> int:
    """Bits a row needs in a general-step state: values run 0..largest square."""
    return max(4, int(largest).bit_length())


@dataclass
class ColumnDP:
    """Run the DP over `free` (rows x columns, bool). Heuristic pruning when `margin`
    >= 0 (then `deviation` >= 0 limits sizes and `width_cap` the states per column).
    `upper` (packed sweep only): the squares of a known tiling, for the exact branch
    and bound of `packed_sweep` (then peak_states and the flush states count only the
    states kept, so A242551 and the rectangle table run without it). `allow` (general
    step only, (width, v, v) int64): per column, the most squares a state with least and
    largest row values a, b may hold (the rectangle rows past 15, `rows.allowance`).
    `weights` (packed sweep, with `upper`): integer cell weights from the LP's duals
    (`bounds.lp_cell_weights`), a second exact bound of the branch and bound.
    `aspiration`: `upper` may be below the optimum on purpose; `run()` then raises
    UpperTooLow instead of sweeping again without the bound.

    After `run()`: `cost` (squares of the final state), `squares()` (x, y, size) in the
    coordinates of `free`; `peak_states`, `leaves` (derived tilings), `flush` (per
    column: (index, cost) of the state with nothing sticking out, or None).
    """

    free: np.ndarray
    margin: int = -1
    deviation: int = -1
    width_cap: int = 0
    max_memory_mb: float = 2000.0
    packed: bool | None = None
    record_flush: bool = False
    upper: int | None = None
    allow: np.ndarray | None = None
    weights: np.ndarray | None = None
    aspiration: bool = False
    peak_states: int = 0
    leaves: int = 0
    memory_bytes: int = 0
    flush: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.free = np.ascontiguousarray(self.free, dtype=bool)
        self.height, self.width = self.free.shape
        self.largest = kernels.max_square_table(self.free.astype(np.uint8))
        exact = self.margin < 0
        if self.packed is None:
            self.packed = exact and self.height <= PACKED_MAX_HEIGHT
        if self.packed and self.height > PACKED_MAX_HEIGHT:
            raise ValueError("packed states hold at most 15 rows")
        self.bits = 4 if self.packed else bits_for(int(self.largest.max(initial=0)))
        self.words = 1 if self.packed else math.ceil(self.height / (64 // self.bits))
        self._parents: list[np.ndarray] = []
        self._keys: list[np.ndarray] = []  # packed: states per column
        self._squares: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # general: start, len, buffer
        self.cost: int | None = None
        self.final_index = 0

    # ------------------------------------------------------------------ running
    def run(self, budget: Budget | None = None, progress: ProgressFn = no_progress, schedule=None) -> int:
        """Sweep all columns; returns the squares of the best final state. `schedule`,
        if given, is called before each column with the column index and returns
        (margin, deviation, width_cap) for it (the heuristic's shrinking margins)."""
        budget = budget or Budget()
        self.max_memory_mb = min(self.max_memory_mb, memory_allowed(budget) / 1e6)
        if self.packed:
            if schedule is not None or self.margin >= 0:
                raise ValueError("the packed sweep is the exact DP: no margins")
            return self._run_packed(budget, progress)
        return self._run_general(budget, progress, schedule)

    def _run_packed(self, budget: Budget, progress: ProgressFn) -> int:
        """The packed sweep: all columns in one kernel call (`packed_sweep`), back in
        Python only to report progress (about every quarter second) and, rarely, to grow
        the state storage or the hash table (`PackedSweep`)."""
        leaves_before = budget.nodes
        started = time.monotonic()
        if budget.expired():
            raise DPStopped("budget", 0)
        work = PackedSweep.allocate(self)
        x = 0
        while x < self.width:
            status, at = work.run_from(x, budget.control, time.monotonic_ns() + PROGRESS_EVERY_NS)
            if status == sweep.SWEEP_STOPPED:
                raise DPStopped("budget", at)
            if status == sweep.SWEEP_EMPTY:  # `upper` was below the optimum: sweep again without it
                if self.aspiration:
                    raise UpperTooLow()
                work.upper = NO_UPPER
                work.weight_upper = -1
                self.upper = None
                at = 0
            elif status == sweep.SWEEP_TABLE_FULL:
                work.grow_table()
            elif status == sweep.SWEEP_STORAGE_FULL and not work.grow_storage():
                self.memory_bytes = int(work.col_start[at]) * STATE_BYTES
                raise DPStopped("memory", at)
            x = at
            if x > 0 and status == sweep.SWEEP_DONE:
                n = int(work.col_start[x] - work.col_start[x - 1])
                progress(
                    Progress(
                        phase="column DP",
                        message=f"column {x}/{self.width}",
                        done=x,
                        total=self.width,
                        best=int(work.cost[(x - 1) & 1, :n].min()),
                        stats={"states": n, "seconds": round(time.monotonic() - started, 2)},
                    )
                )
        self._keep_packed(work)
        self.leaves = budget.nodes - leaves_before
        if self.upper is not None and self.cost > self.upper:
            # `upper` was below the optimum: what survived the bound need not be optimal
            if self.aspiration:
                raise UpperTooLow()
            self.upper = None
            return self._run_packed(budget, progress)
        return self.cost

    def _keep_packed(self, work: PackedSweep) -> None:
        """Keep a finished packed sweep's states and parent links per column, its flush
        states, and the best final state."""
        width, col_start = self.width, work.col_start
        counts = np.diff(col_start[: width + 1])
        self.peak_states = int(counts.max(initial=0))
        self.memory_bytes = int(col_start[width]) * STATE_BYTES
        self._keys = [work.keys[col_start[c] : col_start[c + 1]] for c in range(width)]
        self._parents = [work.parents[col_start[c] : col_start[c + 1]] for c in range(width)]
        self.flush = [(int(i), int(c)) if i >= 0 else None for i, c in work.flush.T] if self.record_flush else []
        last = work.cost[(width - 1) & 1, : int(col_start[width] - col_start[width - 1])]
        self.final_index = int(np.argmin(last))
        self.cost = int(last[self.final_index])

    def _run_general(self, budget: Budget, progress: ProgressFn, schedule) -> int:
        """The multi-word step, one kernel call per column (heights past 15, and the
        beam heuristic with its margins)."""
        control = budget.control
        leaves_before = budget.nodes
        started = time.monotonic()
        states = np.zeros((1, self.words), dtype=np.uint64)
        cost = np.zeros(1, dtype=np.int32)
        buffers: dict = {}
        slots = 1 << 10
        for x in range(self.width):
            if schedule is not None:
                self.margin, self.deviation, self.width_cap = schedule(x)
            if budget.expired() and self.margin < 0:
                raise DPStopped("budget", x)
            # a hash table about 1.5 times the states expected (those of the last
            # column): small enough to stay in cache, doubled when it overflows
            slots = max(1 << 10, 1 << (int(1.5 * len(cost)) - 1).bit_length())
            while True:
                if self.memory_bytes + states.nbytes + self._buffer_bytes(buffers, slots) > self.max_memory_mb * 1e6:
                    raise DPStopped("memory", x)
                buffers = self._buffers(buffers, slots)
                n, used = self._step(states, cost, x, buffers, control)
                if n == -1:
                    slots *= 2
                    continue
                if n == -3:
                    buffers["sq_capacity"] = 2 * len(buffers["sq"])
                    continue
                if n == -2:
                    raise DPStopped("budget", x)
                break
            states, cost = self._keep(x, n, used, buffers)
            self.peak_states = max(self.peak_states, len(cost))
            if self.memory_bytes > self.max_memory_mb * 1e6:
                raise DPStopped("memory", x)
            progress(
                Progress(
                    phase="column DP",
                    message=f"column {x + 1}/{self.width}",
                    done=x + 1,
                    total=self.width,
                    best=int(cost.min()),
                    stats={"states": len(cost), "seconds": round(time.monotonic() - started, 2)},
                )
            )
        self.leaves = budget.nodes - leaves_before
        self.final_index = int(np.argmin(cost))
        self.cost = int(cost[self.final_index])
        return self.cost

    def _buffer_bytes(self, buf: dict, slots: int) -> int:
        """What the column's buffers take once `_buffers(buf, slots)` has grown them."""
        capacity = max(slots * 3 // 4, len(buf.get("cost", ())))
        squares = max(buf.get("sq_capacity", 0), 4 * capacity, len(buf.get("sq", ())))
        return slots * 4 + capacity * (4 + 4 + 8 * self.words + 8 + 4) + squares * 4

    def _buffers(self, buf: dict, slots: int) -> dict:
        """Hash table of `slots` slots (kept at most 3/4 full) and output arrays for as
        many states, reusing what is already large enough."""
        capacity = slots * 3 // 4
        if buf.get("slots") != slots:
            buf["slots"] = slots
            buf["table"] = np.zeros(slots, dtype=np.int32)
            buf["shift"] = 64 - (slots.bit_length() - 1)
        if len(buf.get("cost", ())) < capacity:
            buf["cost"] = np.zeros(capacity, dtype=np.int32)
            buf["parent"] = np.zeros(capacity, dtype=np.int32)
            buf["states"] = np.zeros((capacity, self.words), dtype=np.uint64)
            buf["sq_start"] = np.zeros(capacity, dtype=np.int64)
            buf["sq_len"] = np.zeros(capacity, dtype=np.int32)
        want = max(buf.get("sq_capacity", 0), 4 * capacity)
        if len(buf.get("sq", ())) < want:
            buf["sq"] = np.zeros(want, dtype=np.int32)
        return buf

    def _step(self, states, cost, x, buf, control) -> tuple[int, int]:
        column = self.free[:, x]
        n, used = kernels.general_column_step(
            states,
            cost,
            len(cost),
            column.astype(np.uint8),
            self.largest[:, x].astype(np.int32),
            self.bits,
            self.margin,
            self.deviation,
            buf["table"],
            buf["shift"],
            buf["states"],
            buf["cost"],
            buf["parent"],
            buf["sq_start"],
            buf["sq_len"],
            buf["sq"],
            control,
            NO_ALLOW if self.allow is None else self.allow[x],
        )
        return int(n), int(used)

    def _keep(self, x: int, n: int, used: int, buf: dict) -> tuple[np.ndarray, np.ndarray]:
        """Store the column's parent links; return the states carried to the next column
        (for the heuristic: those within the margin of the best, at most width_cap)."""
        cost = buf["cost"][:n]
        keep = None
        if self.margin >= 0 and n:
            best = int(cost.min())
            keep = np.flatnonzero(cost <= best + self.margin)
            if self.width_cap and len(keep) > self.width_cap:
                order = np.argsort(cost[keep], kind="stable")[: self.width_cap]
                keep = np.sort(keep[order])
            if len(keep) == n:
                keep = None
        take = (lambda a: a[:n].copy()) if keep is None else (lambda a: a[keep])
        parent = take(buf["parent"])
        kept_cost = take(buf["cost"])
        self._parents.append(parent)
        states = take(buf["states"])
        start, length = take(buf["sq_start"]), take(buf["sq_len"])
        sq = buf["sq"][:used].copy()
        self._squares.append((start, length, sq))
        self.memory_bytes += parent.nbytes + start.nbytes + length.nbytes + sq.nbytes
        if self.record_flush:
            per_word = 64 // self.bits
            low = np.uint64(sum(1 << (r * self.bits) for r in range(per_word)))
            flat = np.flatnonzero(((states & ~low) == 0).all(axis=1))
            self.flush.append((int(flat[0]), int(kept_cost[flat[0]])) if len(flat) else None)
        return states, kept_cost

    # ------------------------------------------------------------------ rebuilding
    def squares(self, end_column: int | None = None, index: int | None = None) -> list[tuple[int, int, int]]:
        """The squares (x, y, size) of a state, by default the best final one; with
        `end_column` / `index`, of that state of that column (a tiling of the columns
        0..end_column when the state is a flush one)."""
        x = self.width - 1 if end_column is None else end_column
        j = self.final_index if index is None else index
        out: list[tuple[int, int, int]] = []
        while x >= 0:
            parent = int(self._parents[x][j])
            if self.packed:
                key = int(self._keys[x][j])
                prev = int(self._keys[x - 1][parent]) if x > 0 else 0
                y = 0
                while y < self.height:
                    before = (prev >> (4 * y)) & 15
                    now = (key >> (4 * y)) & 15
                    if before <= 1 and now > 0 and self.free[y, x]:
                        out.append((x, y, now))
                        y += now
                    else:
                        y += 1
            else:
                start, length, sq = self._squares[x]
                for code in sq[int(start[j]) : int(start[j]) + int(length[j])]:
                    out.append((x, int(code) >> 10, int(code) & 1023))
            j = parent
            x -= 1
        return out



def solve_exact(
    free: np.ndarray,
    budget: Budget | None = None,
    progress: ProgressFn = no_progress,
    max_memory_mb: float = 2000.0,
    upper: int | None = None,
    duals: tuple[float, np.ndarray] | None = None,
) -> tuple[int, list[tuple[int, int, int]], dict]:
    """Fewest squares for a boolean grid (rows x columns): (count, squares, stats).
    Crops to the free cells, turns the grid so the short side is the height. Raises
    DPStopped when the budget or the memory limit ends it. `upper`: the squares of a
    tiling known to exist (a re-solved window's present squares), which tightens the
    branch and bound; the answer stays exact whatever it is. `duals`: the LP's optimum
    and cell weights (`bounds.lp_cell_weights`, same grid): the packed sweep then aims
    at ceil(LP), ceil(LP) + 1, ... (`_sweep_exact`)."""
    free = np.asarray(free, dtype=bool)
    if not free.any():
        return 0, [], {"height": 0, "peak_states": 0}
    rows = np.flatnonzero(free.any(axis=1))
    cols = np.flatnonzero(free.any(axis=0))
    y0, x0 = int(rows[0]), int(cols[0])
    crop = free[y0 : int(rows[-1]) + 1, x0 : int(cols[-1]) + 1]
    turned = crop.shape[0] > crop.shape[1]
    work = crop.T if turned else crop
    bound = None  # the branch and bound's upper bound (packed sweep only)
    if work.shape[0] <= PACKED_MAX_HEIGHT:
        # a quick tiling's squares bound the branch and bound (decisive on open
        # areas such as full rectangles, where the row bounds are tight)
        bound = int(sweep.greedy_count(np.ascontiguousarray(work, dtype=np.uint8)))
        if upper is not None:
            bound = min(bound, int(upper))
    budget = budget or Budget()
    nodes = budget.nodes
    dp, runs = _sweep_exact(work, bound, budget, progress, max_memory_mb, _crop_turn(duals, y0, x0, crop.shape, turned))
    count = int(dp.cost)
    squares = []
    for x, y, size in dp.squares():
        if turned:
            x, y = y, x
        squares.append((x + x0, y + y0, size))
    stats = {
        "height": int(work.shape[0]),
        "packed": bool(dp.packed),
        "bits_per_row": dp.bits,
        "words": dp.words,
        "peak_states": dp.peak_states,
        "derived": budget.nodes - nodes,  # by every sweep
        "memory_mb": round(dp.memory_bytes / 1e6, 1),
        "memory_limit_mb": round(dp.max_memory_mb, 1),
        "sweeps": runs,
    }
    return count, squares, stats


def _crop_turn(duals, y0: int, x0: int, shape: tuple[int, int], turned: bool):
    """`duals` with its weights cropped and turned as solve_exact's grid."""
    if duals is None:
        return None
    weights = duals[1][y0 : y0 + shape[0], x0 : x0 + shape[1]]
    return duals[0], np.ascontiguousarray(weights.T if turned else weights, dtype=np.int64)


def _sweep_exact(work, bound, budget, progress, max_memory_mb, duals) -> tuple[ColumnDP, int]:
    """The finished ColumnDP of solve_exact and its number of sweeps. With the LP's duals
    (packed grids), aspiration sweeps aim at ceil(LP), then one more each time none is
    within the aim (UpperTooLow): the weights cut most states when the aim is tight,
    and the first aim reached is the optimum, since the LP bounds it from below; the
    last aim, `bound`, is a tiling's count (a plain bounded sweep)."""
    if duals is None or bound is None:
        dp = ColumnDP(work, max_memory_mb=max_memory_mb, upper=bound)
        dp.run(budget, progress)
        return dp, 1
    aim, runs = min(bound, max(0, math.ceil(duals[0] - 1e-6))), 0
    while True:
        runs += 1
        dp = ColumnDP(work, max_memory_mb=max_memory_mb, upper=aim, weights=duals[1], aspiration=aim < bound)
        try:
            dp.run(budget, progress)
            return dp, runs
        except UpperTooLow:
            aim += 1

