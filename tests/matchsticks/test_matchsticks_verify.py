"""The independent checker: counts against a grid-marking oracle and the published
drawings; every malformed or inadmissible solution is rejected with a reason."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from matchsticks_oracles import published_drawings

from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import Instance, Square
from puzzlelab.puzzles.matchsticks.verify import count_matches


def grid_count(squares):
    """Matches counted on two boolean arrays (another way to count than the checker's)."""
    offset = 10
    horizontal = np.zeros((140, 140), bool)
    vertical = np.zeros((140, 140), bool)
    for s, x, y in squares:
        x, y = x + offset, y + offset
        horizontal[y, x : x + s] = True
        horizontal[y + s, x : x + s] = True
        vertical[y : y + s, x] = True
        vertical[y : y + s, x + s] = True
    return int(horizontal.sum() + vertical.sum())


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(st.integers(1, 30), st.integers(-10, 60), st.integers(-10, 60)), max_size=10))
def test_count_matches_equals_grid_marking(squares):
    assert count_matches(squares) == grid_count(squares)


def test_published_drawings_count_their_published_totals():
    totals = {1: 4, 2: 10, 3: 17, 4: 26, 16: 190, 21: 282}
    drawings = published_drawings()
    assert len(drawings) == len(totals)
    for n, lines in zip(sorted(totals), drawings):
        verdict = PUZZLE.verify(Instance(n), "\n".join(lines))
        assert verdict.ok, verdict.message
        assert verdict.value == totals[n]
        if n >= 16:  # the line under the drawing states the total
            assert lines[-2].startswith(f"{verdict.value} matchsticks")


def test_single_squares_and_the_empty_instance():
    assert PUZZLE.verify(Instance(0), []).value == 0
    assert PUZZLE.verify(Instance(1), [[1, 0, 0]]).value == 4
    assert PUZZLE.verify(Instance(2), {"squares": [[2, 0, 0], [1, 0, 0]]}).value == 10
    assert PUZZLE.verify(Instance(2), "(2,0,0) (1,1,1)").value == 10


def test_missing_repeated_and_extra_sizes_are_named():
    missing = PUZZLE.verify(Instance(3), [[3, 0, 0], [1, 0, 0]])
    assert not missing.ok and "missing sizes 2" in missing.message
    repeated = PUZZLE.verify(Instance(3), [[3, 0, 0], [2, 0, 0], [2, 1, 1], [1, 0, 0]])
    assert not repeated.ok and "repeated sizes 2" in repeated.message
    extra = PUZZLE.verify(Instance(2), [[2, 0, 0], [1, 0, 0], [5, 0, 0]])
    assert not extra.ok and "above n = 2" in extra.message


def test_squares_outside_the_area_are_rejected_unless_the_roam_allows():
    outside = [[3, 0, 0], [2, 2, 0], [1, 0, 0]]  # the 2x2 sticks out one unit to the right
    verdict = PUZZLE.verify(Instance(3), outside)
    assert not verdict.ok and "outside the area" in verdict.message and "inside the largest square" in verdict.message
    roaming = PUZZLE.verify(Instance(3), {"roam": 1, "squares": outside})
    assert roaming.ok and roaming.value == count_matches([Square(*s) for s in outside])
    too_far = PUZZLE.verify(Instance(3), {"roam": 1, "squares": [[3, 0, 0], [2, 3, 0], [1, 0, 0]]})
    assert not too_far.ok and "within 1 of the largest square" in too_far.message


def test_malformed_solutions_get_a_reason_not_an_exception():
    for bad in ("not a solution", {"squares": "x"}, [[1, 2]], 17):
        verdict = PUZZLE.verify(Instance(2), bad)
        assert not verdict.ok and verdict.message
