"""Shared by all puzzles; knows no puzzle (docs/architecture.md, "Layout"): the contract
(`puzzle.py`, `result.py`, `errors.py`), the door every input comes through
(`inputs.py`), the records store, worker processes and Ray (`parallel/`), the
certificate checkers (`certificates/`), and numba helpers."""
