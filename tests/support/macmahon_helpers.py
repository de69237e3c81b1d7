"""Shared helpers of the MacMahon tests: random solvable instances (built from a random
edge colouring of the board, so at least one solution exists) and the set of solutions
of a listing as side-colour tuples."""

from __future__ import annotations

import random

from puzzlelab.puzzles.macmahon.boards import board
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.tiles import DEFAULT_COLOURS, canonical


def random_solvable(board_name: str, colours: int, border: int | None, seed: int):
    """An instance whose pieces are cut from a random colouring of the board's edges."""
    rng = random.Random(seed)
    geometry = board(board_name)
    k = geometry.sides
    colour = {}
    for cell in range(geometry.cells):
        for s in range(k):
            flat = cell * k + s
            nb = int(geometry.neighbour[cell, s])
            if flat in colour:
                continue
            if nb < 0:
                colour[flat] = border if border is not None else rng.randrange(colours)
            else:
                colour[flat] = colour[nb] = rng.randrange(colours)
    letters = "".join(n[0].upper() for n in DEFAULT_COLOURS)
    names = []
    for cell in range(geometry.cells):
        edges = canonical(tuple(colour[cell * k + s] for s in range(k)))
        names.append("".join(letters[c] for c in edges))
    border_text = "free" if border is None else f"border={DEFAULT_COLOURS[border]}"
    return parse_instance(f"{board_name}/c{colours}/{border_text}/tiles={','.join(names)}")
