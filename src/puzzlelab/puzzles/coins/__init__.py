"""Coin-sliding font puzzles (Erik Demaine's 2,664 puzzles): fewest moves from one glyph
to another, by bidirectional BFS (`bidir`) or a BFS over every ranked board (`bfs`).

The face of the puzzle is at the top: `puzzle.py`, `methods.py`, `model.py` (boards,
glyphs, parsing), `verify.py` (replays moves), `reference.py` and `data/`, `render.py`,
`kernels.py` (move generation, shared by every search), `memory.py` (what a search may
take), `table.py` and `optimal_table.py` (the shipped table of optima), `batch.py`
(every puzzle of a font). The searches are two sub-packages: `bfs/` (one start, every
board: byte array, two-bit engine, level files) and `bidir/` (one puzzle, from both
ends).

Importing this package stays light (no numba): the methods import their kernels when
they run, so the CLI loads every puzzle quickly.
"""

from __future__ import annotations

from puzzlelab.puzzles.coins.puzzle import CoinsPuzzle

__all__ = ["PUZZLE", "CoinsPuzzle"]

PUZZLE = CoinsPuzzle()
