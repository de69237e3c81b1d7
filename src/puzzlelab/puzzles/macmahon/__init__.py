"""MacMahon squares: edge-matching pieces generated for any colour count, exact
enumeration with symmetry classes, the write-up's MIP on HiGHS, CP-SAT as a peer, and
MacMahon's triangles on a hexagon through the same edge-matching core.

The independent checker is the sub-package `verify/` (rules, claims, recount,
certificate, checker); the solver side is `enumerator.py` with `kernels.py` and
`search.py`, `mip.py` and `cpsat.py` on `edge_model.py`, `brute.py`, and
`count_results.py` (their output as certified Results).
"""

from puzzlelab.puzzles.macmahon.puzzle import MacMahon

PUZZLE = MacMahon()

__all__ = ["PUZZLE", "MacMahon"]
