"""Move generation against the rule written plainly (conftest oracle), on random boards of
many shapes: 1-row, 1-column, 5 x 7, 5 x 9 and the full 8 x 8 board of 64 cells."""

import numpy as np
import pytest

from puzzlelab.puzzles.coins import kernels, model

SHAPES = [(5, 7, 12), (5, 9, 13), (1, 9, 4), (9, 1, 4), (8, 8, 10), (4, 4, 6), (3, 5, 7)]


def random_boards(width, height, coins, count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        cells = rng.choice(width * height, size=coins, replace=False)
        yield int(sum(1 << int(c) for c in cells))


def legal(board, origin, landing, width, height):
    """The rule for one move of `board`: lift the coin at `origin`, put it at `landing`."""
    lifted = board & ~(1 << origin)
    if not board >> origin & 1 or lifted >> landing & 1 or landing == origin:
        return False
    x, y = landing % width, landing // width
    around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    return sum(0 <= u < width and 0 <= v < height and lifted >> (v * width + u) & 1 for u, v in around) >= 2


@pytest.mark.parametrize("width, height, coins", SHAPES)
def test_forward_and_backward_moves_follow_the_rule(oracle, width, height, coins):
    geo = kernels.geometry(width, height)
    capacity = kernels.max_moves(width * height, coins)
    for board in random_boards(width, height, coins, 8, seed=width * 100 + height):
        forward = [int(b) for b in kernels.forward_list(board, geo, capacity)]
        assert len(forward) == len(set(forward))
        assert set(forward) == oracle.children(board, width, height)
        backward = {int(b) for b in kernels.backward_list(board, geo, capacity)}
        # Predecessors by the definition: every board A with a legal move A -> board,
        # the move lifting the coin at `origin` and placing it on `landing`.
        expected = set()
        for landing in range(width * height):
            if board >> landing & 1:
                for origin in range(width * height):
                    if not board >> origin & 1:
                        before = (board & ~(1 << landing)) | (1 << origin)
                        if legal(before, origin, landing, width, height):
                            expected.add(before)
        assert backward == expected
        for before in list(expected)[:5]:
            assert board in oracle.children(before, width, height)


@pytest.mark.slow  # the write-up's table kernel is the benchmark's alternative, not used by any method
def test_lookup_table_kernel_of_the_write_up_agrees():
    table = kernels.support_table(5)
    for height, coins in ((7, 12), (9, 13)):
        geo = kernels.geometry(5, height)
        windows = kernels.table_windows(5, height)
        # Every row is decided by exactly the windows that cover it.
        decided = 0
        for shift, mask in windows:
            decided |= int(mask) << int(shift)
        assert decided == (1 << (5 * height)) - 1
        boards = np.array(list(random_boards(5, height, coins, 300, seed=height)), dtype=np.uint64)
        glyphs = np.array(list(model.fonts()[f"font5x{height}"]["glyphs"].values()), dtype=np.uint64)
        for sample in (boards, glyphs):
            assert kernels.count_forward_moves(sample, geo, 1) == kernels.count_forward_moves_table(sample, geo, table, windows, 1)
