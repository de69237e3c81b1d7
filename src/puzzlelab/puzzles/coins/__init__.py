"""Coin-sliding font puzzles (Erik Demaine's 2,664 puzzles): fewest moves from one glyph
to another, by bidirectional BFS (`bidir`) or a ranked one-byte-a-board BFS (`bfs`).

Importing this package stays light (no numba): the methods import their kernels when
they run, so the CLI loads every puzzle quickly.
"""

from __future__ import annotations

from puzzlelab.puzzles.coins.puzzle import CoinsPuzzle

__all__ = ["PUZZLE", "CoinsPuzzle"]

PUZZLE = CoinsPuzzle()
