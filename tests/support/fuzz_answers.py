"""Real answers built here, and mutations of them that must make them invalid, for the
CLI fuzzing (tests/support/fuzz_inputs.py, benchmarks/bench_fuzz_cli.py).

Every answer comes from a small construction of this module (a greedy exact partition,
squares placed inside the largest one, a hexagon grid raised cell by cell under the
rule, a random walk of legal coin moves, a backtracking over MacMahon pieces), checked
by an oracle of this module that shares no code with the puzzles' checkers. A mutation
counts only when the oracle says it breaks the answer, so a checker that calls it
valid is wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["Answer", "ANSWERS", "hex_neighbours", "hex_ok", "macmahon_solutions"]


@dataclass(frozen=True)
class Answer:
    """An instance as the CLI takes it (a catalog name or text), a solution (JSON-able
    value or text), what the checker must say of it ('valid', 'invalid': anything but
    valid, '': no expectation) and `how` it was made."""

    instance: str
    solution: Any
    expect: str
    how: str = "real answer"


# ---------------------------------------------------------------------------- tiling


def _tiling_base(rng: random.Random) -> tuple[list[list[bool]], list[tuple[int, int, int]]]:
    """A random grid and an exact partition of its free cells (greedy, random sizes)."""
    height, width = rng.randint(1, 7), rng.randint(1, 7)
    blocked = rng.choice([0.0, 0.1, 0.3])
    free = [[rng.random() >= blocked for _ in range(width)] for _ in range(height)]
    free[rng.randrange(height)][rng.randrange(width)] = True
    covered = [[False] * width for _ in range(height)]
    squares = []
    for y in range(height):
        for x in range(width):
            if not free[y][x] or covered[y][x]:
                continue
            size = 1
            while (
                y + size < height and x + size < width and all(free[r][c] and not covered[r][c] for r in range(y, y + size + 1) for c in range(x, x + size + 1))
            ):
                size += 1
            size = rng.randint(1, size)
            for r in range(y, y + size):
                for c in range(x, x + size):
                    covered[r][c] = True
            squares.append((x, y, size))
    return free, squares


def tiling_ok(free: list[list[bool]], squares: list[tuple[int, int, int]]) -> bool:
    """Every free cell covered exactly once, nothing else covered."""
    height, width = len(free), len(free[0])
    count = [[0] * width for _ in range(height)]
    for x, y, size in squares:
        if size < 1 or x < 0 or y < 0 or x + size > width or y + size > height:
            return False
        for r in range(y, y + size):
            for c in range(x, x + size):
                count[r][c] += 1
    return all(count[r][c] == (1 if free[r][c] else 0) for r in range(height) for c in range(width))


def _tiling_mutants(rng: random.Random, squares: list[tuple[int, int, int]]) -> list[tuple[str, list[tuple[int, int, int]]]]:
    i = rng.randrange(len(squares))
    x, y, s = squares[i]
    rest = squares[:i] + squares[i + 1 :]
    dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
    return [
        ("drop a square", rest),
        ("shift a square", rest + [(x + dx, y + dy, s)]),
        ("grow a square", rest + [(x, y, s + 1)]),
        ("shrink a square", rest + [(x, y, s - 1)]),
        ("repeat a square", squares + [squares[i]]),
    ]


def tiling_answer(rng: random.Random, mutate: bool) -> Answer:
    free, squares = _tiling_base(rng)
    text = "\n".join("".join("." if cell else "#" for cell in row) for row in free)
    how, valid = "real answer", True
    if mutate:
        options = [(h, m) for h, m in _tiling_mutants(rng, squares) if not tiling_ok(free, m)]
        how, squares = options[0] if rng.random() < 0.4 else rng.choice(options)  # 'drop' first: the brief's case
        valid = False
    assert tiling_ok(free, squares) == valid
    rows = [{"X": x, "Y": y, "Size": s} for x, y, s in squares]
    solution: Any = {"id": "", "squares": rows} if rng.random() < 0.8 else rows
    return Answer(text, solution, _word(valid), how)


# ---------------------------------------------------------------------------- matchsticks


def matchsticks_ok(n: int, squares: list[tuple[int, int, int]]) -> bool:
    """One square of each size 1..n, all inside the largest (roam 0), largest at (0, 0)."""
    return sorted(s for s, _, _ in squares) == list(range(1, n + 1)) and all(0 <= x and 0 <= y and x + s <= n and y + s <= n for s, x, y in squares)


def matchsticks_answer(rng: random.Random, mutate: bool) -> Answer:
    n = rng.randint(1, 9)
    squares = [(n, 0, 0)] + [(s, rng.randint(0, n - s), rng.randint(0, n - s)) for s in range(1, n)]
    how, valid = "real answer", True
    if mutate:
        i = rng.randrange(n)
        s, x, y = squares[i]
        rest = squares[:i] + squares[i + 1 :]
        options = [
            ("drop a square", rest),
            ("repeat a square", squares + [squares[i]]),
            ("a size above n", rest + [(n + 1, 0, 0)]),
            ("a square outside the largest", rest + [(s, n - s + 1, y)] if s < n else rest + [(s, x, y), (1, -1, 0)]),
        ]
        options = [(h, m) for h, m in options if not matchsticks_ok(n, m)]
        how, squares = options[0] if rng.random() < 0.4 else rng.choice(options)
        valid = False
    assert matchsticks_ok(n, squares) == valid
    rng.shuffle(squares)
    if rng.random() < 0.3:
        solution: Any = " ".join(f"({s},{x},{y})" for s, x, y in squares)
    else:
        solution = {"roam": 0, "squares": [list(t) for t in squares]}
    return Answer(str(n), solution, _word(valid), how)


# ---------------------------------------------------------------------------- hexagon


@lru_cache(maxsize=None)
def hex_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours of each cell of the hexagon of side n, cells row by row (rows of
    n, n+1, ..., 2n-1, ..., n cells). In doubled coordinates a cell (row r, column i)
    sits at x = 2i + |r - (n-1)|; its neighbours are x +- 2 in its row, x +- 1 in the
    rows above and below."""
    where = {}
    for r in range(2 * n - 1):
        offset = abs(r - (n - 1))
        for i in range(2 * n - 1 - offset):
            where[r, 2 * i + offset] = len(where)
    result = []
    for (r, x), _ in sorted(where.items(), key=lambda kv: kv[1]):
        near = [(r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1)]
        result.append(tuple(where[p] for p in near if p in where))
    return tuple(result)


def hex_rows(n: int, values: list[int]) -> list[list[int]]:
    rows, k = [], 0
    for r in range(2 * n - 1):
        length = 2 * n - 1 - abs(r - (n - 1))
        rows.append(values[k : k + length])
        k += length
    return rows


def hex_ok(n: int, values: list[int]) -> bool:
    """Every cell holding k has each of 1..k-1 among its neighbours (values 1..7)."""
    near = hex_neighbours(n)
    for cell, value in enumerate(values):
        if not 1 <= value <= 7:
            return False
        seen = {values[j] for j in near[cell]}
        if any(k not in seen for k in range(1, value)):
            return False
    return True


def hexagon_answer(rng: random.Random, mutate: bool) -> Answer:
    n = rng.randint(2, 5)
    near = hex_neighbours(n)
    values = [1] * len(near)
    for _ in range(4 * len(values)):
        cell = rng.randrange(len(values))
        old, values[cell] = values[cell], rng.randint(2, 7)
        if not hex_ok(n, values):
            values[cell] = old
    how, valid = "real answer", True
    if mutate:
        for _ in range(200):
            cell = rng.randrange(len(values))
            lower = rng.random() < 0.25 and values[cell] > 1
            choices = range(1, values[cell]) if lower else range(values[cell] + 1, 8)
            broken = [v for v in choices if not hex_ok(n, values[:cell] + [v] + values[cell + 1 :])]
            if broken:
                values[cell] = rng.choice(broken)
                how, valid = ("lower a cell" if lower else "raise a cell"), False
                break
    assert hex_ok(n, values) == valid
    rows = hex_rows(n, values)
    if rng.random() < 0.2:
        return Answer(str(n), rows, _word(valid), how)
    return Answer(str(n), ", ".join("(" + ",".join(map(str, row)) + ")" for row in rows), _word(valid), how)


# ---------------------------------------------------------------------------- coins

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _legal(board: set, width: int, height: int, move: tuple[int, int, int, int]) -> bool:
    x1, y1, x2, y2 = move
    if (x1, y1) not in board or (x2, y2) in board or not (0 <= x2 < width and 0 <= y2 < height):
        return False
    rest = board - {(x1, y1)}
    return sum((x2 + dx, y2 + dy) in rest for dx, dy in _STEPS) >= 2


def coins_ok(width: int, height: int, start: set, target: set, moves: list) -> bool:
    """The moves replayed from `start`: each legal, the board equal to `target` at the end."""
    board = set(start)
    for move in moves:
        if not _legal(board, width, height, move):
            return False
        board = (board - {(move[0], move[1])}) | {(move[2], move[3])}
    return board == target


def _coins_walk(rng: random.Random) -> tuple[int, int, set, list]:
    while True:
        width, height = rng.randint(3, 6), rng.randint(3, 6)
        cells = [(x, y) for y in range(height) for x in range(width)]
        start = set(rng.sample(cells, rng.randint(3, min(9, len(cells) - 2))))
        board, moves = set(start), []
        for _ in range(rng.randint(1, 6)):
            legal = [(a, b, c, d) for a, b in sorted(board) for c, d in cells if _legal(board, width, height, (a, b, c, d))]
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            board = (board - {move[:2]}) | {move[2:]}
        if moves:
            return width, height, start, moves


def coins_answer(rng: random.Random, mutate: bool) -> Answer:
    width, height, start, moves = _coins_walk(rng)
    target = set(start)
    for move in moves:
        target = (target - {move[:2]}) | {move[2:]}

    def rows(board: set) -> str:
        return "\n".join("".join("o" if (x, y) in board else "-" for x in range(width)) for y in range(height))

    how, valid = "real answer", True
    if mutate:
        i = rng.randrange(len(moves))
        x1, y1, x2, y2 = moves[i]
        options = [
            ("drop the last move", moves[:-1]),
            ("drop a move", moves[:i] + moves[i + 1 :]),
            ("move to another cell", moves[:i] + [(x1, y1, (x2 + 1) % width, y2)] + moves[i + 1 :]),
            ("repeat a move", moves[: i + 1] + [moves[i]] + moves[i + 1 :]),
        ]
        options = [(h, m) for h, m in options if not coins_ok(width, height, start, target, m)]
        how, moves = options[0] if rng.random() < 0.5 else rng.choice(options)
        valid = False
    assert coins_ok(width, height, start, target, moves) == valid
    listed = [list(m) for m in moves]
    return Answer(rows(start) + "\n\n" + rows(target), {"moves": listed} if rng.random() < 0.2 else listed, _word(valid), how)


# ---------------------------------------------------------------------------- macmahon

MACMAHON_SMALL = ("2x3/free", "2x3/c2", "2x2/c2/free/tiles=WWWR,WWRR,WRWR,RRRR", "1x1/c1")


def _turned(edges: tuple[int, ...], turn: int) -> tuple[int, ...]:
    """Side s (top, right, bottom, left) of a piece turned `turn` steps clockwise."""
    return tuple(edges[(s - turn) % 4] for s in range(4))


def macmahon_grid_ok(spec: str, grid: Any) -> bool:
    """Rows x cols entries [piece, turn], each piece used as often as the instance has
    it, touching sides equal, the border (unless free) of the border colour."""
    from puzzlelab.puzzles.macmahon.model import parse_instance  # the instance's data only

    inst = parse_instance(spec)
    rows, cols = (int(v) for v in inst.board_name.split("x"))
    if not isinstance(grid, list) or len(grid) != rows or any(not isinstance(r, list) or len(r) != cols for r in grid):
        return False
    used = [0] * len(inst.tiles)
    side = {}
    for i, row in enumerate(grid):
        for j, entry in enumerate(row):
            if not isinstance(entry, list) or len(entry) != 2 or any(type(v) is not int for v in entry):
                return False
            piece, turn = entry
            if not (0 <= piece < len(inst.tiles) and 0 <= turn < 4):
                return False
            used[piece] += 1
            side[i, j] = _turned(tuple(inst.tiles[piece]), turn)
    if used != list(inst.counts):
        return False
    for (i, j), edges in side.items():
        if j + 1 < cols and edges[1] != side[i, j + 1][3] or i + 1 < rows and edges[2] != side[i + 1, j][0]:
            return False
        outside = [s for s, out in ((0, i == 0), (1, j == cols - 1), (2, i == rows - 1), (3, j == 0)) if out]
        if inst.border is not None and any(edges[s] != inst.border for s in outside):
            return False
    return True


@lru_cache(maxsize=None)
def macmahon_solutions(spec: str) -> tuple[str, ...]:
    """Every solution of a small instance (as JSON text), by plain backtracking in
    reading order; a piece's turns that look alike count once."""
    import json

    from puzzlelab.puzzles.macmahon.model import parse_instance

    inst = parse_instance(spec)
    rows, cols = (int(v) for v in inst.board_name.split("x"))
    turns = []
    for edges in inst.tiles:
        seen, kept = set(), []
        for t in range(4):
            if _turned(tuple(edges), t) not in seen:
                seen.add(_turned(tuple(edges), t))
                kept.append(t)
        turns.append(kept)
    left, found, grid = list(inst.counts), [], []

    def place(k: int) -> None:
        if k == rows * cols:
            found.append(json.dumps([grid[r * cols : (r + 1) * cols] for r in range(rows)]))
            return
        i, j = divmod(k, cols)
        for piece, count in enumerate(left):
            if not count:
                continue
            for t in turns[piece]:
                e = _turned(tuple(inst.tiles[piece]), t)
                if j and e[3] != _turned(tuple(inst.tiles[grid[k - 1][0]]), grid[k - 1][1])[1]:
                    continue
                if i and e[0] != _turned(tuple(inst.tiles[grid[k - cols][0]]), grid[k - cols][1])[2]:
                    continue
                outside = [s for s, out in ((0, i == 0), (1, j == cols - 1), (2, i == rows - 1), (3, j == 0)) if out]
                if inst.border is not None and any(e[s] != inst.border for s in outside):
                    continue
                left[piece] -= 1
                grid.append([piece, t])
                place(k + 1)
                grid.pop()
                left[piece] += 1

    place(0)
    return tuple(found)


def macmahon_answer(rng: random.Random, mutate: bool) -> Answer:
    import json

    spec = rng.choice([s for s in MACMAHON_SMALL if macmahon_solutions(s)])
    solutions = macmahon_solutions(spec)
    grid = json.loads(rng.choice(solutions))
    total = len(solutions)
    if rng.random() < 0.35:  # a count certificate
        delta = rng.choice([1, -1, total, -total, 10**12]) if mutate else 0
        complete = not (mutate and delta > 0 and rng.random() < 0.3)  # a lower bound above the truth is false too
        certificate = {"kind": "count", "total": total + delta, "complete": complete, "examples": [grid]}
        if delta == -total and complete is False:
            certificate["complete"] = True
        how = f"count certificate, total {'+' if delta > 0 else ''}{delta}" if mutate else "count certificate"
        # A true total proves nothing about what else the certificate needs: no expectation.
        return Answer(spec, certificate, "invalid" if mutate else "", how)
    how, valid = "real answer", True
    if mutate:
        cells = [(i, j) for i in range(len(grid)) for j in range(len(grid[0]))]
        for _ in range(50):
            (a, b), (c, d) = rng.sample(cells, 2) if len(cells) > 1 else (cells[0], cells[0])
            edited = json.loads(json.dumps(grid))
            if rng.random() < 0.7 and len(cells) > 1:
                edited[a][b], edited[c][d] = edited[c][d], edited[a][b]
                how = "swap two pieces"
            else:
                edited[a][b][1] = (edited[a][b][1] + rng.randint(1, 3)) % 4
                how = "turn a piece"
            if not macmahon_grid_ok(spec, edited):
                grid, valid = edited, False
                break
        else:
            return macmahon_answer(rng, mutate)
    assert macmahon_grid_ok(spec, grid) == valid
    return Answer(spec, {"grid": grid} if rng.random() < 0.2 else grid, _word(valid), how)


def _word(valid: bool) -> str:
    return "valid" if valid else "invalid"


ANSWERS = {
    "tiling": tiling_answer,
    "matchsticks": matchsticks_answer,
    "hexagon": hexagon_answer,
    "coins": coins_answer,
    "macmahon": macmahon_answer,
}
