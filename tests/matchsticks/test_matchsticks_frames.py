"""Frame moves (`frames.py`): a planted worse answer is brought back to the proven optimum
by a move no tail re-solve alone makes, every improvement recounts (checker), and a
campaign stopped and resumed ends where an unbroken one does."""

import json

import pytest
from matchsticks_oracles import published_rows

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.frames import FrameState, apply_move, frame_moves, frame_search, resolve_tail
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.verify import count_matches, verify_solution

N = 12
OPTIMUM = published_rows()[N]["best_known"]


@pytest.fixture(scope="module")
def optimum():
    return PUZZLE.solve(Instance(N), "full", budget=120).solution["squares"]


def _planted(optimum):
    """The optimum with one frame square moved by one unit: a worse answer (asserted)."""
    for size in range(N - 2, 5, -1):
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
            moved = apply_move(optimum, N, ["shift", size, dx, dy])
            if moved is not None and count_matches(moved) > OPTIMUM + 2:
                return moved
    raise AssertionError("no frame square to plant a worse answer with")


def test_a_planted_worse_answer_is_improved_back_to_the_optimum(optimum):
    planted = _planted(optimum)
    values = []

    def heard(state):
        verdict = verify_solution(Instance(N), {"roam": 0, "squares": state.squares})
        assert verdict.ok and verdict.value == state.value
        values.append(state.value)

    state = frame_search(FrameState.begin(N, "planted", planted, tail=4), seconds_per_move=30, on_improve=heard)
    assert state.done and state.value == OPTIMUM
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)  # strictly better each time
    assert any(step["move"][0] != "tail" for step in state.history)  # the frame had to move


def test_the_tail_re_solve_alone_is_exact_given_the_frame(optimum):
    # sizes 6..1 removed and re-solved under the optimum's own frame: the optimum again,
    # and nothing below it
    answer, _, complete = resolve_tail(N, optimum, 6, OPTIMUM + 1)
    assert complete and count_matches(answer) == OPTIMUM
    assert resolve_tail(N, optimum, 6, OPTIMUM)[0] is None


def test_moves_put_a_square_where_the_other_was():
    squares = [[8, 0, 0], [7, 0, 0], [5, 3, 3], [3, 0, 5], [2, 1, 1], [1, 0, 0]]
    swapped = {s[0]: s for s in apply_move(squares, 8, ["swap", 5, 3, "bl"])}
    assert swapped[5] == [5, 0, 3] and swapped[3] == [3, 3, 5]  # bottom-left corners where the other's was
    assert apply_move(squares, 8, ["swap", 5, 3, "tl"]) is None  # the 5 would leave the largest square
    assert apply_move(squares, 8, ["shift", 5, 1, 0]) is None
    assert apply_move(squares, 8, ["shift", 5, -1, -1])[2] == [5, 2, 2]
    grouped = [[8, 0, 0], [7, 0, 0], [5, 3, 3], [4, 3, 3], [3, 0, 5], [2, 1, 1], [1, 0, 0]]
    assert apply_move(grouped, 8, ["group", 4, -1, -1])[2:4] == [[5, 2, 2], [4, 2, 2]]  # the 4 and the 5 at its corner
    assert apply_move(grouped, 8, ["group", 3, 1, 0]) is None  # alone at its corner
    moves = frame_moves(8, 2, reach=1)
    assert moves[0] == ["tail"] and ["swap", 7, 3, "tl"] in moves and not any(8 in m[1:3] for m in moves[1:])


def test_a_stopped_campaign_resumes_where_it_was(optimum):
    planted = _planted(optimum)
    whole = frame_search(FrameState.begin(N, "planted", planted, tail=4), seconds_per_move=30)
    first = FrameState.begin(N, "planted", planted, tail=4)
    stops = 0
    while not first.done:
        stop = Budget()  # cancelled every 7 moves: the campaign stopped, its state saved
        frame_search(first, seconds_per_move=30, budget=stop, on_progress=lambda _: stop.cancel(), every=7)
        first = FrameState.from_json(json.loads(json.dumps(first.to_json())))
        stops += 1
    assert stops > 1
    assert (first.value, first.squares, first.history) == (whole.value, whole.squares, whole.history)


def test_a_state_that_does_not_recount_is_refused(optimum):
    data = FrameState.begin(N, "x", optimum, tail=4).to_json()
    data["value"] -= 1
    with pytest.raises(ValueError, match="matches, not"):
        FrameState.from_json(data)
