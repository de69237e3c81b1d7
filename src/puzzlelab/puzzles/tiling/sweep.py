"""The packed sweep of the exact column DP (heights <= 15): every column in one numba
call, states one uint64 each (4 bits a row, values 0..15: comparing and hashing a
state is one machine word, write-up section 1.3). The column DP itself (states,
MaxSize, JumpTo) is described in `kernels.py`; what this module adds for speed:

- no Python between columns and no allocation: states and parent links of every
  column in two flat arrays, written in place as the column's states are found; the
  hash table holds only a uint32 per slot (the state's index and a hash tag), so it
  stays half the size and most misses never touch the states (about 1.3
  times faster on random 15 x 60 grids than slots of two uint64);
- successor lists per pattern of open rows, shared by all the states with that
  pattern (and by the following columns while the free cells and the largest squares
  stay the same), built as the product of the lists of the pattern's runs of open
  rows (a square covers open rows only), each run enumerated once a column;
- an exact branch and bound against the squares of a known tiling, with per-row lower
  bounds (`row_bounds`).

`PackedSweep` holds the arrays the kernel works in and grows them when it asks
(`dp.ColumnDP` drives it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from puzzlelab.core.bits import ctz, monotonic_ns
from puzzlelab.core.result import NODES, should_stop
from puzzlelab.puzzles.tiling.kernels import GOLDEN, LOW_NIBBLES, STOP_EVERY, max_square_table
from puzzlelab.puzzles.tiling.shapes import frontier_shape_count

PACKED_MAX_HEIGHT = 15  # 4 bits a row in one uint64 (values 0..15)
STATE_BYTES = 12  # a uint64 state and an int32 parent link per state
MEMO_ENTRIES = 1 << 21  # successor lists of the open-row patterns (all of height 15: 1,346,269)
NO_UPPER = np.iinfo(np.int64).max // 4  # the branch and bound's `upper` when none is known
WEIGHT_UNIT = 1 << 20  # = bounds.WEIGHT_SCALE: cell weights in units of 2**-20 squares

SIZE_SHIFT = np.uint64(60)  # successor-list entries: placed rows (60 bits) | squares << 60
ROWS_MASK = np.uint64((1 << 60) - 1)
RUN_ENTRIES = 1 << 17  # the run lists of one column (a full height-15 column: 65,536)
PATTERNS = 1 << 15  # open-row patterns of a height-15 column
# sweep statuses (first of the returned pair)
SWEEP_DONE = 0
SWEEP_TABLE_FULL = -1
SWEEP_STOPPED = -2
SWEEP_STORAGE_FULL = -3
SWEEP_EMPTY = -4


@numba.njit(cache=True, inline="always")
def _pattern_index(need):
    """The 15-bit pattern of open rows: bit y of the result is bit 4y of `need`."""
    x = need
    x = (x | (x >> np.uint64(3))) & np.uint64(0x0303030303030303)
    x = (x | (x >> np.uint64(6))) & np.uint64(0x000F000F000F000F)
    x = (x | (x >> np.uint64(12))) & np.uint64(0x000000FF000000FF)
    x = (x | (x >> np.uint64(24))) & np.uint64(0xFFFF)
    return np.int64(x)


@numba.njit(cache=True)
def _list_successors(need, largest_col, memo, at, need_stack, state_stack, size_stack):
    """Append to memo[at:] every way to cover the open rows `need` (bit 4y = row y)
    with new squares: the rows they cover, each row holding its square's side, with
    the number of squares in the top 4 bits. Squares go top-down, each as large as
    the open run below its row and the free square there allow, then smaller (the
    write-up's MaxSize and JumpTo). Returns the new end."""
    one = np.uint64(1)
    depth = 0
    need_stack[0] = need
    state_stack[0] = 0
    size_stack[0] = 0
    while depth >= 0:
        need = need_stack[depth]
        if need == 0:
            memo[at] = state_stack[depth] | (np.uint64(depth) << SIZE_SHIFT)
            at += 1
            depth -= 1
            continue
        size = size_stack[depth]
        low = ctz(need)
        if size == 0:
            biggest = np.int64(largest_col[np.int64(low) >> 2])
            run = np.int64(ctz(~(need >> np.uint64(low)) & LOW_NIBBLES)) >> 2  # open rows from here
            size = run if run < biggest else biggest
        else:
            size -= 1
        if size == 0:
            depth -= 1
            continue
        size_stack[depth] = size
        rows = (LOW_NIBBLES & ((one << np.uint64(4 * size)) - one)) << np.uint64(low)
        need_stack[depth + 1] = need & ~rows
        state_stack[depth + 1] = state_stack[depth] | (rows * np.uint64(size))
        size_stack[depth + 1] = 0
        depth += 1
    return at


@numba.njit(cache=True)
def _list_by_runs(need, largest_col, memo, at, runs, run_stamp, run_start, generation, stacks, size_stack, choice):
    """The successor list of the open rows `need` (as `_list_successors` writes it) as
    the product of the lists of its maximal runs of open rows: a square covers open
    rows only, so the runs are tiled independently. Each run's list (keyed by its first
    row and length) is enumerated once per column generation into `runs`, whose
    runs[0] is its fill; runs[1:] holds the entries. Returns the new end of memo."""
    one = np.uint64(1)
    n_runs = 0
    rest = need
    while rest != 0:
        low = ctz(rest)
        length = np.int64(ctz(~(rest >> np.uint64(low)) & LOW_NIBBLES)) >> 2
        key = (np.int64(low) >> 2) * 16 + length
        if run_stamp[key] != generation:
            bits = (LOW_NIBBLES & ((one << np.uint64(4 * length)) - one)) << np.uint64(low)
            start = np.int64(runs[0])
            end = _list_successors(bits, largest_col, runs, start, stacks[0], stacks[1], size_stack)
            runs[0] = np.uint64(end)
            run_start[2 * key] = start
            run_start[2 * key + 1] = end
            run_stamp[key] = generation
        choice[2 * n_runs] = run_start[2 * key]
        choice[2 * n_runs + 1] = run_start[2 * key + 1]
        n_runs += 1
        rest &= ~((LOW_NIBBLES & ((one << np.uint64(4 * length)) - one)) << np.uint64(low))
    # the product of the runs' lists (entries of different runs add: disjoint rows,
    # squares counted in the top bits). A run with one way adds a constant; each other
    # run multiplies the list built so far, one copy of it per entry of its own list
    # (block 0 last, in place), so the inner loops run over whole lists (the
    # odometer this replaces carried once per entry of the last run, often one or two)
    base = np.uint64(0)
    for r in range(n_runs):
        if choice[2 * r + 1] - choice[2 * r] == 1:
            base += runs[choice[2 * r]]
    memo[at] = base
    size = 1
    for r in range(n_runs):
        first = choice[2 * r]
        n = choice[2 * r + 1] - first
        if n == 1:
            continue
        for j in range(n - 1, -1, -1):
            e = runs[first + j]
            dst = at + j * size
            for i in range(size):
                memo[dst + i] = memo[at + i] + e
        size *= n
    return at + size


@numba.njit(cache=True, nogil=True)
def packed_sweep(
    free_nibbles,
    largest,
    x,
    keys,
    parents,
    col_start,
    cost,
    table,
    shift,
    memo,
    pattern_stamp,
    pattern_start,
    memo_state,
    runs,
    run_stamp,
    run_start,
    flush,
    row_bound,
    upper,
    control,
    yield_ns,
    weight_suffix,
    weight_upper,
):
    """Columns x, x+1, ... of the exact DP with 4-bit rows in a uint64 (heights <= 15),
    in one call: no Python between columns, no allocation.

    free_nibbles[x]: bit 4y set when row y of column x is free; largest[y, x]: the
    largest free square at (x, y), at most 15. Column x's distinct states go to
    keys/parents[col_start[x] : col_start[x + 1]] (parents index the previous
    column's states; column -1 is the single empty state) and their squares to
    cost[x & 1, :]; flush[0/1, x]: index and squares of the state with nothing
    sticking out (-1 when none). table: 2**(64 - shift) uint32 hash slots, each the
    index + 1 of a state of the column (0: empty) with a tag of the hash above the index
    bits; a state derived again keeps the fewer squares (ties: the first parent).
    runs / run_stamp / run_start: the run lists (`_list_by_runs`).

    Successors depend on the previous state only through its pattern of open rows, so
    each pattern's successor list is enumerated once (memo, indexed by
    pattern_start/pattern_stamp) and reused by every state with that pattern, and by
    the next columns while their free cells and largest squares stay the same (a full
    rectangle's middle). memo_state = [generation, memo used, column the memo is for].

    Branch and bound, still exact: `upper` is the squares of a known tiling, and
    row_bound[y, c] the squares row y needs from column c on (each free run of the row
    needs ceil(run / largest side) squares; zero past the grid). A state whose squares
    plus the largest row bound of what it leaves uncovered exceed `upper` cannot end in
    an optimum and is not extended. When no state can be cut (the column's most
    squares plus the largest bound of an empty frontier stay within `upper`) the test
    is skipped. A column left with no state means `upper` was below the optimum:
    SWEEP_EMPTY (so does a best final state above `upper`, which the caller checks);
    either way the caller sweeps again without the bound.

    weight_upper >= 0 adds a second test: weight_suffix[y, c] is the weight of row y's
    cells from column c on, in units of 1 / WEIGHT_UNIT squares, from cell weights
    under which no square that fits weighs more than one square (the LP relaxation's
    duals, `bounds.lp_cell_weights`), so the cells a state leaves need at least their
    weight in squares; a state whose squares plus that exceed weight_upper / WEIGHT_UNIT
    is not extended.

    Returns (status, column): SWEEP_DONE with the width when all columns are done, or
    with the next column when the clock passed yield_ns (monotonic ns; the caller
    reports progress and calls again); SWEEP_TABLE_FULL / SWEEP_STORAGE_FULL at the
    column to redo after the caller grew the table / keys and parents;
    SWEEP_STOPPED when the budget ended.
    """
    one = np.uint64(1)
    height = largest.shape[0]
    width = free_nibbles.shape[0]
    slots = table.shape[0]
    mask = np.uint64(slots - 1)
    index_mask = np.uint32(slots - 1)  # a slot: state index + 1 (0 = empty) | hash tag above
    tag_mask = ~index_mask
    zero = np.uint32(0)
    limit = min(slots * 3 // 4, cost.shape[1])  # load factor at most 3/4
    storage = keys.shape[0]
    stacks = np.zeros((2, 17), dtype=np.uint64)
    size_stack = np.zeros(17, dtype=np.int64)
    choice = np.zeros(2 * 8, dtype=np.int64)  # a column has at most 8 runs of open rows
    while x < width:
        # the memo holds successor lists for the column memo_state[2]; keep it when this
        # column has the same free cells and largest squares
        same = memo_state[2] >= 0 and free_nibbles[memo_state[2]] == free_nibbles[x]
        if same:
            for y in range(height):
                if largest[y, memo_state[2]] != largest[y, x]:
                    same = False
                    break
        if not same:
            memo_state[0] += 1
            memo_state[1] = 0
            memo_state[2] = x
            runs[0] = one
        generation = memo_state[0]
        largest_col = largest[:, x]
        table[:] = zero
        row = x & 1
        n_prev = col_start[x] - col_start[x - 1] if x > 0 else 1
        prev_base = col_start[x - 1] if x > 0 else 0
        out_base = col_start[x]
        free = free_nibbles[x]
        n_out = 0
        leaves = 0
        counted = 0  # leaves of this column already added to control[NODES]
        bounded = False
        if x > 0:
            most = 0
            for i in range(n_prev):
                if cost[(x - 1) & 1, i] > most:
                    most = cost[(x - 1) & 1, i]
            for y in range(height):
                if most + row_bound[y, x] > upper:
                    bounded = True
        for i in range(n_prev):
            if x > 0:
                s = keys[prev_base + i]
                c = np.uint64(cost[(x - 1) & 1, i])
                if weight_upper >= 0:  # the LP duals' weight of what the state leaves
                    left = 0
                    for y in range(height):
                        v = np.int64((s >> np.uint64(4 * y)) & np.uint64(15))
                        left += weight_suffix[y, x - 1 + (v if v > 1 else 1)]
                    if np.int64(c) * WEIGHT_UNIT + left > weight_upper:
                        continue
                if bounded:
                    need_more = 0
                    for y in range(height):
                        v = np.int64((s >> np.uint64(4 * y)) & np.uint64(15))
                        b = row_bound[y, x - 1 + (v if v > 1 else 1)]
                        if b > need_more:
                            need_more = b
                    if np.int64(c) + need_more > upper:
                        continue
            else:
                s = np.uint64(0)
                c = np.uint64(0)
            nonzero = (s | (s >> np.uint64(1)) | (s >> np.uint64(2)) | (s >> np.uint64(3))) & LOW_NIBBLES
            d = s - nonzero
            still = (d | (d >> np.uint64(1)) | (d >> np.uint64(2)) | (d >> np.uint64(3))) & LOW_NIBBLES
            need = free & ~still
            p = _pattern_index(need)
            if pattern_stamp[p] != generation:
                if memo_state[1] + (1 << 14) > memo.shape[0]:  # a list holds at most 2**14
                    memo_state[0] += 1  # full: start afresh (lists are rebuilt on demand)
                    memo_state[1] = 0
                    generation = memo_state[0]
                    runs[0] = one
                start = memo_state[1]
                memo_state[1] = _list_by_runs(
                    need, largest_col, memo, start, runs, run_stamp, run_start, generation, stacks, size_stack, choice
                )
                pattern_start[p] = start
                pattern_start[p + PATTERNS] = memo_state[1]
                pattern_stamp[p] = generation
            for k in range(pattern_start[p], pattern_start[p + PATTERNS]):
                entry = memo[k]
                key = d | (entry & ROWS_MASK)
                squares = np.int32(c + (entry >> SIZE_SHIFT))
                hashed = key * GOLDEN
                h = hashed >> np.uint64(shift)
                tag = np.uint32((hashed << np.uint64(64 - shift)) >> np.uint64(32)) & tag_mask
                while True:
                    there = table[h]
                    if there == zero:
                        if n_out >= limit or out_base + n_out >= storage:
                            control[NODES] -= counted  # the column is redone
                            return (SWEEP_TABLE_FULL if n_out >= limit else SWEEP_STORAGE_FULL), x
                        keys[out_base + n_out] = key
                        parents[out_base + n_out] = i
                        cost[row, n_out] = squares
                        n_out += 1
                        table[h] = tag | np.uint32(n_out)
                        break
                    if (there & tag_mask) == tag:
                        j = np.int64(there & index_mask) - 1
                        if keys[out_base + j] == key:
                            if squares < cost[row, j]:
                                cost[row, j] = squares
                                parents[out_base + j] = i
                            break
                    h = (h + one) & mask
            leaves += pattern_start[p + PATTERNS] - pattern_start[p]
            if leaves >= STOP_EVERY:
                control[NODES] += leaves
                counted += leaves
                leaves = 0
                if should_stop(control):
                    return SWEEP_STOPPED, x
        control[NODES] += leaves
        flush[0, x] = -1
        flush[1, x] = -1
        for j in range(n_out):
            if (keys[out_base + j] & ~LOW_NIBBLES) == 0:  # the one state with nothing sticking out
                flush[0, x] = j
                flush[1, x] = cost[row, j]
                break
        col_start[x + 1] = out_base + n_out
        if n_out == 0:
            return SWEEP_EMPTY, x
        x += 1
        if monotonic_ns() >= yield_ns:
            break
    return SWEEP_DONE, x


def weight_suffixes(weights: np.ndarray | None, width: int, pad: int = 16) -> np.ndarray:
    """suffix[y, c]: the weight of row y from column c on (zero past the grid), for
    `packed_sweep`'s weight test; a 1 x 1 dummy when there are no weights."""
    if weights is None:
        return np.zeros((1, 1), dtype=np.int64)
    suffix = np.zeros((weights.shape[0], width + pad), dtype=np.int64)
    suffix[:, :width] = np.cumsum(weights[:, ::-1], axis=1)[:, ::-1]
    return suffix


def row_bounds(free: np.ndarray, side: int, pad: int = 16) -> np.ndarray:
    """bound[y, c]: squares row y needs from column c on, given nothing there is
    covered yet: each maximal free run of length L needs at least ceil(L / side)
    squares, `side` the largest square side. Zero past the grid (`pad` columns)."""
    height, width = free.shape
    bound = np.zeros((height, width + pad), dtype=np.int64)
    for y in range(height):
        run = 0
        for c in range(width - 1, -1, -1):
            if free[y, c]:
                run += 1
                bound[y, c] = bound[y, c + run] + -(-run // side)
            else:
                run = 0
                bound[y, c] = bound[y, c + 1]
    return bound


@numba.njit(cache=True)
def greedy_count(free):
    """Squares of the largest-first tiling (column by column, top down, each cell not yet
    covered gets the largest free square that does not overlap the squares placed):
    the quick upper bound of the branch and bound. Only squares of earlier rows of the
    same column or of earlier columns can overlap, and those reach the square's first
    column, so the uncovered run there limits its side."""
    largest = max_square_table(free)
    height, width = free.shape
    covered = np.zeros((height, width), dtype=np.bool_)
    count = 0
    for x in range(width):
        for y in range(height):
            if free[y, x] and not covered[y, x]:
                side = 0
                while side < largest[y, x] and y + side < height and not covered[y + side, x]:
                    side += 1
                for c in range(x, x + side):
                    for r in range(y, y + side):
                        covered[r, c] = True
                count += 1
    return count


@dataclass
class PackedSweep:
    """The arrays `packed_sweep` works in, and growing them when it asks.

    The hash table (uint32 slots) starts at 4,096 slots at most and doubles when a column fills it
    (SWEEP_TABLE_FULL, that column redone): each column clears the whole table, which
    for the small windows that stripe and window re-solving send would cost more than
    the sweep itself. The state storage starts at the most states the columns can hold
    (A242551(height) each, the frontier shapes: a column with blocked cells splits into
    independent parts and holds fewer), capped, and doubles up to the memory limit."""

    nibbles: np.ndarray
    largest: np.ndarray
    slots: int
    table: np.ndarray
    cost: np.ndarray
    keys: np.ndarray
    parents: np.ndarray
    col_start: np.ndarray
    memo: np.ndarray
    stamp: np.ndarray
    start: np.ndarray
    memo_state: np.ndarray
    runs: np.ndarray
    run_stamp: np.ndarray
    run_start: np.ndarray
    flush: np.ndarray
    row_bound: np.ndarray
    upper: int
    max_states: int
    weight_suffix: np.ndarray
    weight_upper: int

    @classmethod
    def allocate(cls, dp) -> PackedSweep:
        """The arrays for `dp` (a dp.ColumnDP with packed states)."""
        height, width = dp.height, dp.width
        nibbles = np.zeros(width, dtype=np.uint64)
        for y in range(height):
            nibbles |= dp.free[y].astype(np.uint64) << np.uint64(4 * y)
        bound = frontier_shape_count(max(height, 1))
        slots = max(1 << 6, min(1 << 12, 1 << (bound * 4 // 3).bit_length()))
        max_states = int(dp.max_memory_mb * 1e6 // STATE_BYTES)
        capacity = min(width * bound + 1, 1 << 20, max_states)
        side = max(1, min(height, PACKED_MAX_HEIGHT))
        known = dp.upper is not None
        return cls(
            nibbles=nibbles,
            largest=np.ascontiguousarray(np.minimum(dp.largest, PACKED_MAX_HEIGHT), dtype=np.int32),
            slots=slots,
            table=np.empty(slots, dtype=np.uint32),
            cost=np.zeros((2, slots * 3 // 4), dtype=np.int32),
            keys=np.empty(capacity, dtype=np.uint64),
            parents=np.empty(capacity, dtype=np.int32),
            col_start=np.zeros(width + 1, dtype=np.int64),
            memo=np.empty(MEMO_ENTRIES, dtype=np.uint64),
            stamp=np.full(PATTERNS, -1, dtype=np.int64),
            start=np.zeros(2 * PATTERNS, dtype=np.int64),
            memo_state=np.array([0, 0, -1], dtype=np.int64),
            runs=np.empty(RUN_ENTRIES, dtype=np.uint64),
            run_stamp=np.full(16 * 16, -1, dtype=np.int64),
            run_start=np.zeros(2 * 16 * 16, dtype=np.int64),
            flush=np.full((2, width), -1, dtype=np.int64),
            row_bound=row_bounds(dp.free, side) if known else np.zeros((height, width + 16), dtype=np.int64),
            upper=int(dp.upper) if known else NO_UPPER,
            max_states=max_states,
            weight_suffix=weight_suffixes(dp.weights, width),
            weight_upper=int(dp.upper) * WEIGHT_UNIT if known and dp.weights is not None else -1,
        )

    def run_from(self, x: int, control: np.ndarray, yield_ns: int) -> tuple[int, int]:
        """Columns x, x+1, ... until done, stopped, full, or past `yield_ns`."""
        status, at = packed_sweep(
            self.nibbles, self.largest, x, self.keys, self.parents, self.col_start, self.cost, self.table,
            64 - (self.slots.bit_length() - 1), self.memo, self.stamp, self.start, self.memo_state, self.runs, self.run_stamp, self.run_start, self.flush,
            self.row_bound, self.upper, control, yield_ns, self.weight_suffix, self.weight_upper,
        )  # fmt: skip
        return int(status), int(at)

    def grow_table(self) -> None:
        self.slots *= 2
        self.table = np.empty(self.slots, dtype=np.uint32)
        self.cost = np.concatenate([self.cost, np.zeros_like(self.cost)], axis=1)

    def grow_storage(self) -> bool:
        """Double the state storage within the memory limit; False when at the limit."""
        grown = min(2 * len(self.keys), self.max_states)
        if grown <= len(self.keys):
            return False
        self.keys = np.concatenate([self.keys, np.empty(grown - len(self.keys), dtype=np.uint64)])
        self.parents = np.concatenate([self.parents, np.empty(grown - len(self.parents), dtype=np.int32)])
        return True
