"""Square tiling: cover the free cells of a grid with the fewest integer squares.

The system of the seed write-up "Hybrid Minimal Square Tiling Problem Solver" (winner
of the Cimpress Tech Challenge 2, 2015): an exact column DP for short sides up to 15
(and beyond, as memory allows), a margin-limited heuristic version of it for any grid,
stripe re-solving, and a parallel portfolio over the eight orientations; plus a CP-SAT
set-partition model that proves the optima of the contest puzzles.
"""

from puzzlelab.puzzles.tiling.puzzle import TilingPuzzle

PUZZLE = TilingPuzzle()

__all__ = ["PUZZLE", "TilingPuzzle"]
