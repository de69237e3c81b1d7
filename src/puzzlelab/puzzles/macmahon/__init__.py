"""MacMahon squares (issue 7): edge-matching pieces generated for any colour count,
exact enumeration with symmetry classes, the write-up's MIP on HiGHS, CP-SAT as a peer,
and MacMahon's triangles on a hexagon through the same edge-matching core."""

from puzzlelab.puzzles.macmahon.puzzle import MacMahon

PUZZLE = MacMahon()

__all__ = ["PUZZLE", "MacMahon"]
