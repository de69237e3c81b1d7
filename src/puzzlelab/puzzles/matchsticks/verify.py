"""The independent checker: recount the matches of a solution from its squares alone.

It shares no code with the searches (no bit boards, no placement tables): every square
contributes its 4 * size unit segments to a Python set, and the value is the size of
the set. It also checks what makes a solution admissible: exactly one square of each
size 1..n, and every square inside the area (the largest square, widened by the
solution's `roam` margin on every side).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.matchsticks.drawing import parse_any_solution
from puzzlelab.puzzles.matchsticks.model import Instance, Solution, Square

__all__ = ["segments_of", "count_matches", "verify_solution", "restriction_broken"]


def segments_of(square: Square) -> set[tuple[str, int, int]]:
    """The unit segments of a square's sides: ('h', x, y) joins (x, y)-(x+1, y) and
    ('v', x, y) joins (x, y)-(x, y+1)."""
    s, x, y = square.size, square.x, square.y
    found = set()
    for i in range(s):
        found.add(("h", x + i, y))
        found.add(("h", x + i, y + s))
        found.add(("v", x, y + i))
        found.add(("v", x + s, y + i))
    return found


def count_matches(squares: Any) -> int:
    """Distinct unit segments of the squares' sides (the number of matchsticks)."""
    used: set[tuple[str, int, int]] = set()
    for square in squares:
        used |= segments_of(square if isinstance(square, Square) else Square(*square))
    return len(used)


def verify_solution(instance: Instance, solution: Any) -> Verdict:
    """Verdict on one solution; `value` is the match count when the form is right."""
    try:
        parsed = solution if isinstance(solution, Solution) else parse_any_solution(solution)
    except InvalidInstance as exc:
        return Verdict(False, None, str(exc))
    n = instance.n
    sizes = sorted(s.size for s in parsed.squares)
    wanted = list(range(1, n + 1))
    if sizes != wanted:
        tally = Counter(sizes)
        missing = sorted(set(wanted) - set(tally))
        repeated = sorted(s for s, k in tally.items() if k > 1)
        extra = sorted(s for s in tally if s > n)
        problems = []
        if missing:
            problems.append(f"missing sizes {_ranges(missing)}")
        if repeated:
            problems.append(f"repeated sizes {_ranges(repeated)}")
        if extra:
            problems.append(f"sizes above n = {n}: {_ranges(extra)}")
        return Verdict(False, None, f"squares: expected one square of each size 1..{n}; " + "; ".join(problems))
    if n == 0:
        return Verdict(True, 0, "no squares, no matches", {"squares": 0, "roam": parsed.roam})
    largest = next(s for s in parsed.squares if s.size == n)
    lo_x, lo_y = largest.x - parsed.roam, largest.y - parsed.roam
    hi_x, hi_y = largest.x + n + parsed.roam, largest.y + n + parsed.roam
    for square in parsed.squares:
        if square.x < lo_x or square.y < lo_y or square.x + square.size > hi_x or square.y + square.size > hi_y:
            where = "inside the largest square" if parsed.roam == 0 else f"within {parsed.roam} of the largest square"
            return Verdict(
                False,
                None,
                f"square (size {square.size}, x {square.x}, y {square.y}) lies outside the area: every square must be {where} "
                f"(x {lo_x}..{hi_x}, y {lo_y}..{hi_y})",
            )
    matches = count_matches(parsed.squares)
    return Verdict(
        True,
        matches,
        f"{matches} distinct matches form squares 1..{n}",
        {"squares": n, "roam": parsed.roam, "sum_of_sides": 2 * n * (n + 1)},
    )


def _ranges(values: list[int], most: int = 8) -> str:
    """[1, 2, 3, 7] -> '1..3, 7' (short messages for long lists: the first `most`
    runs, then how many more)."""
    parts, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}..{v}")
            start = None
    if len(parts) > most:
        return ", ".join(parts[:most]) + f" and {len(parts) - most} more"
    return ", ".join(parts)


def restriction_broken(squares: Any, free_below: int | None = None, greedy: bool = False) -> str | None:
    """Why a solution (squares inside the largest one, at (0, 0)) is not an answer of a
    restricted search, or None when it is: `free_below` k puts every square of size k
    or more on the main diagonal (x == y); `greedy` makes every square, placed largest
    first, add the fewest new matches any placement of its size could add then.
    Costs are recounted with numpy prefix sums over the segment grid (no search code)."""
    import numpy as np

    items = sorted((Square(*s) if not isinstance(s, Square) else s for s in squares), key=lambda s: -s.size)
    if free_below is not None:
        for s in items:
            if s.size >= free_below and s.x != s.y:
                return f"square of size {s.size} at ({s.x}, {s.y}) is off the main diagonal (sizes >= {free_below} must be on it)"
    if not greedy or not items:
        return None
    area = items[0].size
    horizontal = np.zeros((area + 1, area), np.int64)  # [y, x]: segment (x, y)-(x+1, y)
    vertical = np.zeros((area + 1, area), np.int64)  # [x, y]: segment (x, y)-(x, y+1)
    for s in items:
        h_sums = np.concatenate([np.zeros((area + 1, 1), np.int64), np.cumsum(horizontal, axis=1)], axis=1)
        v_sums = np.concatenate([np.zeros((area + 1, 1), np.int64), np.cumsum(vertical, axis=1)], axis=1)
        t, k = s.size, area - s.size + 1
        h_run = h_sums[:, t : t + k] - h_sums[:, :k]  # [line, start]: matches on the run
        v_run = v_sums[:, t : t + k] - v_sums[:, :k]
        # cost[y, x] = 4t - the matches already on the four sides
        have = h_run[:k, :] + h_run[t : t + k, :] + (v_run[:k, :] + v_run[t : t + k, :]).T
        cost = 4 * t - have
        placed = int(cost[s.y, s.x])
        if placed > int(cost.min()):
            return f"square of size {t} at ({s.x}, {s.y}) adds {placed} matches where {int(cost.min())} was possible (not greedy)"
        horizontal[s.y, s.x : s.x + t] = 1
        horizontal[s.y + t, s.x : s.x + t] = 1
        vertical[s.x, s.y : s.y + t] = 1
        vertical[s.x + t, s.y : s.y + t] = 1
    return None
