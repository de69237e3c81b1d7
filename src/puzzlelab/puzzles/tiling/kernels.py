"""Numba kernels of the square-tiling puzzle: the column step of the frontier DP, in a
fast packed form (one uint64 per state, heights <= 15) and a general form (several
uint64 words per state, any height, with the heuristic's pruning), plus the table of
largest squares.

The column DP (seed write-up, section 1): columns are processed left to right. A
partial tiling covers every free cell of the columns done so far, and may stick out to
the right. Its *state* is, per row, how many columns starting at the current one are
already covered (0 = this cell still needs a square). Two partial tilings with the same
state have the same futures, so only the one with fewer squares is kept (a hash map per
column). Moving to the next column subtracts 1 from every row; the rows at 0 that are
free are then covered top-down by new squares, each as large as the rows below it and
the free cells to the right allow (MaxSize; rows already covered are skipped, the
write-up's JumpTo). Every way of doing so is one derived state.

Heights up to 15 pack a state in one uint64, 4 bits a row (values 0..15): comparing
and hashing states is one machine word (write-up 1.3). Past 15 the general step packs
`bits` bits a row into `words` uint64s; with finite margins it becomes the heuristic
of section 2 (Cost Margin: drop a branch that cannot end within `margin` squares of
the best state of the column; Size Deviation: try only the `deviation + 1` largest
sizes at each row; MinSquares: the fewest squares that still finish the column, the
bound the margin is tested with).

Both steps record, per derived state, its parent (index in the previous column) so the
squares can be rebuilt; the general step also records the squares it placed
(row * 1024 + size, in a flat buffer), since its states are too large to keep for
every column. Both return the number of states written, -1 when an output buffer is
full (the caller grows it and repeats the column) or -2 when the budget stopped them.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.bits import ctz, monotonic_ns
from puzzlelab.core.result import should_stop

LOW_NIBBLES = np.uint64(0x1111111111111111)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
ROW_SHIFT = 10  # square records are row << ROW_SHIFT | size (sides <= 1000 < 1024)
STOP_EVERY = 1 << 16


@numba.njit(cache=True)
def max_square_table(free):
    """largest[y, x]: side of the largest all-free square with top-left cell (x, y)."""
    height, width = free.shape
    table = np.zeros((height + 1, width + 1), dtype=np.int32)
    for y in range(height - 1, -1, -1):
        for x in range(width - 1, -1, -1):
            if free[y, x]:
                a = table[y + 1, x]
                b = table[y, x + 1]
                c = table[y + 1, x + 1]
                m = a if a < b else b
                m = m if m < c else c
                table[y, x] = m + 1
    return table[:height, :width].copy()


# --------------------------------------------------------------------------- packed (<= 15)


SIZE_SHIFT = np.uint64(60)  # successor-list entries: placed rows (60 bits) | squares << 60
ROWS_MASK = np.uint64((1 << 60) - 1)
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
    flush,
    row_bound,
    upper,
    control,
    yield_ns,
):
    """Columns x, x+1, ... of the exact DP with 4-bit rows in a uint64 (heights <= 15),
    in one call: no Python between columns, no allocation.

    free_nibbles[x]: bit 4y set when row y of column x is free; largest[y, x]: the
    largest free square at (x, y), at most 15. Column x's distinct states go to
    keys/parents[col_start[x] : col_start[x + 1]] (parents index the previous
    column's states; column -1 is the single empty state) and their squares to
    cost[x & 1, :]; flush[0/1, x]: index and squares of the state with nothing
    sticking out (-1 when none). table: (2**(64 - shift), 2) uint64 hash slots holding
    a state and (squares << 32 | parent), the smaller kept (ties: the first parent).

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
    is skipped. A column left with no state means `upper` was wrong: SWEEP_EMPTY.

    Returns (status, column): SWEEP_DONE with the width when all columns are done, or
    with the next column when the clock passed yield_ns (monotonic ns; the caller
    reports progress and calls again); SWEEP_TABLE_FULL / SWEEP_STORAGE_FULL at the
    column to redo after the caller grew the table / keys and parents;
    SWEEP_STOPPED when the budget ended.
    """
    one = np.uint64(1)
    empty = ~np.uint64(0)  # no state has all 64 bits set (rows use 60)
    low32 = np.uint64(0xFFFFFFFF)
    height = largest.shape[0]
    width = free_nibbles.shape[0]
    slots = table.shape[0]
    mask = np.uint64(slots - 1)
    limit = min(slots * 3 // 4, cost.shape[1])  # load factor at most 3/4
    storage = keys.shape[0]
    need_stack = np.zeros(17, dtype=np.uint64)
    state_stack = np.zeros(17, dtype=np.uint64)
    size_stack = np.zeros(17, dtype=np.int64)
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
        generation = memo_state[0]
        largest_col = largest[:, x]
        for h in range(slots):
            table[h, 0] = empty
        n_prev = col_start[x] - col_start[x - 1] if x > 0 else 1
        prev_base = col_start[x - 1] if x > 0 else 0
        out_base = col_start[x]
        free = free_nibbles[x]
        n_out = 0
        leaves = 0
        counted = 0  # leaves of this column already added to control[2]
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
                start = memo_state[1]
                memo_state[1] = _list_successors(need, largest_col, memo, start, need_stack, state_stack, size_stack)
                pattern_start[p] = start
                pattern_start[p + PATTERNS] = memo_state[1]
                pattern_stamp[p] = generation
            base = (c << np.uint64(32)) | np.uint64(i)
            for k in range(pattern_start[p], pattern_start[p + PATTERNS]):
                entry = memo[k]
                key = d | (entry & ROWS_MASK)
                value = base + ((entry >> SIZE_SHIFT) << np.uint64(32))
                h = (key * GOLDEN) >> np.uint64(shift)
                while True:
                    there = table[h, 0]
                    if there == key:
                        if value < table[h, 1]:
                            table[h, 1] = value
                        break
                    if there == empty:
                        if n_out >= limit or out_base + n_out >= storage:
                            control[2] -= counted  # the column is redone
                            return (SWEEP_TABLE_FULL if n_out >= limit else SWEEP_STORAGE_FULL), x
                        table[h, 0] = key
                        table[h, 1] = value
                        n_out += 1
                        break
                    h = (h + one) & mask
            leaves += pattern_start[p + PATTERNS] - pattern_start[p]
            if leaves >= STOP_EVERY:
                control[2] += leaves
                counted += leaves
                leaves = 0
                if should_stop(control):
                    return SWEEP_STOPPED, x
        control[2] += leaves
        j = 0
        flush[0, x] = -1
        flush[1, x] = -1
        row = x & 1
        for h in range(slots):
            key = table[h, 0]
            if key != empty:
                squares = np.int32(table[h, 1] >> np.uint64(32))
                keys[out_base + j] = key
                cost[row, j] = squares
                parents[out_base + j] = np.int32(table[h, 1] & low32)
                if flush[0, x] < 0 and (key & ~LOW_NIBBLES) == 0:
                    flush[0, x] = j
                    flush[1, x] = squares
                j += 1
        col_start[x + 1] = out_base + n_out
        if n_out == 0:
            return SWEEP_EMPTY, x
        x += 1
        if monotonic_ns() >= yield_ns:
            break
    return SWEEP_DONE, x


# --------------------------------------------------------------------------- general


@numba.njit(cache=True, inline="always")
def _hash_words(words, n):
    h = np.uint64(0x243F6A8885A308D3)
    for k in range(n):
        h = (h ^ words[k]) * GOLDEN
        h ^= h >> np.uint64(29)
    return h


@numba.njit(cache=True, nogil=True)
def general_column_step(
    prev_states,
    prev_cost,
    n_prev,
    free_col,
    largest_col,
    bits,
    margin,
    deviation,
    table,
    shift,
    out_states,
    out_cost,
    out_parent,
    out_sq_start,
    out_sq_len,
    sq_buffer,
    control,
):
    """One column of the DP with states of `words` uint64s, `bits` bits a row.

    With margin < 0 (no Cost Margin) and deviation < 0 (every size) it is exact; else
    the heuristic prunes as the module docstring says. prev_states[:n_prev] (n x words)
    with prev_cost; free_col[y] 1 when row y of this column is free; largest_col[y] the
    largest free square there. Writes out_states/out_cost/out_parent, and each state's
    squares (row << 10 | size) at sq_buffer[out_sq_start[j] : + out_sq_len[j]].
    Returns the states written (n_out) and the buffer entries used, or (-1, 0) when the
    states outgrow the table, (-3, 0) when sq_buffer is full and (-2, 0) when stopped.
    """
    one = np.uint64(1)
    height = free_col.shape[0]
    words = prev_states.shape[1]
    per_word = 64 // bits
    field = (one << np.uint64(bits)) - one
    table[:] = 0
    mask = np.uint64(table.shape[0] - 1)
    capacity = min(out_states.shape[0], table.shape[0] * 3 // 4)  # load factor at most 3/4
    sq_capacity = sq_buffer.shape[0]
    n_out = 0
    sq_used = 0
    leaves = 0
    best = np.int64(1) << 40  # fewest squares of any state of this column so far
    values = np.zeros(height + 1, dtype=np.int64)
    open_row = np.zeros(height + 1, dtype=np.bool_)
    run = np.zeros(height + 1, dtype=np.int64)
    next_open = np.zeros(height + 2, dtype=np.int64)
    finish = np.zeros(height + 2, dtype=np.int64)  # MinSquares from row y down
    cur = np.zeros(words, dtype=np.uint64)
    row_stack = np.zeros(height + 1, dtype=np.int64)
    size_stack = np.zeros(height + 1, dtype=np.int64)
    low_stack = np.zeros(height + 1, dtype=np.int64)
    for i in range(n_prev):
        # unpack, subtracting one column
        for k in range(words):
            w = prev_states[i, k]
            out_w = np.uint64(0)
            for r in range(per_word):
                y = k * per_word + r
                if y >= height:
                    break
                v = np.int64((w >> np.uint64(r * bits)) & field)
                if v > 0:
                    v -= 1
                values[y] = v
                out_w |= np.uint64(v) << np.uint64(r * bits)
            cur[k] = out_w
        for y in range(height):
            open_row[y] = values[y] == 0 and free_col[y] != 0
        run[height] = 0
        next_open[height] = height
        next_open[height + 1] = height
        for y in range(height - 1, -1, -1):
            run[y] = run[y + 1] + 1 if open_row[y] else 0
            next_open[y] = y if open_row[y] else next_open[y + 1]
        base = np.int64(prev_cost[i])
        if margin >= 0:
            finish[height] = 0
            finish[height + 1] = 0
            for y in range(height - 1, -1, -1):
                if not open_row[y]:
                    finish[y] = finish[y + 1]
                    continue
                top = run[y] if run[y] < largest_col[y] else np.int64(largest_col[y])
                m = np.int64(1) << 40
                for s in range(1, top + 1):
                    f = finish[y + s]
                    if f < m:
                        m = f
                finish[y] = m + 1
            if base + finish[next_open[0]] > best + margin:
                continue
        depth = 0
        row_stack[0] = next_open[0]
        size_stack[0] = 0
        while depth >= 0:
            y = row_stack[depth]
            if y >= height:
                # leaf: a full column
                cost = base + depth
                leaves += 1
                if cost < best:
                    best = cost
                if margin < 0 or cost <= best + margin:
                    h = _hash_words(cur, words) >> np.uint64(shift)
                    while True:
                        slot = table[h]
                        if slot == 0:
                            if n_out >= capacity or sq_used + depth > sq_capacity:
                                control[2] -= leaves - (leaves & (STOP_EVERY - 1))
                                return (-1 if n_out >= capacity else -3), 0
                            for k in range(words):
                                out_states[n_out, k] = cur[k]
                            out_cost[n_out] = cost
                            out_parent[n_out] = i
                            out_sq_start[n_out] = sq_used
                            out_sq_len[n_out] = depth
                            for t in range(depth):
                                sq_buffer[sq_used + t] = (row_stack[t] << 10) | size_stack[t]
                            sq_used += depth
                            n_out += 1
                            table[h] = n_out
                            break
                        j = slot - 1
                        same = True
                        for k in range(words):
                            if out_states[j, k] != cur[k]:
                                same = False
                                break
                        if same:
                            if cost < out_cost[j]:
                                if sq_used + depth > sq_capacity:
                                    control[2] -= leaves - (leaves & (STOP_EVERY - 1))
                                    return -3, 0
                                out_cost[j] = cost
                                out_parent[j] = i
                                out_sq_start[j] = sq_used
                                out_sq_len[j] = depth
                                for t in range(depth):
                                    sq_buffer[sq_used + t] = (row_stack[t] << 10) | size_stack[t]
                                sq_used += depth
                            break
                        h = (h + one) & mask
                if (leaves & (STOP_EVERY - 1)) == 0:
                    control[2] += STOP_EVERY
                    if should_stop(control):
                        return -2, 0
                depth -= 1
                if depth >= 0:
                    _unplace(cur, row_stack[depth], size_stack[depth], bits, per_word)
                continue
            size = size_stack[depth]
            if size == 0:
                if margin >= 0 and base + depth + finish[y] > best + margin:
                    depth -= 1
                    if depth >= 0:
                        _unplace(cur, row_stack[depth], size_stack[depth], bits, per_word)
                    continue
                size = run[y] if run[y] < largest_col[y] else np.int64(largest_col[y])
                low_stack[depth] = 1 if deviation < 0 else max(1, size - deviation)
            else:
                size -= 1
                if size < low_stack[depth]:
                    depth -= 1
                    if depth >= 0:
                        _unplace(cur, row_stack[depth], size_stack[depth], bits, per_word)
                    continue
            size_stack[depth] = size
            _place(cur, y, size, bits, per_word)
            row_stack[depth + 1] = next_open[y + size]
            size_stack[depth + 1] = 0
            depth += 1
    control[2] += leaves & (STOP_EVERY - 1)
    return n_out, sq_used


@numba.njit(cache=True, inline="always")
def _place(cur, y, size, bits, per_word):
    v = np.uint64(size)
    for r in range(y, y + size):
        cur[r // per_word] |= v << np.uint64((r % per_word) * bits)


@numba.njit(cache=True, inline="always")
def _unplace(cur, y, size, bits, per_word):
    field = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    for r in range(y, y + size):
        cur[r // per_word] &= ~(field << np.uint64((r % per_word) * bits))


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
def pack_rows(values, bits, words):
    """Pack a vector of row values (each < 2**bits) into `words` uint64s."""
    per_word = 64 // bits
    out = np.zeros(words, dtype=np.uint64)
    for y in range(values.shape[0]):
        out[y // per_word] |= np.uint64(values[y]) << np.uint64((y % per_word) * bits)
    return out
