"""The independent checker of coin-sliding solutions: replay the moves one by one.

It shares no code with the solvers (no bitmasks, no kernels): the board is a set of
(x, y) cells and each move `[x1, y1, x2, y2]` is checked against the rule as the
reference states it: (x1, y1) holds a coin, (x2, y2) is an empty cell of the board, and
(x2, y2) has at least two coins among its four edge-neighbours once the moved coin is
lifted. After the last move the board must equal the target exactly, in place.
"""

from __future__ import annotations

from typing import Any

from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import is_whole, parse_json
from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.coins.model import Instance, shown

__all__ = ["verify", "parse_moves", "coin_cells"]


def coin_cells(mask: int, width: int, height: int) -> set[tuple[int, int]]:
    return {(x, y) for y in range(height) for x in range(width) if mask >> (y * width + x) & 1}


def parse_moves(solution: Any) -> list[tuple[int, int, int, int]]:
    """Moves from JSON text, a list of [x1, y1, x2, y2], or {'moves': [...]}/{'solution': [...]}.
    Raises ValueError with a message naming the offending move."""
    if isinstance(solution, str):
        try:
            solution = parse_json(solution, "solution")  # size, depth and integer-length limits
        except InvalidInstance as exc:
            why = str(exc).removeprefix("solution: ").replace("not valid JSON", "not JSON", 1)
            raise ValueError(f"solution: {why}; expected [[x1, y1, x2, y2], ...]") from None
    if isinstance(solution, dict):
        solution = solution.get("moves", solution.get("solution"))
    if not isinstance(solution, (list, tuple)):
        raise ValueError("solution: expected a list of moves [[x1, y1, x2, y2], ...]")
    moves = []
    for i, move in enumerate(solution, 1):
        if not isinstance(move, (list, tuple)) or len(move) != 4 or not all(is_whole(v) for v in move):
            raise ValueError(f"move {i}: expected four integers [x1, y1, x2, y2], got {shown(move)}")
        if any(v.bit_length() > 64 for v in move):  # off any board; and too long to print
            raise ValueError(f"move {i}: a coordinate of {max(v.bit_length() for v in move)} bits is off any board of at most 64 cells")
        moves.append(tuple(move))
    return moves


def verify(instance: Instance, solution: Any) -> Verdict:
    """Replay `solution` on `instance`; the value is the number of moves."""
    try:
        moves = parse_moves(solution)
    except ValueError as exc:
        return Verdict(False, None, str(exc))
    width, height = instance.width, instance.height
    board = coin_cells(instance.start, width, height)
    target = coin_cells(instance.target, width, height)
    for i, (x1, y1, x2, y2) in enumerate(moves, 1):
        where = f"move {i} [{x1}, {y1}, {x2}, {y2}]"
        for x, y in ((x1, y1), (x2, y2)):
            if not (0 <= x < width and 0 <= y < height):
                return Verdict(False, len(moves), f"{where}: cell ({x}, {y}) is off the {width} x {height} board")
        if (x1, y1) not in board:
            return Verdict(False, len(moves), f"{where}: no coin at ({x1}, {y1})")
        if (x2, y2) in board:
            return Verdict(False, len(moves), f"{where}: cell ({x2}, {y2}) already holds a coin")
        board.discard((x1, y1))
        support = sum((x2 + dx, y2 + dy) in board for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if support < 2:
            return Verdict(
                False,
                len(moves),
                f"{where}: cell ({x2}, {y2}) touches {support} coin(s) once the moved coin is lifted; a move needs at least 2",
            )
        board.add((x2, y2))
    if board != target:
        missing = sorted(target - board)
        extra = sorted(board - target)
        return Verdict(
            False,
            len(moves),
            f"after {len(moves)} moves the board differs from the target: coins missing at {missing[:4]}, extra at {extra[:4]}",
        )
    return Verdict(True, len(moves), f"{len(moves)} legal moves reach the target", {"moves": len(moves)})
