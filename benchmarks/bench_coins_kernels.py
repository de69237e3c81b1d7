"""Coin-sliding kernels side by side, and the numba BFS against a plain-Python BFS.

1. Move generation: neighbour counts by shifted masks (kernels.forward_moves, used by
   every search) against the seed write-up's 2^20-entry table over four-row windows
   (kernels.forward_moves_table), on random 5 x 7 / 5 x 9 boards: children per second.
2. Ranking the children: the incremental rank (kernels.forward_move_ranks) against
   building each child and ranking it with core/rank.py's byte tables.
3. BFS: the numba kernel and hash table of `bidir`, one side only, against a
   plain-Python BFS over a `set` (the same move rule written with Python integers),
   from the same glyph to the same depth: boards per second, as a ratio.

Run: python benchmarks/bench_coins_kernels.py  (quote medians; the machine is shared)
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from common import median_seconds, write_json

from puzzlelab.core.rank import rank, rank_many
from puzzlelab.puzzles.coins import kernels, model
from puzzlelab.puzzles.coins.bidir.search import ball_sizes


def random_boards(width: int, height: int, coins: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((count, width * height))
    cells = np.argsort(keys, axis=1)[:, :coins].astype(np.uint64)
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), cells), axis=1)


@numba.njit(cache=True)
def _rank_children_incremental(boards, ranks, geo, repeats):
    out = np.empty(2048, dtype=np.int64)
    scratch = np.empty((3, 66), dtype=np.int64)
    total, check = 0, 0
    for _ in range(repeats):
        for i in range(boards.shape[0]):
            n = kernels.forward_move_ranks(boards[i], ranks[i], geo, out, scratch)
            total += n
            for j in range(n):
                check ^= out[j]
    return total, check


@numba.njit(cache=True)
def _rank_children_tables(boards, geo, repeats):
    out = np.empty(2048, dtype=np.uint64)
    total, check = 0, 0
    for _ in range(repeats):
        for i in range(boards.shape[0]):
            n = kernels.forward_moves(boards[i], geo, out)
            total += n
            for j in range(n):
                check ^= rank(out[j])
    return total, check


def python_children(board: int, width: int, full: int, not_first: int, not_last: int) -> list[int]:
    """The move rule in plain Python integers (the peer of the numba kernel)."""
    left = (board << 1) & not_first
    right = (board >> 1) & not_last
    above = (board << width) & full
    below = board >> width
    h_and, h_or, v_and, v_or = left & right, left | right, above & below, above | below
    ge2 = h_and | v_and | (h_or & v_or)
    ge3 = (h_and & v_or) | (v_and & h_or)
    empty = ~board & full
    children = []
    coins = board
    while coins:
        c = coins & -coins
        coins ^= c
        around = ((c << 1) & not_first) | ((c >> 1) & not_last) | ((c << width) & full) | (c >> width)
        spots = (ge3 | (ge2 & ~around)) & empty
        base = board ^ c
        while spots:
            t = spots & -spots
            spots ^= t
            children.append(base | t)
    return children


def python_bfs(board: int, width: int, height: int, depth: int) -> tuple[list[int], int]:
    geo = kernels.geometry(width, height)
    full, not_first, not_last = int(geo[2]), int(geo[3]), int(geo[4])
    seen = {board}
    frontier = [board]
    sizes, generated = [1], 0
    for _ in range(depth):
        nxt = []
        for b in frontier:
            for child in python_children(b, width, full, not_first, not_last):
                generated += 1
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
        sizes.append(len(nxt))
    return sizes, generated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="BFS depth for the Python/numba comparison")
    parser.add_argument("--glyph", default="font5x7:A")
    args = parser.parse_args()
    rows = {}

    for width, height, coins in ((5, 7, 12), (5, 9, 13)):
        geo = kernels.geometry(width, height)
        boards = random_boards(width, height, coins, 20_000, seed=height)
        table = kernels.support_table(width)
        windows = kernels.table_windows(width, height)
        kernels.count_forward_moves(boards[:8], geo, 1)
        kernels.count_forward_moves_table(boards[:8], geo, table, windows, 1)
        shift_s, (n, check_a) = median_seconds(lambda: kernels.count_forward_moves(boards, geo, 10), repeats=5)
        table_s, (m, check_b) = median_seconds(lambda: kernels.count_forward_moves_table(boards, geo, table, windows, 10), repeats=5)
        assert (n, check_a) == (m, check_b)
        ranks = rank_many(boards)
        _rank_children_incremental(boards[:8], ranks[:8], geo, 1)
        _rank_children_tables(boards[:8], geo, 1)
        inc_s, (p, check_c) = median_seconds(lambda: _rank_children_incremental(boards, ranks, geo, 10), repeats=5)
        tab_s, (q, check_d) = median_seconds(lambda: _rank_children_tables(boards, geo, 10), repeats=5)
        assert (p, check_c) == (q, check_d)
        key = f"{width}x{height}"
        rows[key] = {
            "children_per_board": n / (10 * len(boards)),
            "shifted_masks_children_per_s": n / shift_s,
            "lookup_table_children_per_s": m / table_s,
            "shift_over_table": table_s / shift_s,
            "incremental_rank_children_per_s": p / inc_s,
            "table_rank_children_per_s": q / tab_s,
            "incremental_over_table_rank": tab_s / inc_s,
        }
        r = rows[key]
        print(
            f"{key}: {r['children_per_board']:.1f} moves a board | moves by shifted masks {r['shifted_masks_children_per_s'] / 1e6:.0f} M/s, "
            f"by the write-up's table {r['lookup_table_children_per_s'] / 1e6:.0f} M/s: ratio {r['shift_over_table']:.2f}x | "
            f"moves+rank incremental {r['incremental_rank_children_per_s'] / 1e6:.0f} M/s, by byte tables "
            f"{r['table_rank_children_per_s'] / 1e6:.0f} M/s: ratio {r['incremental_over_table_rank']:.2f}x"
        )

    start = model.parse_start(args.glyph)
    ball_sizes(start.width, start.height, start.board, 2)  # compile
    numba_s, sizes = median_seconds(lambda: ball_sizes(start.width, start.height, start.board, args.depth), repeats=3)
    python_s, (py_sizes, generated) = median_seconds(lambda: python_bfs(start.board, start.width, start.height, args.depth), repeats=1)
    assert sizes == py_sizes, (sizes, py_sizes)
    boards = sum(sizes)
    rows["bfs"] = {
        "glyph": args.glyph,
        "depth": args.depth,
        "level_sizes": sizes,
        "children_generated": generated,
        "numba_seconds": numba_s,
        "python_seconds": python_s,
        "numba_boards_per_s": boards / numba_s,
        "python_boards_per_s": boards / python_s,
        "ratio": python_s / numba_s,
    }
    r = rows["bfs"]
    print(
        f"BFS {args.glyph} to depth {args.depth} ({boards:,} boards, {generated:,} moves generated): numba "
        f"{r['numba_boards_per_s'] / 1e6:.2f} M boards/s, plain Python over a set {r['python_boards_per_s'] / 1e6:.3f} M boards/s: "
        f"ratio {r['ratio']:.0f}x"
    )
    write_json("coins_kernels", {"benchmark": "coins_kernels", "rows": rows, "note": "medians; shared 2-core machine"})


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - started:.0f} s")
