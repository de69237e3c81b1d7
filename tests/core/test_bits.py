"""popcount / ctz / clz intrinsics against Python's own integer operations."""

import numba
import numpy as np
import pytest

from puzzlelab.core.bits import bit_positions, clear_lowest_bit, clz, ctz, lowest_bit, popcount

EDGES = [0, 1, 2, 3, 0x80, 0xFF, 2**31, 2**32 - 1, 2**32, 2**62, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1, 0xAAAA_AAAA_AAAA_AAAA]


def _ctz_py(x: int) -> int:
    return 64 if x == 0 else (x & -x).bit_length() - 1


def _clz_py(x: int) -> int:
    return 64 - x.bit_length()


def _samples():
    rng = np.random.default_rng(2026)
    randoms = rng.integers(0, 2**64, size=2000, dtype=np.uint64).tolist()
    sparse = [int(a) & int(b) & int(c) for a, b, c in zip(randoms[:300], randoms[300:600], randoms[600:900])]
    return EDGES + [1 << i for i in range(64)] + randoms + sparse


@pytest.mark.parametrize("x", EDGES)
def test_edge_values(x):
    u = np.uint64(x)
    assert popcount(u) == x.bit_count()
    assert ctz(u) == _ctz_py(x)
    assert clz(u) == _clz_py(x)


def test_random_uint64_match_python():
    xs = _samples()
    for x in xs:
        u = np.uint64(x)
        assert popcount(u) == x.bit_count(), x
        assert ctz(u) == _ctz_py(x), x
        assert clz(u) == _clz_py(x), x
        assert int(lowest_bit(u)) == (x & -x), x
        assert int(clear_lowest_bit(u)) == x & (x - 1), x
        assert list(bit_positions(u)) == [i for i in range(64) if x >> i & 1]


@numba.njit(cache=True)
def _popcount_sum(arr):
    total = 0
    for v in arr:
        total += popcount(v)
    return total


def test_intrinsics_inside_a_kernel():
    arr = np.random.default_rng(1).integers(0, 2**64, size=5000, dtype=np.uint64)
    assert _popcount_sum(arr) == sum(int(v).bit_count() for v in arr)
