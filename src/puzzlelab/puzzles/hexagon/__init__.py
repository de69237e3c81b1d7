"""Hexagonal neighbours: Al Zimmermann's contest puzzle (2018-2019).

A hexagon of order n has 3n(n-1)+1 cells; fill them with positive integers so that a
cell holding k has each of 1..k-1 among its neighbours; maximise the sum. Methods follow
a competitor's write-up (shared/seeds): penalty-edge SAT with ring restrictions, levels,
beam search, region re-solving, a portfolio, and solution counts.
"""

from puzzlelab.puzzles.hexagon.puzzle import HexagonPuzzle

PUZZLE = HexagonPuzzle()

__all__ = ["PUZZLE", "HexagonPuzzle"]
