"""The row DP's compact min tables (rowdp/compact.py) against the wide ones they
replaced: the encoding round-trips and its lookup answers as a set does (brute force
over random key sets), and the DP in either form gives the same counts, grids and
table contents on the cases the other row DP tests use."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.puzzles.hexagon.rowdp import compact
from puzzlelab.puzzles.hexagon.rowdp import dp as rowdp

WORD = st.integers(0, 2**64 - 1)


def _keys(words: int, rows: list[list[int]]) -> np.ndarray:
    """The distinct keys in sorted order (the last word most significant)."""
    unique = sorted({tuple(r[:words]) for r in rows}, key=lambda r: r[::-1])
    return np.array(unique, dtype=np.uint64).reshape(len(unique), words)


def _near(words: int):
    """Keys that share high words and differ in a few bits, as sorted frontiers do,
    with some far apart: the XORs cross word boundaries and the 7-bit groups' edges."""
    bit = st.integers(0, 64 * words - 1)
    return st.lists(st.tuples(WORD, st.lists(bit, max_size=4)), min_size=1, max_size=200).map(
        lambda items: [[(base if w == 0 else 0xFFFF_0000_0000_0000 >> w) ^ sum(1 << (b % 64) for b in set(flips) if b // 64 == w) for w in range(words)]
                       for base, flips in items])  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3).flatmap(lambda w: st.tuples(st.just(w), st.one_of(_near(w), st.lists(st.lists(WORD, min_size=w, max_size=w), min_size=1, max_size=200)),
                                                     st.lists(st.lists(WORD, min_size=w, max_size=w), max_size=30))),
       st.sampled_from([1, 2, 7, 32]))  # fmt: skip
def test_encoding_round_trips_and_lookup_is_set_membership(case, block):
    words, rows, probes = case
    keys = _keys(words, rows)
    pens = np.arange(keys.shape[0], dtype=np.int64) % (compact.MAX_BOUND + 1)
    futures = (np.arange(keys.shape[0], dtype=np.int64) * 7) % (compact.FAR + 1)
    buffer = compact.encode(keys, pens, futures, block)
    assert compact.block_of(buffer) == block
    heads, starts, pen, future, xors = compact.views(buffer)
    assert np.array_equal(compact.decode_keys(heads, starts, xors, keys.shape[0], block), keys)
    assert np.array_equal(pen, pens) and np.array_equal(future, futures)
    cur = np.zeros(words, dtype=np.uint64)
    for index, key in enumerate(keys):
        assert compact.lookup(heads, starts, xors, block, key, cur) == index
    present = {tuple(int(x) for x in key) for key in keys}
    neighbours = [[int(key[0]) ^ 1, *(int(x) for x in key[1:])] for key in keys[:10]]  # one bit off a key: mostly absent
    for probe in probes + neighbours:
        key = np.array(probe[:words], dtype=np.uint64)
        found = compact.lookup(heads, starts, xors, block, key, cur)
        assert (found >= 0) == (tuple(int(x) for x in key) in present)
        if found >= 0:
            assert np.array_equal(keys[found], key)


def test_values_that_do_not_fit_a_byte_are_refused_not_wrapped():
    keys = np.array([[1], [2]], dtype=np.uint64)
    with pytest.raises(ValueError, match="penalties 0..255 do not fit a byte"):
        compact.encode(keys, np.array([0, 255]))
    with pytest.raises(ValueError, match="futures 0..256 do not fit a byte"):
        compact.encode(keys, np.array([0, 1]), np.array([0, 256]))
    with pytest.raises(ValueError, match="penalties -1..0"):
        compact.encode(keys, np.array([-1, 0]))


def test_a_bound_past_a_byte_keeps_the_wide_tables():
    from puzzlelab.puzzles.hexagon.rowdp.tables import table_kind

    assert table_kind("compact", compact.MAX_BOUND) == "compact"
    assert table_kind("compact", compact.MAX_BOUND + 1) == "wide"
    assert table_kind("wide", 3) == "wide"
    with pytest.raises(ValueError, match="tables: expected compact or wide"):
        table_kind("tight", 3)


def _both(monkeypatch, run):
    out = {}
    for kind in ("wide", "compact"):
        monkeypatch.setattr(rowdp, "TABLES", kind)
        out[kind] = run()
    return out


CASES = [(3, 1, 5), (3, 2, 4), (3, 3, 3), (4, 1, 2), (4, 2, 3), (4, 3, 3), (5, 1, 8), (5, 2, 10), (5, 3, 9), (6, 3, 13)]


@pytest.mark.parametrize("n, level, bound", CASES)
def test_compact_and_wide_tables_give_the_same_answers(monkeypatch, n, level, bound):
    """Counts by penalty, the lowest grids, every grid within the bound, and the states
    of every step of every pass."""

    def run():
        stats = rowdp.DPStats()
        grids = rowdp.grids_within(n, level, bound, max_grids=50, stats=stats)
        every = rowdp.level_grids(n, level, bound, max_grids=20_000) if n <= 4 else None
        return rowdp.level_counts(n, level, bound), grids, every, stats.sizes

    out = _both(monkeypatch, run)
    assert out["compact"] == out["wide"]
    assert out["wide"][0] and out["wide"][1]  # grids within the bound: the tables were used


@pytest.mark.slow
@pytest.mark.parametrize("n, level, bound", [(7, 3, 16), (7, 4, 17), (8, 2, 19)])
def test_compact_and_wide_tables_agree_on_larger_orders(monkeypatch, n, level, bound):
    out = _both(monkeypatch, lambda: (rowdp.grids_within(n, level, bound, max_grids=20), rowdp.level_counts(n, min(level, 2), bound)))
    assert out["compact"] == out["wide"] and out["wide"][1]


@pytest.mark.parametrize("n, level, bound", [(4, 3, 3), (5, 2, 10), (5, 3, 9)])
def test_compact_tables_hold_the_wide_tables_figures(monkeypatch, n, level, bound):
    """Table by table: the compact table holds exactly the wide table's states whose
    least penalty still to come fits a byte, with the same penalty and that figure."""
    from puzzlelab.core.result import Budget

    guides = _both(monkeypatch, lambda: rowdp._guides(n, level, bound, Budget(), rowdp.DPStats()))
    wide, small = guides["wide"][1], guides["compact"][1]
    assert len(wide) == len(small) == 3 * n * (n - 1) + 1
    for (tk, tp, tv), table in zip(wide, small):
        kept = (tp >= 0) & (tv < compact.FAR)
        expected = {tuple(int(x) for x in key): (int(p), int(v)) for key, p, v in zip(tk[kept], tp[kept], tv[kept])}
        keys = compact.decode_keys(table.heads, table.starts, table.xors, table.states, table.block)
        found = {tuple(int(x) for x in key): (int(p), int(v)) for key, p, v in zip(keys, table.pens, table.futures)}
        assert found == expected
        assert len(found) == table.states  # no repeats


def test_compact_tables_take_far_fewer_bytes(monkeypatch):
    from puzzlelab.core.result import Budget

    guides = _both(monkeypatch, lambda: rowdp._guides(5, 3, 9, Budget(), rowdp.DPStats()))
    assert guides["compact"][1].bytes * 5 < guides["wide"][1].bytes
