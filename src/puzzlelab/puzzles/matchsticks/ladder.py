"""The ladder shape of the large squares, with the small ones placed exactly: a start for
the record try that needs no long search.

Greedy's answers for n = 55 and 56 share one shape: the sizes from n down go in groups
of three sharing a top-left corner, four groups to a block at offsets (0, 0), (3, 0),
(0, 6) and (3, 6) from the block's corner (a, a), and the blocks step 12 down the main
diagonal ("triples"). Greedy's answer for n = 53 has the other shape here ("pairs"):
groups of two, nine groups to a block at x offsets 0, 2, 4 and y offsets 0, 6, 12,
blocks stepping 18; from it, with bands of 15 swept over it, n = 54 gave 1153, four
below the published 1157. The squares of a group share two sides' lines, the groups of a block share
most of the rest, and three of every four groups reach the right or the bottom side of
the largest square, so the shape draws its squares on few lines. `ladder_squares`
builds either shape for any n (`shape`), a block moved off the diagonal to the left
side or the top where asked (`sides`: greedy's n = 57 answer is pairs with its third
block on the left, and so, with sizes 12..1 exact, is the n = 54 record). `ladder_answer` places
the sizes at or below `tail` exactly given the shape (`band.improve_sizes`: every
placement of the tail searched), which for n = 54 gave 1156, one below the published
1157, and for n = 56 the 1216 found from greedy's answer.
"""

from __future__ import annotations

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.band import improve_sizes

__all__ = ["SHAPES", "Shape", "ladder_squares", "ladder_answer", "shape_family"]

# (sizes a group, the groups' offsets from the block's corner, the block's step down the diagonal)
Shape = tuple[int, tuple[tuple[int, int], ...], int]

# "triples" is greedy's shape at n = 55, 56; "pairs" its shape at n = 53 (and most of 57)
SHAPES: dict[str, Shape] = {
    "triples": (3, ((0, 0), (3, 0), (0, 6), (3, 6)), 12),
    "pairs": (2, ((0, 0), (2, 0), (4, 0), (0, 6), (2, 6), (4, 6), (0, 12), (2, 12), (4, 12)), 18),
}


def shape_family() -> list[Shape]:
    """Every ladder near greedy's two and the diagonal answers' one (3,645 shapes): g
    sizes a group (1..8), mx x my groups a block (4..24 sizes) at offsets (i dx, j dy)
    with dx within -1..+2 of g and dy within 2 of mx g, the step within 2 of the block's
    sizes, the groups taken row by row or transposed. Both `SHAPES` are in it, and so is
    the diagonal columns' shape (groups of 5 or 6 sharing a corner on the main diagonal,
    stepping 5 or 6: one group a block). `bench_matchsticks_ladders.py` tries each for
    n = 47..63."""
    family = []
    for group in range(1, 9):
        for mx in range(1, 4):
            for my in range(1, 4):
                sizes = group * mx * my
                if not 4 <= sizes <= 24:
                    continue
                for dx in range(max(1, group - 1), group + 3):
                    for dy in range(max(1, mx * group - 2), mx * group + 3):
                        rows = tuple((i * dx, j * dy) for j in range(my) for i in range(mx))
                        for step in range(sizes - 2, sizes + 3):
                            family.append((group, rows, step))
                            family.append((group, tuple((y, x) for x, y in rows), step))
    return list(dict.fromkeys(family))  # a single row or column of groups repeats itself


def ladder_squares(n: int, tail: int, shape: str | Shape = "triples", sides: str = "") -> list[list[int]]:
    """Sizes n down to tail + 1 in the ladder shape (a name in `SHAPES`, or a `Shape`),
    then sizes tail..1 at (0, 0) (a placeholder for `ladder_answer` to place).

    Block k's corner is (a, a), a = k * step, unless `sides[k]` moves it to the left
    side, "l": (0, a), or to the top, "t": (a, 0) ("d", or no letter: the diagonal).
    Greedy's n = 57 answer and the n = 54 record hold their third block of pairs at
    (0, 36): `sides="ddl"`."""
    if not 0 <= tail < n:
        raise ValueError(f"tail: expected 0 <= tail < n = {n}, got {tail}")
    if isinstance(shape, str) and shape not in SHAPES:
        raise ValueError(f"shape: expected one of {', '.join(SHAPES)}, got {shape!r}")
    if set(sides) - set("dlt"):
        raise ValueError(f"sides: expected letters d, l, t, got {sides!r}")
    group, offsets, step = SHAPES[shape] if isinstance(shape, str) else shape
    squares = []
    for i, size in enumerate(range(n, tail, -1)):
        block, within = divmod(i, len(offsets) * group)
        ox, oy = offsets[within // group]
        a = block * step
        side = sides[block] if block < len(sides) else "d"
        bx, by = {"d": (a, a), "l": (0, a), "t": (a, 0)}[side]
        # a square that would leave the area goes to the corner it can reach
        x, y = min(bx + ox, n - size), min(by + oy, n - size)
        squares.append([size, x, y])
    return squares + [[size, 0, 0] for size in range(tail, 0, -1)]


def ladder_answer(n: int, tail: int, shape: str | Shape = "triples", budget: Budget | None = None, sides: str = "") -> tuple[list[list[int]], bool]:
    """(squares, complete): the ladder shape (`ladder_squares`) with sizes tail..1 placed
    for the fewest matches given it; `complete` is False when the budget stopped the
    tail's search (the best placement found is kept)."""
    squares = ladder_squares(n, tail, shape, sides)
    outcome = improve_sizes(squares, n, range(1, tail + 1), budget)
    return (outcome.squares if outcome.squares is not None else squares), outcome.complete
