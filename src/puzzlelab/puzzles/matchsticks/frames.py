"""Frame moves: the large squares of an answer moved, the small ones re-solved exactly by
the full search (the try at beating the published bounds for n = 47..63, beside the band
sweeps of `lns.py`).

An answer's squares of sizes above `tail` are its frame. Given the frame, the full
search's kernel (`kernels.py`, the frame as its prefix) searches every placement of
sizes tail..1 for strictly fewer matches; with its lookahead that is exact for tails of
30-40 sizes in a second or so at n = 54..57 (the band kernel's bands stop near 20). So
the tail re-solve alone already covers every band move below the frame at once.

A move changes the frame first, then re-solves the tail:
- `shift`: one frame square (not the largest) moved by (dx, dy), |dx|, |dy| <= `reach`;
- `group`: a frame square and the larger ones sharing its top-left corner (a ladder's
  group of two or three, `ladder.py`) moved together by (dx, dy), so the lines they
  share stay shared;
- `swap`: two frame squares trade places, each put where the other was with one of its
  corners (top-left, top-right, bottom-left, bottom-right) where the other's was,
  however far apart they are in size: the moves no band of consecutive sizes reaches.
A moved square that would leave the largest one is not a move. When the frame as it
is does not re-solve within a move's seconds, the tail shrinks (by TAIL_STEP, down to
MIN_TAIL) and the pass starts again: the answers of the diagonal columns, whose frames
hold their tails less tightly, get shorter tails than the ladders. The moves of an answer
are a fixed list (`frame_moves`), so a campaign's state is the answer and the index of
the next move (`FrameState`), and it resumes where it stopped. An improvement is kept at
once and the list starts again from the new answer; a pass over the whole list with
nothing found (every move complete) shows no frame move improves the answer.

The kernel recounts what it finds; the caller verifies every kept answer with the
checker (`verify.verify_solution`) before it is stored or shown.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.verify import count_matches

__all__ = ["FrameState", "frame_moves", "apply_move", "resolve_tail", "frame_search"]

CORNERS = ("tl", "tr", "bl", "br")
MIN_TAIL, TAIL_STEP = 6, 3  # the shortest tail, and how much shorter it gets when the frame as it is does not re-solve in time


def frame_moves(n: int, tail: int, reach: int = 2) -> list[list[Any]]:
    """Every move of one pass, in order: the frame as it is (["tail"]), then the shifts
    of each frame square from the smallest up, the same for the groups, then the swaps
    of every two frame squares (the largest stays put throughout)."""
    frame = range(tail + 1, n)  # sizes that may move
    moves: list[list[Any]] = [["tail"]]
    steps = [(dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1) if (dx, dy) != (0, 0)]
    moves += [["shift", a, dx, dy] for a in frame for dx, dy in steps]
    moves += [["group", a, dx, dy] for a in frame for dx, dy in steps]
    moves += [["swap", a, b, corner] for a in frame for b in frame if b < a for corner in CORNERS]
    return moves


def _placed(size: int, other: list[int], corner: str) -> tuple[int, int]:
    """The corner of a size-`size` square put where `other` was, the given corners together."""
    s, x, y = other
    return (x if corner[1] == "l" else x + s - size), (y if corner[0] == "t" else y + s - size)


def apply_move(squares: list[list[int]], n: int, move: list[Any]) -> list[list[int]] | None:
    """The answer with its frame moved (the tail as it was), or None when a moved square
    would leave the largest one or the move changes nothing."""
    by_size = {s[0]: list(s) for s in squares}
    kind = move[0]
    if kind == "tail":
        return [list(s) for s in squares]
    if kind == "shift":
        _, a, dx, dy = move
        changed = {a: (by_size[a][1] + dx, by_size[a][2] + dy)}
    elif kind == "group":
        _, a, dx, dy = move
        corner = tuple(by_size[a][1:])
        group = [s for s in sorted(by_size) if a <= s < n and tuple(by_size[s][1:]) == corner]  # a and the larger squares at its corner
        if len(group) < 2:
            return None  # a lone square: that is a shift
        changed = {s: (corner[0] + dx, corner[1] + dy) for s in group}
    elif kind == "swap":
        _, a, b, corner = move
        changed = {a: _placed(a, by_size[b], corner), b: _placed(b, by_size[a], corner)}
    else:
        raise ValueError(f"frame move: unknown kind {kind!r}")
    if all((x, y) == tuple(by_size[size][1:]) for size, (x, y) in changed.items()):
        return None
    for size, (x, y) in changed.items():
        if not (0 <= x <= n - size and 0 <= y <= n - size):
            return None
        by_size[size] = [size, x, y]
    return [by_size[s] for s in sorted(by_size, reverse=True)]


def resolve_tail(n: int, squares: list[list[int]], tail: int, below: int, budget: Budget | None = None) -> tuple[list[list[int]] | None, int, bool]:
    """(answer or None, nodes, complete): the fewest-matches placement of sizes tail..1
    given the frame (the squares above `tail`), if it has fewer than `below` matches."""
    from puzzlelab.puzzles.matchsticks.search import make_descriptor, solve_subtree

    frame = sorted((list(s) for s in squares if s[0] > tail), key=lambda s: -s[0])
    found = solve_subtree(make_descriptor(n, bound=below, prefix=frame), budget)
    return (found["solution"] if found["found"] else None), found["nodes"], found["complete"]


@dataclass
class FrameState:
    """Where a frame-move campaign on one n and one start stands (JSON-able)."""

    n: int
    start: str
    tail: int
    squares: list[list[int]]
    value: int
    reach: int = 2
    passes: int = 1
    next_move: int = 0
    incomplete_this_pass: int = 0
    done: bool = False  # a pass found nothing; with incomplete_this_pass 0, no frame move improves the answer
    moves: int = 0
    improvements: int = 0
    nodes: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)  # each improvement: pass, move, value

    @classmethod
    def begin(cls, n: int, start: str, squares: list[list[int]], tail: int, reach: int = 2) -> "FrameState":
        current = [list(map(int, s)) for s in squares]
        return cls(n, start, tail, current, count_matches(current), reach)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "FrameState":
        state = cls(**data)
        if count_matches(state.squares) != state.value:
            raise ValueError(f"frame state n={state.n}: its squares give {count_matches(state.squares)} matches, not {state.value}")
        return state

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def frame_search(
    state: FrameState,
    seconds_per_move: float = 10.0,
    budget: Budget | None = None,
    on_improve: Callable[[FrameState], None] | None = None,
    on_progress: Callable[[FrameState], None] | None = None,
    every: int = 100,
) -> FrameState:
    """Frame moves from where `state` stands until a pass finds nothing or the budget
    ends; `state` is updated in place and returned. `on_improve` hears each better
    answer, `on_progress` every `every` moves (a checkpoint)."""
    budget = budget or Budget()
    moves = frame_moves(state.n, state.tail, state.reach)
    while not state.done and state.next_move < len(moves) and not budget.expired():
        move = moves[state.next_move]
        state.next_move += 1
        moved = apply_move(state.squares, state.n, move)
        if moved is None:
            continue
        move_budget = budget.sub(seconds_per_move)
        answer, nodes, complete = resolve_tail(state.n, moved, state.tail, state.value, move_budget)
        state.nodes += nodes
        if not complete and budget.expired():
            state.next_move -= 1  # stopped by the campaign's budget, not the move's: this move again on resuming
            break
        state.moves += 1
        if move[0] == "tail" and not complete and state.tail > MIN_TAIL and answer is None:
            # The frame as it is does not re-solve within a move's seconds: a shorter
            # tail, and the pass again (the moves of a shorter tail are more).
            state.tail = max(MIN_TAIL, state.tail - TAIL_STEP)
            state.next_move, state.incomplete_this_pass = 0, 0
            moves = frame_moves(state.n, state.tail, state.reach)
            continue
        state.incomplete_this_pass += not complete
        if answer is not None and count_matches(answer) < state.value:
            state.squares, state.value = answer, count_matches(answer)
            state.improvements += 1
            state.history.append({"pass": state.passes, "move": move, "value": state.value})
            state.passes, state.next_move, state.incomplete_this_pass = state.passes + 1, 0, 0
            if on_improve is not None:
                on_improve(state)
        if on_progress is not None and state.moves % every == 0:
            on_progress(state)
    if state.next_move >= len(moves):
        state.done = True
    return state
