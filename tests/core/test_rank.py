"""The combinatorial number system: a bijection, checked exhaustively and at random."""

import itertools
import math

import numpy as np
import pytest

from puzzlelab.core.rank import binomial, next_subset, rank, rank_many, rank_python, unrank, unrank_many


def _mask(positions) -> int:
    return sum(1 << int(p) for p in positions)


def test_every_5_subset_of_12_is_a_bijection():
    n, k = 12, 5
    seen = {}
    for combo in itertools.combinations(range(n), k):
        m = _mask(combo)
        r = int(rank(np.uint64(m)))
        assert 0 <= r < math.comb(n, k)
        assert r == rank_python(m)
        assert int(unrank(r, n, k)) == m
        seen[r] = m
    assert sorted(seen) == list(range(math.comb(n, k)))


def test_ranks_follow_mask_order_and_next_subset():
    n, k = 10, 4
    masks = sorted(_mask(c) for c in itertools.combinations(range(n), k))
    assert [int(rank(np.uint64(m))) for m in masks] == list(range(len(masks)))
    m = np.uint64(masks[0])
    for expected in masks[1:]:
        m = next_subset(m)
        assert int(m) == expected


@pytest.mark.parametrize("n,k", [(35, 12), (45, 13), (64, 32), (64, 1), (64, 63), (20, 0)])
def test_random_masks_round_trip(n, k):
    rng = np.random.default_rng(n * 100 + k)
    masks = []
    for _ in range(3000):
        masks.append(_mask(rng.choice(n, size=k, replace=False)))
    arr = np.array(masks, dtype=np.uint64)
    ranks = rank_many(arr)
    for m, r in zip(masks, ranks):
        assert int(r) == rank_python(m)
        assert 0 <= r < binomial(n, k)
    assert np.array_equal(unrank_many(ranks, n, k), arr)


@pytest.mark.parametrize("n,k", [(35, 12), (45, 13)])
def test_extreme_ranks(n, k):
    first, last = _mask(range(k)), _mask(range(n - k, n))
    assert int(rank(np.uint64(first))) == 0
    assert int(rank(np.uint64(last))) == math.comb(n, k) - 1
    assert int(unrank(math.comb(n, k) - 1, n, k)) == last
