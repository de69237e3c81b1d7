"""The SAT-based searches for good grids (seed write-up, "Satisfiability Solvers").

In the order data flows:
- `summary.py`: the `sat` search's options and summary, typed.
- `search.py`: the `sat` method: tighten the penalty bound until UNSAT.
- `portfolio.py`: the `portfolio` method: several `sat` settings in worker processes.
- `improve.py`: the `improve` method: blank a region of a grid and re-solve it.
- `batch.py`: SAT settings over several orders at once (`hexagon batch`).
"""
