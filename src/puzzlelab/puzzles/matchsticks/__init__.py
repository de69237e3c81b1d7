"""Matchstick squares (OEIS A294249): the fewest matchsticks forming squares of every
size 1x1 .. nxn at once. See `puzzle.py` for the Puzzle object and its methods."""

from puzzlelab.puzzles.matchsticks.puzzle import PUZZLE, MatchsticksPuzzle

__all__ = ["PUZZLE", "MatchsticksPuzzle"]
