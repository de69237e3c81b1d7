"""Geometry, submission text and scoring identities of the hexagon puzzle."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles.hexagon.model import cell_count, edge_count, format_grid, grid_values, hexagon, parse_grids
from puzzlelab.puzzles.hexagon.scoring import count_bound, level_penalty, penalty_edges, raw_score
from puzzlelab.puzzles.hexagon.verify import rule_violation


@pytest.mark.parametrize("n", range(1, 12))
def test_geometry_counts_rings_and_neighbours(n):
    g = hexagon(n)
    assert g.cells == 3 * n * (n - 1) + 1 == cell_count(n)
    assert len(g.edges) == 3 * (n - 1) * (3 * n - 2) == edge_count(n)
    assert sum(g.row_lengths) == g.cells and len(g.row_lengths) == 2 * n - 1
    assert int(g.degree.sum()) == 2 * len(g.edges)
    for c in range(g.cells):
        for j in g.neighbours_of(c):
            assert c in g.neighbours_of(j)
    # ring k (1 = perimeter) has 6(n-k) cells, the centre ring n has one
    for k in range(1, n + 1):
        assert int((g.ring == k).sum()) == (6 * (n - k) if k < n else 1)
    assert g.ring[g.centre] == n
    # perimeter: corners have 3 neighbours, sides 4; inside 6
    if n >= 2:
        assert sorted(set(int(d) for d in g.degree[g.ring == 1])) == ([3, 4] if n > 2 else [3])
        assert all(int(d) == 6 for d in g.degree[g.ring > 1])
    # canonical edge order: by distance = ring a + ring b
    assert list(g.edge_distance) == sorted(g.edge_distance)
    if n > 1:
        assert int(g.edge_distance.min()) == 2 and int(g.edge_distance.max()) == 2 * n - 1


def test_distance_counts_quoted_in_the_write_up():
    g = hexagon(27)
    assert int((g.edge_distance == 2).sum()) == 156
    assert int((g.edge_distance == 3).sum()) == 306


def _valid_random_grid(n, rng):
    """A random valid grid: random values, then every cell lowered to the largest value
    its neighbours support, repeated until nothing changes (values only decrease)."""
    g = hexagon(n)
    values = [rng.randint(1, 7) for _ in range(g.cells)]
    changed = True
    while changed:
        changed = False
        for c in range(g.cells):
            seen = {values[j] for j in g.neighbours_of(c)}
            best = 1
            while best in seen:
                best += 1
            if values[c] > best:
                values[c] = best
                changed = True
    return values


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 11])
def test_penalty_plus_raw_score_is_the_edge_count(n):
    rng = random.Random(n)
    for _ in range(10):
        values = _valid_random_grid(n, rng)
        assert rule_violation(n, values) is None
        assert len(penalty_edges(hexagon(n), values)) + raw_score(values) == edge_count(n)
        # level 6 is the whole grid; level penalties never decrease
        levels = [level_penalty(hexagon(n), values, k) for k in range(1, 7)]
        assert levels == sorted(levels) and levels[-1] == len(penalty_edges(hexagon(n), values))


def test_upper_bounds():
    assert count_bound(3) == 52 and edge_count(3) == 42
    # v = 19 cells: two blocks of 1..7 (21 each) and five cells 1..5 (0+1+2+3+4)
    assert count_bound(3) == 2 * 21 + 10
    from puzzlelab.puzzles.hexagon.reference import published_table

    for n, row in published_table().items():
        assert int(row["best_raw_score"]) <= min(count_bound(n), edge_count(n))
        assert int(row["best_raw_score"]) + int(row["penalty_edges"]) == edge_count(n) == int(row["edges"])


def test_reference_example_grid():
    text = "(4,3,2), (2,1,3,1), (3,1,5,2,4), (2,1,4,3), (2,3,1)"
    (rows,) = parse_grids(text)
    n, values = grid_values(rows)
    assert n == 3 and sum(values) == 47 and raw_score(values) == 28
    assert rule_violation(3, values) is None
    assert format_grid(3, values) == "(4,3,2), (2,1,3,1), (3,1,5,2,4), (2,1,4,3), (2,3,1)"


def test_duplicate_support_is_charged_to_the_earlier_edge():
    # n=2: centre 2 between six 1s: five of its six supporting edges are penalties,
    # all at distance 3 (centre ring 2 + perimeter ring 1); the last in order is useful.
    g = hexagon(2)
    values = [1] * 7
    values[g.centre] = 2
    edges = penalty_edges(g, values)
    ring_edges = [e for e in range(len(g.edges)) if g.centre not in g.edges[e]]
    spokes = sorted(e for e in range(len(g.edges)) if g.centre in g.edges[e])
    assert set(ring_edges) <= set(edges)  # 1-1 edges on the rim
    assert [e for e in edges if e in spokes] == spokes[:-1]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("(1,2), (2,1,3)", "2n-1 rows"),
        ("(1,2), (2,1), (1,2)", "row 2: expected 3 cells, got 2"),
        ("(1,2), (2,1,3), (1,2,4,4)", "row 3: expected 2 cells, got 4"),
        ("(1,2,1), (2,x,3,1), (1,2,1,1,1), (1,2,1,1), (1,1,1)", "row 2, cell 2: expected a positive integer"),
        ("(1,2,1), (2,0,3,1), (1,2,1,1,1), (1,2,1,1), (1,1,1)", "row 2, cell 2: expected a positive integer"),
        ("(1,2,1), (2,1.5,3,1), (1,2,1,1,1), (1,2,1,1), (1,1,1)", "row 2, cell 2: expected ',' or ')'"),
        ("(1,2,1) (2,1,3,1)", "row 1: expected ',' between rows"),
        ("1,2,1", "row 1: expected '('"),
        ("", "empty"),
    ],
)
def test_bad_text_names_the_row_and_cell(text, fragment):
    with pytest.raises(InvalidInstance) as info:
        rows = parse_grids(text)
        grid_values(rows[0])
    assert fragment in str(info.value)


def test_several_grids_split_by_semicolons():
    grids = parse_grids("(1);\n(1,2),(2,3,1),(1,2);")
    assert [grid_values(g)[0] for g in grids] == [1, 2]
    with pytest.raises(InvalidInstance, match="grid 2, row 1"):
        parse_grids("(1); (1,x)")


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 6), seed=st.integers(0, 10_000), spaces=st.lists(st.sampled_from([" ", "\n", "\t", "  "]), min_size=1, max_size=5))
def test_text_round_trip_with_whitespace_anywhere_outside_numbers(n, seed, spaces):
    rng = random.Random(seed)
    values = tuple(rng.randint(1, 7) for _ in range(cell_count(n)))
    text = format_grid(n, values)
    # put whitespace between every pair of tokens (never inside a number)
    out = []
    for i, ch in enumerate(text):
        out.append(ch)
        if not (ch.isdigit() and i + 1 < len(text) and text[i + 1].isdigit()):
            out.append(rng.choice(spaces))
    (rows,) = parse_grids(rng.choice(spaces) + "".join(out))
    assert grid_values(rows) == (n, values)
