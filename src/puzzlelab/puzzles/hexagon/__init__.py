"""Hexagonal neighbours: Al Zimmermann's contest puzzle (2018-2019).

A hexagon of order n has 3n(n-1)+1 cells; fill them with positive integers so that a
cell holding k has each of 1..k-1 among its neighbours; maximise the sum. The methods
follow a competitor's write-up of the contest: penalty-edge SAT with ring restrictions,
levels, beam search, region re-solving, a portfolio, row-by-row DP and proofs.

The face of the puzzle is at the top: `puzzle.py` (the Puzzle object), `methods.py`,
`model.py` (cells, neighbours, the submission text), `scoring.py` (penalty edges and
bounds), `symmetry.py`, `verify.py` (the independent checker), `reference.py` and
`data/` (published tables), `render.py`, `results.py`, `auto.py`, `worker.py`,
`fields.py`. Each family of methods is a sub-package: `cnf/` (the encoding and the
solver it runs on), `sat/` (sat, portfolio, improve, batches), `beam/`, `completion/`
(from a level grid to a whole one), `levels/` (level questions), `rowdp/` (the row DP,
counts, row3, backtracking) and `proof/` (`hexagon prove`).
"""

from puzzlelab.puzzles.hexagon.puzzle import HexagonPuzzle

PUZZLE = HexagonPuzzle()

__all__ = ["PUZZLE", "HexagonPuzzle"]
