"""The kernel's word test against a brute force over every placement.

`kernel_lines._may_fit(u, slack)` says whether a size-u square may still be added within
`slack` matches, from the bit-sliced line counts alone; when it says no, the node is
cut. So it must never say no where some placement adds at most `slack`: the bound it
implies on the matches still to come is never above the true cheapest completion.
`_may_fit_after` is the same test, run by a parent on the counts its child's board would
have: it must agree exactly with `_may_fit` run on that board.
"""

import random

import numpy as np

from puzzlelab.puzzles.matchsticks import kernel_lines, kernel_pairs


def _empty_board(area):
    full = (1 << area) - 1
    return [full] * (area + 1), [full] * (area + 1)


def _place(rows, cols, t, x, y):
    """Add a size-t square at (x, y); returns the matches it added on each side."""
    h, v = ((1 << t) - 1) << x, ((1 << t) - 1) << y
    added = ((rows[y] & h).bit_count(), (rows[y + t] & h).bit_count(), (cols[x] & v).bit_count(), (cols[x + t] & v).bit_count())
    rows[y] &= ~h
    rows[y + t] &= ~h
    cols[x] &= ~v
    cols[x + t] &= ~v
    return added


def _cheapest(rows, cols, area, u, diagonal):
    """The fewest matches any placement of size u adds (every corner tried)."""
    best = 4 * u
    for y in range(area - u + 1):
        for x in range(area - u + 1):
            if diagonal and x != y:
                continue
            board_rows, board_cols = list(rows), list(cols)
            best = min(best, sum(_place(board_rows, board_cols, u, x, y)))
    return best


def _counts_and_planes(lines, area):
    full = (1 << area) - 1
    counts = np.array([(~word & full).bit_count() for word in lines], np.int64)
    planes = np.zeros(6, np.uint64)
    for i, c in enumerate(counts):
        for b in range(6):
            if (int(c) >> b) & 1:
                planes[b] |= np.uint64(1 << i)
    return counts, planes


def _random_board(rng):
    area = rng.randint(4, 13)
    rows, cols = _empty_board(area)
    for _ in range(rng.randint(0, 7)):
        t = rng.randint(1, area)
        _place(rows, cols, t, rng.randint(0, area - t), rng.randint(0, area - t))
    return area, rows, cols


def test_line_masks_are_the_lines_holding_at_least_k():
    rng = random.Random(1)
    for _ in range(100):
        area, rows, _ = _random_board(rng)
        counts, planes = _counts_and_planes(rows, area)
        for k in range(1, area + 1):
            expected = sum(1 << i for i, c in enumerate(counts) if c >= k)
            assert int(kernel_lines._at_least(planes, k)) & ((1 << (area + 1)) - 1) == expected


def test_the_word_test_never_cuts_a_size_that_fits():
    rng = random.Random(2)
    cut = 0
    for _ in range(150):
        area, rows, cols = _random_board(rng)
        _, rr = _counts_and_planes(rows, area)
        _, rc = _counts_and_planes(cols, area)
        for u in range(1, area + 1):
            for diagonal in (False, True):
                cheapest = _cheapest(rows, cols, area, u, diagonal)
                for slack in range(0, 2 * u + 2):
                    says = kernel_lines._may_fit(rr, rc, area, u, diagonal, slack)
                    if cheapest <= slack:
                        assert says, (area, u, diagonal, slack, cheapest)
                    cut += not says
    assert cut > 1000  # the test does cut (it is not vacuous)


def test_the_parent_runs_the_test_on_the_childs_counts():
    rng = random.Random(3)
    for _ in range(200):
        area, rows, cols = _random_board(rng)
        fr, rr = _counts_and_planes(rows, area)
        fc, rc = _counts_and_planes(cols, area)
        s = rng.randint(1, area)
        x, y = rng.randint(0, area - s), rng.randint(0, area - s)
        after_rows, after_cols = list(rows), list(cols)
        top, bottom, left, right = _place(after_rows, after_cols, s, x, y)
        _, rr_after = _counts_and_planes(after_rows, area)
        _, rc_after = _counts_and_planes(after_cols, area)
        for u in range(1, area + 1):
            for diagonal in (False, True):
                for slack in range(0, 2 * u + 2):
                    parent = kernel_lines._may_fit_after(rr, rc, fr, fc, area, u, diagonal, slack, s, x, y, top, bottom, left, right)
                    assert parent == kernel_lines._may_fit(rr_after, rc_after, area, u, diagonal, slack), (area, u, slack)


def _kernel_board(rows, cols, area):
    fr, rr = _counts_and_planes(rows, area)
    fc, rc = _counts_and_planes(cols, area)
    return np.array(rows, np.uint64), np.array(cols, np.uint64), fr, fc, rr, rc


def _pair_fits(rows, cols, area, u, w, slack):
    """Brute force: some placement of u, then some of w on the board with it, adding
    at most `slack` together."""
    for y in range(area - u + 1):
        for x in range(area - u + 1):
            with_u_rows, with_u_cols = list(rows), list(cols)
            c = sum(_place(with_u_rows, with_u_cols, u, x, y))
            if c <= slack and c + _cheapest(with_u_rows, with_u_cols, area, w, False) <= slack:
                return True
    return False


def test_the_pair_bound_cuts_only_boards_where_no_pair_fits():
    # kernel_pairs._pair_dead (FLAG_PAIRS): when it names a size w, no placement of t - 1
    # leaves room for w within the slack (brute force); it leaves the board as it was.
    rng = random.Random(4)
    cuts = 0
    for _ in range(120):
        area = rng.randint(6, 11)
        rows, cols = _empty_board(area)
        _place(rows, cols, area, 0, 0)  # the largest square, as in every search
        for _ in range(rng.randint(1, 5)):
            s = rng.randint(2, area - 1)
            _place(rows, cols, s, rng.randint(0, area - s), rng.randint(0, area - s))
        t = rng.randint(4, area - 1)
        slack = rng.randint(0, 2 * t)
        board = _kernel_board(rows, cols, area)
        before = [a.copy() for a in board]
        hint = np.zeros(area + 1, np.int64)
        scratch = np.zeros(area * area + 1, np.int64)
        w = kernel_pairs._pair_dead(
            board[0], board[1], np.uint64((1 << area) - 1), area, t, slack, hint, hint.copy(), board[2], board[3], board[4], board[5],
            np.zeros(130, np.uint64), np.zeros(area + 1, np.bool_), scratch, scratch.copy(), scratch.copy(),
        )
        assert all((a == b).all() for a, b in zip(board, before))
        if w:
            cuts += 1
            assert t - 3 - kernel_pairs.PAIR_SIZES < w <= t - 3
            assert not _pair_fits(rows, cols, area, t - 1, w, slack), (area, t, slack, w)
    assert cuts >= 5  # not vacuous


def _placements_within(rows, cols, area, u, slack, diagonal):
    """Brute force: the corners (x, y) of size-u placements adding at most `slack`."""
    found = []
    for y in range(area - u + 1):
        for x in range(area - u + 1):
            if diagonal and x != y:
                continue
            if sum(_place(list(rows), list(cols), u, x, y)) <= slack:
                found.append((x, y))
    return found


def _board_with_largest(rng):
    area = rng.randint(5, 12)
    rows, cols = _empty_board(area)
    _place(rows, cols, area, 0, 0)  # the largest square, as in every search
    for _ in range(rng.randint(0, 5)):
        s = rng.randint(1, area - 1)
        _place(rows, cols, s, rng.randint(0, area - s), rng.randint(0, area - s))
    return area, rows, cols


def test_the_line_floors_never_exceed_the_cheapest_placement():
    # kernel_lines._least_floor: a size-u square adds at least the least row floor plus the
    # least column floor (for a diagonal size, the least of the two at one corner), so a
    # child cut by them (floors above its slack) has no placement of u within it.
    rng = random.Random(5)
    tight = 0
    for _ in range(150):
        area, rows, cols = _board_with_largest(rng)
        fr, _ = _counts_and_planes(rows, area)
        fc, _ = _counts_and_planes(cols, area)
        for u in range(1, area):
            for diagonal in (False, True):
                row, col = kernel_lines._least_floor(fr, fc, u, area - u + 1, diagonal)
                cheapest = _cheapest(rows, cols, area, u, diagonal)
                assert row + col <= cheapest, (area, u, diagonal)
                tight += row + col == cheapest and cheapest > 0
    assert tight > 100  # the floors are often exact


def test_the_parent_lowers_the_floors_as_the_childs_board_would_give_them():
    # The prekill's floors: the parent's least floors, lowered only at the corners with
    # a line among the child's four (`_line_floor_after`, `_diagonal_floor_after`),
    # equal the least floors computed afresh on the child's board.
    rng = random.Random(6)
    for _ in range(300):
        area, rows, cols = _board_with_largest(rng)
        fr, _ = _counts_and_planes(rows, area)
        fc, _ = _counts_and_planes(cols, area)
        s = rng.randint(2, area - 1)
        x, y = rng.randint(0, area - s), rng.randint(0, area - s)
        after_rows, after_cols = list(rows), list(cols)
        top, bottom, left, right = _place(after_rows, after_cols, s, x, y)
        fr_after, _ = _counts_and_planes(after_rows, area)
        fc_after, _ = _counts_and_planes(after_cols, area)
        for u in range(1, s):
            side = area - u + 1
            row, col = kernel_lines._least_floor(fr, fc, u, side, False)
            want_row, want_col = kernel_lines._least_floor(fr_after, fc_after, u, side, False)
            assert kernel_lines._line_floor_after(row, fr, u, side, y, s, top, bottom) == want_row, (area, s, u)
            assert kernel_lines._line_floor_after(col, fc, u, side, x, s, left, right) == want_col, (area, s, u)
            both, _ = kernel_lines._least_floor(fr, fc, u, side, True)
            want_both, _ = kernel_lines._least_floor(fr_after, fc_after, u, side, True)
            assert kernel_lines._diagonal_floor_after(both, fr, fc, u, side, s, x, y, top, bottom, left, right) == want_both


def test_the_scan_keeps_every_row_holding_a_placement_within_the_slack():
    # kernel_lines._rows_within(_floor_min): the rows a scan still walks once the columns'
    # least floor is known; every row with a placement within the slack is among them.
    rng = random.Random(7)
    dropped = 0
    for _ in range(150):
        area, rows, cols = _board_with_largest(rng)
        fr, _ = _counts_and_planes(rows, area)
        fc, _ = _counts_and_planes(cols, area)
        for u in range(1, area):
            lines = np.uint64((1 << (area - u + 1)) - 1)
            for slack in range(0, 2 * u + 1):
                kept = int(kernel_lines._rows_within(fr, lines, u, slack, kernel_lines._floor_min(fc, lines, u)))
                for _, y in _placements_within(rows, cols, area, u, slack, False):
                    assert kept >> y & 1, (area, u, slack, y)
                dropped += (area - u + 1) - bin(kept).count("1")
    assert dropped > 1000  # it does drop rows
