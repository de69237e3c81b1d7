"""puzzlelab: a workbench for combinatorial puzzle records."""

__version__ = "0.1.0"
