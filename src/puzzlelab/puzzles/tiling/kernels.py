"""Numba kernels of the square-tiling puzzle: the column step of the frontier DP in
its general form (several uint64 words per state, any height, with the heuristic's
pruning), the table of largest squares, and the constants the packed form (one uint64
per state, heights <= 15: `sweep.py`) shares.

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
and hashing states is one machine word (write-up 1.3); `sweep.packed_sweep` runs all
the columns of such a grid in one call. Past 15 the general step packs
`bits` bits a row into `words` uint64s; with finite margins it becomes the heuristic
of section 2 (Cost Margin: drop a branch that cannot end within `margin` squares of
the best state of the column; Size Deviation: try only the `deviation + 1` largest
sizes at each row; MinSquares: the fewest squares that still finish the column, the
bound the margin is tested with).

Both forms record, per derived state, its parent (index in the previous column) so
the squares can be rebuilt; the general step also records the squares it placed
(row * 1024 + size, in a flat buffer), since its states are too large to keep for
every column. It returns the number of states written, -1 when an output buffer is
full (the caller grows it and repeats the column) or -2 when the budget stopped it.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.result import NODES, should_stop

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
    allow,
):
    """One column of the DP with states of `words` uint64s, `bits` bits a row.

    With margin < 0 (no Cost Margin) and deviation < 0 (every size) it is exact; else
    the heuristic prunes as the module docstring says. prev_states[:n_prev] (n x words)
    with prev_cost; free_col[y] 1 when row y of this column is free; largest_col[y] the
    largest free square there. Writes out_states/out_cost/out_parent, and each state's
    squares (row << 10 | size) at sq_buffer[out_sq_start[j] : + out_sq_len[j]].
    Returns the states written (n_out) and the buffer entries used, or (-1, 0) when the
    states outgrow the table, (-3, 0) when sq_buffer is full and (-2, 0) when stopped.

    allow[a, b] (exact pruning when allow[0, 0] >= 0, `rectangles.width_allowance`): the
    most squares a state may have whose least and largest row values are a and b; a
    state with more cannot end in an optimal tiling of any width asked for.
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
    pruned = allow[0, 0] >= 0
    allow_most = allow.max()
    for i in range(n_prev):
        if pruned and prev_cost[i] > allow_most:
            continue
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
                keep = margin < 0 or cost <= best + margin
                if keep and pruned:
                    least, most = _value_range(cur, height, bits, per_word, field)
                    keep = cost <= allow[least, most]
                if keep:
                    h = _hash_words(cur, words) >> np.uint64(shift)
                    while True:
                        slot = table[h]
                        if slot == 0:
                            if n_out >= capacity or sq_used + depth > sq_capacity:
                                control[NODES] -= leaves - (leaves & (STOP_EVERY - 1))
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
                                    control[NODES] -= leaves - (leaves & (STOP_EVERY - 1))
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
                    control[NODES] += STOP_EVERY
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
    control[NODES] += leaves & (STOP_EVERY - 1)
    return n_out, sq_used


@numba.njit(cache=True, inline="always")
def _value_range(cur, height, bits, per_word, field):
    """Least and largest row value of a packed state."""
    least = np.int64(1) << 40
    most = np.int64(0)
    for y in range(height):
        v = np.int64((cur[y // per_word] >> np.uint64((y % per_word) * bits)) & field)
        least = min(least, v)
        most = max(most, v)
    return least, most


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


@numba.njit(cache=True)
def pack_rows(values, bits, words):
    """Pack a vector of row values (each < 2**bits) into `words` uint64s."""
    per_word = 64 // bits
    out = np.zeros(words, dtype=np.uint64)
    for y in range(values.shape[0]):
        out[y // per_word] |= np.uint64(values[y]) << np.uint64((y % per_word) * bits)
    return out


@numba.njit(cache=True)
def row_cover_counts(free, largest):
    """counts[y]: the fewest squares that can meet row y, given only which squares fit.
    The squares meeting a row cut its free cells into consecutive intervals, and the one
    starting at column c is at most reach[y, c] long, the side of the largest free square
    with left column c that contains the row. reach[y, c + 1] >= reach[y, c] - 1, so
    taking the longest interval each time is optimal (interval covering).

    reach[y, c] is the largest largest[t, c] over the tops t <= y whose square reaches
    row y; those tops form a window ending at y whose start only moves down as y does
    (largest[t + 1, c] >= largest[t, c] - 1), so a monotone deque gives every reach of a
    column in one pass: O(height x width) in all."""
    height, width = free.shape
    reach = np.zeros((height, width), dtype=np.int64)
    deque = np.zeros(height, dtype=np.int64)
    for c in range(width):
        head, tail = 0, 0
        for y in range(height):
            side = largest[y, c]
            if side == 0:
                head, tail = 0, 0  # (c, y) blocked: no square with left column c spans it
                continue
            while tail > head and largest[deque[tail - 1], c] <= side:
                tail -= 1  # a top above with a smaller square ends no lower: never the largest
            deque[tail] = y
            tail += 1
            while deque[head] + largest[deque[head], c] <= y:
                head += 1  # its square ends above row y
            reach[y, c] = largest[deque[head], c]
    counts = np.zeros(height, dtype=np.int64)
    for y in range(height):
        c = 0
        while c < width:
            if free[y, c]:
                counts[y] += 1
                c += reach[y, c]
            else:
                c += 1
    return counts


@numba.njit(cache=True)
def label_blocks(blocks):
    """Labels 1..n of the 8-connected groups of True cells of `blocks` (0 elsewhere),
    and n: a flood fill with an explicit stack. Used on the grid's free 2 x 2 blocks,
    where two blocks touching by a side or a corner share a cell (`prove.split_free`)."""
    height, width = blocks.shape
    labels = np.zeros((height, width), dtype=np.int32)
    stack = np.empty(height * width + 1, dtype=np.int64)
    count = 0
    for start_y in range(height):
        for start_x in range(width):
            if not blocks[start_y, start_x] or labels[start_y, start_x] != 0:
                continue
            count += 1
            labels[start_y, start_x] = count
            top = 0
            stack[0] = start_y * width + start_x
            while top >= 0:
                y, x = divmod(stack[top], width)
                top -= 1
                for dy in range(-1, 2):
                    for dx in range(-1, 2):
                        yy, xx = y + dy, x + dx
                        if 0 <= yy < height and 0 <= xx < width and blocks[yy, xx] and labels[yy, xx] == 0:
                            labels[yy, xx] = count
                            top += 1
                            stack[top] = yy * width + xx
    return labels, count
