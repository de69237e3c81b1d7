"""The tuned beam kernel (kernels.beam_kernel_packed: packed cells, lookaside cache of
penalties) against the reference kernel (kernels.beam_kernel): the same final states
with the same penalties on the same runs; the cache's key decides every child (a hit
returns what a recomputation returns); the best grids pass the verifier."""

import numpy as np
import pytest

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.beam.kernels import _children, _situation, value_bits
from puzzlelab.puzzles.hexagon.beam.search import beam_plan, beam_search, cell_order, run_kernel
from puzzlelab.puzzles.hexagon.completion.linear import split_sixes
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.scoring import level_penalty
from puzzlelab.puzzles.hexagon.verify import rule_violation


def _finals(n, top, width, seed, order, kernel, cache_bits=14):
    g = hexagon(n)
    plan = beam_plan(g, cell_order(g, order), top)
    zobrist = np.random.default_rng(seed).integers(0, np.iinfo(np.int64).max, size=(plan.slots, 8, 64), dtype=np.int64).astype(np.uint64)
    states, penalty, count, done, lookups, hits = run_kernel(plan, top, width, zobrist, 1 << 30, Budget(), kernel, cache_bits)
    return [(int(penalty[t]), states(t)) for t in range(count)], (lookups, hits)


def test_value_bits_are_the_write_ups():
    # "only one bit ... for a single level; two or three levels two bits; otherwise three"
    assert [value_bits(top) for top in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_packed_and_cached_kernels_keep_the_reference_states(n):
    """Every final state (not only the best), its penalty and its grid, for fixed seeds
    and widths, at one, two and all levels; cache sizes from 2 entries (constant
    eviction) to 2**14."""
    for top, width, seed, order in ((5, 1000, 0, "clock"), (2, 500, 1, "spiral"), (1, 200, 2, "clock"), (3, 100, 3, "rows")):
        reference, _ = _finals(n, top, width, seed, order, "history")
        assert reference, (n, top)
        for cache_bits in (0, 1, 14):
            got, (lookups, hits) = _finals(n, top, width, seed, order, "packed", cache_bits)
            assert got == reference, (n, top, cache_bits)
            assert (lookups > 0) == (cache_bits > 0) and 0 <= hits <= lookups
        assert hits > 0


def test_a_cache_hit_returns_what_a_recomputation_returns():
    """Two states with the same situation key at a step (random frontiers, equal on the
    step's placed neighbours only) get the same children from _children; states with
    different keys are not merged (the key is a function of those neighbours alone)."""
    rng = np.random.default_rng(7)
    for n, top in ((5, 5), (6, 2), (7, 3)):
        g = hexagon(n)
        plan = beam_plan(g, cell_order(g, "spiral"), top)
        zobrist = rng.integers(0, np.iinfo(np.int64).max, size=(plan.slots, 8, 64), dtype=np.int64).astype(np.uint64)
        a_pen, b_pen = np.zeros(top + 1, np.int16), np.zeros(top + 1, np.int16)
        a_hash, b_hash = np.zeros(top + 1, np.uint64), np.zeros(top + 1, np.uint64)
        checked = 0
        for i in range(1, len(plan.order)):
            for _ in range(20):
                values = rng.integers(1, top + 2, size=(2, plan.slots)).astype(np.int8)
                masks = np.zeros((2, plan.slots), np.int8)
                for s in range(plan.slots):
                    for r in range(2):
                        masks[r, s] = rng.integers(0, 1 << min(int(values[r, s]) - 1, 6))
                near = [s for s in plan.prev_slot[i] if s >= 0]
                values[1, near], masks[1, near] = values[0, near], masks[0, near]
                assert _situation(values, masks, 0, plan.prev_slot, i) == _situation(values, masks, 1, plan.prev_slot, i)
                _children(values, masks, 0, i, plan.prev_slot, plan.prev_rem, plan.own_slot, plan.own_rem, plan.allowed, top, zobrist, a_pen, a_hash)
                _children(values, masks, 1, i, plan.prev_slot, plan.prev_rem, plan.own_slot, plan.own_rem, plan.allowed, top, zobrist, b_pen, b_hash)
                assert list(a_pen) == list(b_pen) and list(a_hash) == list(b_hash), (n, i)
                checked += int((a_pen >= 0).sum())
                if near:  # change one neighbour: a different key
                    values[1, near[0]] = values[1, near[0]] % (top + 1) + 1
                    assert _situation(values, masks, 0, plan.prev_slot, i) != _situation(values, masks, 1, plan.prev_slot, i)
        assert checked > 0


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_packed_beam_grids_pass_the_verifier(n):
    g = hexagon(n)
    found = beam_search(n, width=1000, order="clock", top=5, keep=5, seed=0)
    assert found
    for penalty, values in found:
        assert penalty == level_penalty(g, values, 5)
        assert rule_violation(n, split_sixes(g, values)) is None
