"""The replay checker: legal and illegal moves, each rejection naming the move and why."""

import pytest

from puzzlelab.puzzles.coins import PUZZLE

# 3 x 3: coins at (0,0), (2,0), (1,2); lifting (1,2) onto (1,0) is legal (two neighbours).
SMALL = PUZZLE.parse({"start": ["o-o", "---", "-o-"], "target": ["ooo", "---", "---"]})


def test_a_legal_solution_counts_its_moves():
    verdict = PUZZLE.verify(SMALL, [[1, 2, 1, 0]])
    assert verdict.ok and verdict.value == 1
    assert PUZZLE.verify(SMALL, "[[1, 2, 1, 0]]").ok  # JSON text, as the CLI reads a file
    assert PUZZLE.verify(SMALL, {"moves": [[1, 2, 1, 0]]}).ok


def test_the_moved_coin_does_not_count_as_a_neighbour():
    # (1,1) would have two neighbours if the coin lifted from (2,1) counted.
    inst = PUZZLE.parse({"start": ["oo-", "--o", "---"], "target": ["oo-", "-o-", "---"]})
    verdict = PUZZLE.verify(inst, [[2, 1, 1, 1]])
    assert not verdict.ok and "move 1" in verdict.message and "touches 1 coin" in verdict.message


@pytest.mark.parametrize(
    "moves, words",
    [
        ([[1, 2, 1, 1]], "touches 0 coin"),
        ([[1, 1, 1, 0]], "no coin at (1, 1)"),
        ([[1, 2, 0, 0]], "already holds a coin"),
        ([[1, 2, 3, 0]], "off the 3 x 3 board"),
        ([], "differs from the target"),
        ([[1, 2, 1, 0], [1, 0, 1, 2]], "move 2"),
        ([[1, 2, 1]], "four integers"),
        ([[1, 2, 1, True]], "four integers"),
        ("not json", "not JSON"),
        (7, "list of moves"),
    ],
)
def test_illegal_solutions_are_rejected_with_the_reason(moves, words):
    verdict = PUZZLE.verify(SMALL, moves)
    assert not verdict.ok
    assert words in verdict.message


def test_the_final_board_must_match_in_place():
    # Two legal moves that end on a board of the right shape but the wrong place.
    inst = PUZZLE.parse({"start": ["o-o", "---", "-o-"], "target": ["-o-", "o-o", "---"]})
    verdict = PUZZLE.verify(inst, [[1, 2, 1, 0]])
    assert not verdict.ok and "differs" in verdict.message
