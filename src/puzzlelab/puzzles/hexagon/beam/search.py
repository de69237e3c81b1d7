"""The `beam` method: beam search over the cells in clock or spiral order (seed
write-up, "Algorithms": clock order, and a spiral from the centre through some radius
followed by the clock sweep, worked best for its author). The kernel is in beam/kernels.py;
this module builds the cell order, the frontier slots and the grids.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from puzzlelab.core.inputs import shown
from puzzlelab.core.memory import require_memory
from puzzlelab.core.result import Budget, Progress, Result, Status
from puzzlelab.puzzles.hexagon.completion.from_level import complete_partial
from puzzlelab.puzzles.hexagon.fields import FieldsByName
from puzzlelab.puzzles.hexagon.model import Hexagon, cell_count, edge_count, format_grid, hexagon
from puzzlelab.puzzles.hexagon.results import grid_figures

__all__ = ["cell_order", "BeamPlan", "beam_plan", "beam_bytes", "require_beam_memory", "beam_search", "run_kernel", "run_beam"]

ORDERS = ("clock", "spiral", "rows")
CACHE_BITS = 14  # lookaside cache entries, 2**14 (see kernels.beam_kernel_packed)


def _angle(geometry: Hexagon, cell: int) -> float:
    x, y = geometry.xy(cell)
    return math.atan2(-y, x) % (2 * math.pi)  # counter-clockwise from +x, y pointing up


def cell_order(geometry: Hexagon, order: str = "spiral", spiral_radius: int = 3) -> list[int]:
    """Cells in processing order: 'rows' (submission order), 'clock' (by angle around
    the centre, nearer first on a tie), 'spiral' (rings up to `spiral_radius` from the
    centre one by one, each by angle; then the clock sweep of the rest)."""
    cells = range(geometry.cells)
    if order == "rows":
        return list(cells)
    distance = geometry.n - geometry.ring
    if order == "clock":
        return sorted(cells, key=lambda c: (0 if distance[c] == 0 else 1, round(_angle(geometry, c), 9), distance[c]))
    if order == "spiral":
        inner = sorted((c for c in cells if distance[c] <= spiral_radius), key=lambda c: (distance[c], round(_angle(geometry, c), 9)))
        outer = sorted((c for c in cells if distance[c] > spiral_radius), key=lambda c: (round(_angle(geometry, c), 9), distance[c]))
        return inner + outer
    raise ValueError(f"order: expected one of {ORDERS}, got {shown(order)}")


@dataclass(frozen=True)
class BeamPlan(FieldsByName):
    """The per-step arrays the kernel reads (see kernels.beam_kernel): each step's cell
    slot and its neighbours still to come, the earlier neighbours' slots and theirs, the
    slots freed after the step, the values allowed (a bit mask); the frontier's size in
    slots, and the cell order."""

    own_slot: np.ndarray
    own_rem: np.ndarray
    prev_slot: np.ndarray
    prev_rem: np.ndarray
    close_slot: np.ndarray
    allowed: np.ndarray
    slots: int
    order: list[int]


def beam_plan(geometry: Hexagon, order: list[int], top: int, fixed: dict[int, int] | None = None, floor: int = 0) -> BeamPlan:
    """The plan of a beam over the cells in `order`: a cell's slot is reused once every
    neighbour of it has been placed, so the frontier stays small. `fixed` pins cells;
    the others take values above `floor` (a level question on a level-`floor` grid)."""
    steps = len(order)
    position = {c: i for i, c in enumerate(order)}
    own_slot = np.zeros(steps, dtype=np.int32)
    own_rem = np.zeros(steps, dtype=np.int32)
    prev_slot = np.full((steps, 6), -1, dtype=np.int32)
    prev_rem = np.zeros((steps, 6), dtype=np.int32)
    close_slot = np.full((steps, 6), -1, dtype=np.int32)
    allowed = np.zeros(steps, dtype=np.int32)
    slot_of: dict[int, int] = {}
    free: list[int] = []
    slots = 0
    for i, c in enumerate(order):
        if free:
            slot = free.pop()
        else:
            slot, slots = slots, slots + 1
        slot_of[c] = slot
        own_slot[i] = slot
        nbrs = geometry.neighbours_of(c)
        own_rem[i] = sum(1 for j in nbrs if position[j] > i)
        closing = []
        k = 0
        for j in nbrs:
            if position[j] < i:
                prev_slot[i, k] = slot_of[j]
                rem = sum(1 for t in geometry.neighbours_of(j) if position[t] > i)
                prev_rem[i, k] = rem
                if rem == 0:
                    closing.append(slot_of[j])
                k += 1
        if own_rem[i] == 0:
            closing.append(slot)
        for k, s in enumerate(closing):
            close_slot[i, k] = s
        cap = min(top + 1, int(geometry.degree[c]) + 1)
        mask = (1 << cap) - 1
        if fixed and c in fixed:
            mask &= 1 << (min(fixed[c], top + 1) - 1)
        else:
            mask &= ~((1 << floor) - 1)
        allowed[i] = mask
        free.extend(closing)
    return BeamPlan(own_slot, own_rem, prev_slot, prev_rem, close_slot, allowed, max(slots, 1), order)


def beam_bytes(cells: int, slots: int, width: int, top: int, kernel: str = "packed") -> int:
    """What a beam kernel allocates. Per kept state: its cells, two frontiers (values
    and masks, an int8 each per slot, twice), penalties and hashes; per candidate
    (width x (top+1)) a key, a parent, a value and argsort's int64 order with its copy;
    the Zobrist table (8 x 64 uint64 per slot, drawn as int64 then converted). The
    cells: 'history' an int32 parent and an int8 value per step (5 bytes a cell);
    'packed' a uint64 word of 64 // bits cells and an int32 ancestor per full
    word, and the word being filled with its ancestor, twice (old and new pool)."""
    from puzzlelab.puzzles.hexagon.beam.kernels import value_bits

    choices = top + 1
    if kernel == "history":
        grid = 5 * cells
    else:
        per = 64 // value_bits(top)
        grid = 12 * -(-cells // per) + 2 * 12
    per_state = grid + 4 * slots + 24 + 29 * choices
    cache = (1 << CACHE_BITS) * (12 + 10 * choices)
    return width * per_state + 2 * 8 * 8 * 64 * slots + cache + 50_000_000


def _slots_bound(n: int, spiral_radius: int) -> int:
    """The frontier slots of a beam plan, from above without building it (measured:
    rows and clock orders keep 2n, spiral 2n + 2 * radius + 5 at most, for n <= 200)."""
    return min(cell_count(n), 2 * n + 2 * max(spiral_radius, 0) + 12)


def require_beam_memory(n: int, width: int, top: int, budget: Budget | None = None, spiral_radius: int = 3, slots: int | None = None) -> None:
    """Refuse up front (InvalidInstance 413, with the figure) a beam whose arrays cannot
    fit in the memory allowed (the budget's bound, else the machine's available memory):
    the documented largest width, 10^7, on order 27 needs about 17 GB (110 GB
    before the cells were packed)."""
    slots = _slots_bound(n, spiral_radius) if slots is None else slots
    nbytes = beam_bytes(cell_count(n), slots, width, top)
    require_memory(nbytes, f"beam width {width} on order {n}", budget, "width")


def beam_search(
    n: int,
    *,
    width: int = 2000,
    order: str = "spiral",
    spiral_radius: int = 3,
    top: int = 5,
    seed: int = 0,
    budget: Budget | None = None,
    cutoff: int = 1 << 30,
    fixed: dict[int, int] | None = None,
    keep: int = 1,
    floor: int = 0,
    kernel: str = "packed",
) -> list[tuple[int, list[int]]]:
    """Run the beam once; the best `keep` final states as (level penalty, values with
    top+1 meaning 'more than top'), best first; [] if the beam died or time ran out.
    `fixed` pins cells, the others take values above `floor`. `kernel`: see run_kernel
    (both give the same states)."""
    budget = budget or Budget()
    geometry = hexagon(n)
    cells = cell_order(geometry, order, spiral_radius)
    plan = beam_plan(geometry, cells, top, fixed, floor)
    require_beam_memory(n, width, top, budget, slots=plan.slots)
    rng = np.random.default_rng(seed)
    zobrist = rng.integers(0, np.iinfo(np.int64).max, size=(plan.slots, 8, 64), dtype=np.int64).astype(np.uint64)
    states, penalty, count, done = run_kernel(plan, top, width, zobrist, cutoff, budget, kernel)[:4]
    if count == 0 or done < len(cells):
        return []
    out = []
    for state in range(min(keep, count)):
        values = [0] * geometry.cells
        for i, v in enumerate(states(state)):
            values[cells[i]] = v
        out.append((int(penalty[state]), values))
    return out


def run_kernel(plan: BeamPlan, top: int, width: int, zobrist: np.ndarray, cutoff: int, budget: Budget, kernel: str = "packed", cache_bits: int = CACHE_BITS):
    """Run one beam kernel on a plan: (states, final penalties, count, steps done,
    cache lookups, cache hits); states(t) lists final state t's values in plan order.
    'packed' (the default) keeps each state's grid packed with a lookaside cache of
    penalties (cache_bits 0: none); 'history', the reference, keeps a parent index and
    a value per step."""
    from puzzlelab.puzzles.hexagon.beam.kernels import beam_kernel, beam_kernel_packed, value_bits

    args = (plan.own_slot, plan.own_rem, plan.prev_slot, plan.prev_rem, plan.close_slot, plan.allowed, top, plan.slots, width, zobrist, cutoff, budget.control)
    steps = len(plan.order)
    if kernel == "history":
        parent, value, penalty, count, done = beam_kernel(*args)

        def history(state: int) -> list[int]:
            out = [0] * steps
            for i in range(steps - 1, -1, -1):
                out[i] = int(value[i, state])
                state = int(parent[i, state])
            return out

        return history, penalty, count, done, 0, 0
    bits = value_bits(top)
    words, parents, penalty, count, done, lookups, hits = beam_kernel_packed(*args, bits, cache_bits)
    per = 64 // bits

    def packed(state: int) -> list[int]:
        out = [0] * steps
        for w in range(len(words) - 1, -1, -1):
            word = int(words[w, state])
            for i in range(w * per, min(steps, (w + 1) * per)):
                out[i] = ((word >> (i % per * bits)) & ((1 << bits) - 1)) + 1
            state = int(parents[w, state])
        return out

    return packed, penalty, count, done, lookups, hits


def run_beam(instance, *, budget: Budget, progress, seed: int = 0, width: int = 2000, order: str = "spiral", spiral_radius: int = 3, levels: int = 5, restarts: int = 0) -> Result:
    """Method entry: beam runs with seeds seed, seed+1, ... while time is left (or
    `restarts` + 1 of them); the best completed grid wins."""
    n = instance.n
    require_beam_memory(n, width, levels, budget, spiral_radius)
    started = time.perf_counter()
    best: tuple[int, list[int]] | None = None
    runs, run_seconds, failed = 0, [], 0
    fallbacks = [order] + [o for o in ORDERS if o != order]
    while True:
        t0 = time.perf_counter()
        # A beam can die (every state has a hidden dead end); then the next run tries
        # the next cell order.
        current = fallbacks[failed % len(fallbacks)]
        found = beam_search(n, width=width, order=current, spiral_radius=spiral_radius, top=levels, seed=seed + runs, budget=budget)
        failed += not found
        runs += 1
        run_seconds.append(time.perf_counter() - t0)
        if found:
            _, partial = found[0]
            grid, penalty = complete_partial(n, partial, levels, budget if best is not None else None)
            if best is None or penalty < best[0]:
                best = (penalty, grid)
                progress(Progress(phase="beam", message=f"run {runs}", best=edge_count(n) - penalty))
        if restarts and runs > restarts:
            break
        if budget.expired() or (not restarts and budget.seconds_left() < 1.5 * max(run_seconds)):
            break
    seconds = time.perf_counter() - started
    if best is None:
        return Result(None, None, Status.UNKNOWN, "beam", stats={"seconds": round(seconds, 3), "runs": runs})
    _, grid = best
    raw, figures = grid_figures(n, grid)
    stats = {
        "seconds": round(seconds, 3),
        **figures,
        "runs": runs,
        "width": width,
        "order": order,
        "seconds_per_run": round(float(np.median(run_seconds)), 3),
    }
    return Result(raw, format_grid(n, grid), Status.FEASIBLE, "beam", stats=stats)
