"""The generated piece sets against counting identities and brute force."""

from itertools import product

import pytest

from puzzlelab.puzzles.macmahon.tiles import (
    burnside_count,
    canonical,
    distinct_rotations,
    mirror,
    rotate,
    square_count_formula,
    tile_set,
    triangle_count_formula,
)


def orbits_by_brute_force(colours: int, sides: int) -> int:
    """Colourings up to rotation, by collecting each colouring's set of rotations."""
    seen = set()
    for edges in product(range(colours), repeat=sides):
        seen.add(frozenset(tuple(edges[(s - r) % sides] for s in range(sides)) for r in range(sides)))
    return len(seen)


@pytest.mark.parametrize("c", range(1, 7))
def test_square_sets_match_burnside_and_macmahon(c):
    tiles = tile_set(c, 4)
    assert len(tiles) == burnside_count(c, 4) == square_count_formula(c) == (c**4 + c**2 + 2 * c) // 4
    assert len(tiles) == orbits_by_brute_force(c, 4)


def test_published_square_counts():
    # the write-up quotes 24 for three colours; Burnside's formula gives the rest
    assert [len(tile_set(c, 4)) for c in range(1, 7)] == [1, 6, 24, 70, 165, 336]


@pytest.mark.parametrize("c", range(1, 6))
def test_triangle_sets(c):
    tiles = tile_set(c, 3)
    assert len(tiles) == triangle_count_formula(c) == orbits_by_brute_force(c, 3)
    assert len(tile_set(4, 3)) == 24  # MacMahon's 24 four-colour triangles


@pytest.mark.parametrize("c,k", [(2, 4), (3, 4), (4, 4), (3, 3), (4, 3)])
def test_canonical_order_and_orientations(c, k):
    tiles = tile_set(c, k)
    assert list(tiles) == sorted(tiles) and len(set(tiles)) == len(tiles)
    assert tiles[0] == (0,) * k  # the one-colour piece of colour 0 first
    for t in tiles:
        rotations = {rotate(t, r) for r in range(k)}
        assert canonical(t) == t == min(rotations)
        assert distinct_rotations(t) == len(rotations)
        assert [rotate(t, r) for r in range(distinct_rotations(t))] == list(dict.fromkeys(rotate(t, r) for r in range(k)))
        assert canonical(mirror(t)) == mirror(t) and mirror(mirror(t)) == t


def test_write_up_orientation_reduction():
    # 24 squares x 4 rotations x 4 edges = 384 table entries; distinct orientations: 324
    tiles = tile_set(3, 4)
    assert 4 * sum(distinct_rotations(t) for t in tiles) == 324
    assert sum(distinct_rotations(t) == 1 for t in tiles) == 3  # the one-colour squares
    assert sum(distinct_rotations(t) == 2 for t in tiles) == 3  # WRWR, WBWB, RBRB
