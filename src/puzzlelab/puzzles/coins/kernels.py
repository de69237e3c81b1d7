"""Move generation for coin-sliding boards (numba kernels, boards as uint64 masks).

A board of W x H cells is a mask with cell (x, y) at bit y * W + x. Every search here
spends its time generating the neighbours of boards, two ways:

- forward (`forward_moves`): lift a coin c, put it on an empty cell t with at least two
  coins among its four edge-neighbours, c not counting;
- backward (`backward_moves`), the boards a move leads *from*: the lifted coin q of the
  last move had at least two neighbours once placed (its neighbours are the same on
  both boards, q not being its own neighbour), and it came from any empty cell p. So a
  predecessor is the board with one coin q that has >= 2 neighbouring coins moved to any
  empty cell. The move graph is directed: the reverse of a move is a move only when the
  vacated cell also had two supporting coins.

Neighbour counts by shifted masks (the default). The four neighbour masks of a board
(coins shifted left, right, up, down, with the column wrap masked) give, with a few
AND/OR operations, the cells with >= 2 and with >= 3 coins beside them. Lifting coin c
lowers the count of c's four neighbours only, so the cells a lifted coin can go to are
`(ge3 | (ge2 & ~neighbours(c))) & empty`: one computation per board and three operations
per coin.

The seed write-up ("Coin-sliding Font Puzzles") instead looks up, per lifted coin,
a table of 2^20 entries indexed by four rows of five cells, taking the middle rows of
overlapping windows. `forward_moves_table` implements that for boards five cells wide;
`benchmarks/bench_coins_kernels.py` measures both and the shifted masks win (about
5x on this machine), so the searches use `forward_moves`.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from puzzlelab.core.bits import ctz, popcount
from puzzlelab.core.rank import BINOMIAL

__all__ = [
    "geometry",
    "support_masks",
    "cell_neighbours",
    "forward_moves",
    "forward_move_ranks",
    "coin_rank_sums",
    "moved_rank",
    "backward_moves",
    "prefetch",
    "forward_list",
    "backward_list",
    "count_forward_moves",
    "support_table",
    "table_windows",
    "forward_moves_table",
    "count_forward_moves_table",
    "max_moves",
]

ONE = np.uint64(1)
ZERO = np.uint64(0)

# geometry array slots
G_WIDTH, G_HEIGHT, G_FULL, G_NOT_FIRST_COL, G_NOT_LAST_COL, G_VSHIFT, G_VMASK = range(7)


def geometry(width: int, height: int) -> np.ndarray:
    """The constants of a W x H board, as the uint64 array the kernels take."""
    cells = width * height
    if not 1 <= cells <= 64:
        raise ValueError("a board has 1 to 64 cells")
    full = (1 << cells) - 1
    first_col = sum(1 << (y * width) for y in range(height))
    last_col = first_col << (width - 1)
    geo = np.zeros(7, dtype=np.uint64)
    geo[G_WIDTH], geo[G_HEIGHT], geo[G_FULL] = width, height, full
    geo[G_NOT_FIRST_COL] = full & ~first_col
    geo[G_NOT_LAST_COL] = full & ~last_col
    # A one-row board has no vertical neighbours (and a shift by 64 would be undefined).
    geo[G_VSHIFT] = width if height > 1 else 0
    geo[G_VMASK] = full if height > 1 else 0
    return geo


@numba.njit(cache=True, nogil=True)
def forward_rank_list(board, board_rank, geo, capacity):
    """forward_move_ranks as an array (tests check it against rank())."""
    out = np.empty(capacity, dtype=np.int64)
    scratch = np.empty((3, 66), dtype=np.int64)
    n = forward_move_ranks(board, board_rank, geo, out, scratch)
    return out[:n].copy()


def max_moves(cells: int, coins: int) -> int:
    """An upper bound on the moves of one board, forward or backward: buffer size."""
    return max(1, coins * (cells - coins))


@numba.njit(cache=True, nogil=True, inline="always")
def _neighbour_masks(board, geo):
    full, vshift, vmask = geo[G_FULL], geo[G_VSHIFT], geo[G_VMASK]
    left = (board << ONE) & geo[G_NOT_FIRST_COL]  # cell i sees a coin at i - 1
    right = (board >> ONE) & geo[G_NOT_LAST_COL]  # cell i sees a coin at i + 1
    above = (board << vshift) & full & vmask  # cell i sees a coin at i - W
    below = (board >> vshift) & vmask  # cell i sees a coin at i + W
    return left, right, above, below


@numba.njit(cache=True, nogil=True, inline="always")
def support_masks(board, geo):
    """(cells with >= 2 neighbouring coins, cells with >= 3), over the whole board."""
    left, right, above, below = _neighbour_masks(board, geo)
    h_and, h_or = left & right, left | right
    v_and, v_or = above & below, above | below
    ge2 = h_and | v_and | (h_or & v_or)
    ge3 = (h_and & v_or) | (v_and & h_or)
    return ge2, ge3


@numba.njit(cache=True, nogil=True, inline="always")
def cell_neighbours(cell, geo):
    left, right, above, below = _neighbour_masks(cell, geo)
    return left | right | above | below


@numba.njit(cache=True, nogil=True, inline="always")
def forward_moves(board, geo, out):
    """Write the boards one move after `board` into `out`; return their number."""
    board = np.uint64(board)
    ge2, ge3 = support_masks(board, geo)
    empty = ~board & geo[G_FULL]
    n = 0
    coins = board
    while coins:
        c = coins & (~coins + ONE)
        coins ^= c
        spots = (ge3 | (ge2 & ~cell_neighbours(c, geo))) & empty
        base = board ^ c
        while spots:
            t = spots & (~spots + ONE)
            spots ^= t
            out[n] = base | t
            n += 1
    return n


@numba.njit(cache=True, nogil=True, inline="always")
def backward_moves(board, geo, out):
    """Write the boards one move before `board` into `out`; return their number."""
    board = np.uint64(board)
    ge2, _ = support_masks(board, geo)
    empty = ~board & geo[G_FULL]
    n = 0
    movable = board & ge2
    while movable:
        q = movable & (~movable + ONE)
        movable ^= q
        base = board ^ q
        spots = empty
        while spots:
            p = spots & (~spots + ONE)
            spots ^= p
            out[n] = base | p
            n += 1
    return n


@numba.njit(cache=True, nogil=True, inline="always")
def coin_rank_sums(board, scratch, row=0):
    """Fill scratch[row] with the coins' cells p_1 < ... < p_k (1-based) and
    scratch[row + 1], scratch[row + 2] with the prefix sums of C(p_j, j - 1) - C(p_j, j)
    and C(p_j, j + 1) - C(p_j, j), which `moved_rank` reads; return k. (`row` lets one
    array hold several boards' sums without slicing it: a slice in the inner loop of
    a numba kernel costs a reference count update.)"""
    scratch[row + 1, 0] = 0
    scratch[row + 2, 0] = 0
    coins = np.uint64(board)
    j = 0
    while coins:
        c = np.int64(ctz(coins))
        coins &= coins - ONE
        j += 1
        scratch[row, j] = c
        scratch[row + 1, j] = scratch[row + 1, j - 1] + BINOMIAL[c, j - 1] - BINOMIAL[c, j]
        scratch[row + 2, j] = scratch[row + 2, j - 1] + BINOMIAL[c, j + 1] - BINOMIAL[c, j]
    return j


@numba.njit(cache=True, nogil=True, inline="always")
def moved_rank(board, board_rank, i, q, scratch, row=0):
    """The colex rank of `board` with its i-th coin (1-based, at scratch[row][i]) moved
    to the empty cell q: only the coins between the two cells change their index, so
    two prefix sums (coin_rank_sums), one popcount and three table reads give it."""
    c = scratch[row, i]
    below = np.int64(popcount(board & ((ONE << np.uint64(q)) - ONE)))
    base = board_rank - BINOMIAL[c, i]
    if q > c:
        return base + scratch[row + 1, below] - scratch[row + 1, i] + BINOMIAL[q, below]
    return base + scratch[row + 2, i - 1] - scratch[row + 2, below] + BINOMIAL[q, below + 1]


@numba.njit(cache=True, nogil=True, inline="always")
def forward_move_ranks(board, board_rank, geo, out, scratch):
    """The colex ranks of the boards one move after `board` (whose rank is given), into
    `out`; returns their number. `scratch` is an int64 array of shape (3, 66).

    No child board is built and ranked from scratch: with coins at p_1 < ... < p_k
    (rank sum C(p_j, j)), moving coin p_i to an empty cell q only re-indexes the coins
    between p_i and q (moved_rank), so each child's rank costs a few operations,
    independently of the others."""
    board = np.uint64(board)
    ge2, ge3 = support_masks(board, geo)
    empty = ~board & geo[G_FULL]
    j = coin_rank_sums(board, scratch)
    n = 0
    for i in range(1, j + 1):
        cell = ONE << np.uint64(scratch[0, i])
        spots = (ge3 | (ge2 & ~cell_neighbours(cell, geo))) & empty
        while spots:
            q = np.int64(ctz(spots))
            spots &= spots - ONE
            out[n] = moved_rank(board, board_rank, i, q, scratch)
            n += 1
    return n


@intrinsic
def _prefetch_for_write(typingctx, arr, index):
    if not isinstance(arr, types.Array):
        return None
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        arr_val, idx = args
        ary = context.make_array(signature.args[0])(context, builder, arr_val)
        idx = context.cast(builder, idx, signature.args[1], types.intp)
        ptr = builder.bitcast(builder.gep(ary.data, [idx]), ir.IntType(8).as_pointer())  # one declaration for every element type
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # rw = 1 (write), locality = 3 (keep in all cache levels), cache type = 1 (data)
        builder.call(fn, [ptr, ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(cache=True, nogil=True, inline="always")
def prefetch(arr, index):
    """Ask the CPU to bring arr[index] into cache for writing (LLVM's prefetch).
    Random probes into a level array of 834 MB miss every cache; issuing the probes of
    a whole board's children first lets those misses overlap."""
    _prefetch_for_write(arr, index)


@numba.njit(cache=True, nogil=True)
def _moves_list(board, geo, capacity, backward):
    out = np.empty(capacity, dtype=np.uint64)
    if backward:
        n = backward_moves(board, geo, out)
    else:
        n = forward_moves(board, geo, out)
    return out[:n].copy()


def forward_list(board, geo: np.ndarray, capacity: int) -> np.ndarray:
    """The forward moves of one board as an array (for tests and path rebuilding)."""
    return _moves_list(np.uint64(board), geo, capacity, False)


def backward_list(board, geo: np.ndarray, capacity: int) -> np.ndarray:
    """The backward moves (predecessors) of one board as an array."""
    return _moves_list(np.uint64(board), geo, capacity, True)


@numba.njit(cache=True, nogil=True)
def count_forward_moves(boards, geo, repeats):
    """Generate every forward move of every board `repeats` times; return the count and
    an XOR of all children (so nothing is optimised away). Benchmark kernel."""
    out = np.empty(2048, dtype=np.uint64)
    total = 0
    check = np.uint64(0)
    for _ in range(repeats):
        for i in range(boards.shape[0]):
            n = forward_moves(boards[i], geo, out)
            total += n
            for j in range(n):
                check ^= out[j]
    return total, check


# ------------------------------------------------------------------ write-up's lookup table


@numba.njit(cache=True)
def support_table(width):
    """For every 4-row window of `width` cells (2^(4 width) entries): the cells of the
    window with >= 2 neighbouring coins inside the window."""
    bits = 4 * width
    geo = np.zeros(7, dtype=np.uint64)
    full = (ONE << np.uint64(bits)) - ONE
    first_col = np.uint64(0)
    for y in range(4):
        first_col |= ONE << np.uint64(y * width)
    geo[G_WIDTH], geo[G_HEIGHT], geo[G_FULL] = width, 4, full
    geo[G_NOT_FIRST_COL] = full & ~first_col
    geo[G_NOT_LAST_COL] = full & ~(first_col << np.uint64(width - 1))
    geo[G_VSHIFT], geo[G_VMASK] = width, full
    table = np.empty(1 << bits, dtype=np.uint32)
    for w in range(1 << bits):
        ge2, _ = support_masks(np.uint64(w), geo)
        table[w] = np.uint32(ge2)
    return table


def table_windows(width: int, height: int) -> np.ndarray:
    """Overlapping 4-row windows covering a board (as the write-up does for 5 x 9):
    rows (shift, mask of the rows the window decides) for `forward_moves_table`. A
    window decides its two middle rows, plus its first or last row at the board's edge."""
    if height < 4 or 4 * width > 24:
        raise ValueError("the lookup-table kernel needs at least 4 rows and at most 6 columns")
    rows_mask = (1 << width) - 1
    windows = []
    row = 0
    while row < height:
        start = 0 if row == 0 else min(row - 1, height - 4)
        last = start + 3 if start + 3 == height - 1 else start + 2
        decided = 0
        for r in range(row, last + 1):
            decided |= rows_mask << ((r - start) * width)
        windows.append((start * width, decided))
        row = last + 1
    return np.array(windows, dtype=np.uint64)


@numba.njit(cache=True, nogil=True, inline="always")
def forward_moves_table(board, geo, table, windows, out):
    """forward_moves by the write-up's method: per lifted coin, look the board up in
    each window of the table and OR the decided rows together."""
    board = np.uint64(board)
    width = geo[G_WIDTH]
    window_mask = (ONE << (np.uint64(4) * width)) - ONE
    empty = ~board & geo[G_FULL]
    n = 0
    coins = board
    while coins:
        c = coins & (~coins + ONE)
        coins ^= c
        lifted = board ^ c
        ge2 = ZERO
        for i in range(windows.shape[0]):
            shift = windows[i, 0]
            ge2 |= (np.uint64(table[(lifted >> shift) & window_mask]) & windows[i, 1]) << shift
        spots = ge2 & empty
        while spots:
            t = spots & (~spots + ONE)
            spots ^= t
            out[n] = lifted | t
            n += 1
    return n


@numba.njit(cache=True, nogil=True)
def count_forward_moves_table(boards, geo, table, windows, repeats):
    """count_forward_moves with the lookup-table kernel (benchmark kernel)."""
    out = np.empty(2048, dtype=np.uint64)
    total = 0
    check = np.uint64(0)
    for _ in range(repeats):
        for i in range(boards.shape[0]):
            n = forward_moves_table(boards[i], geo, table, windows, out)
            total += n
            for j in range(n):
                check ^= out[j]
    return total, check
