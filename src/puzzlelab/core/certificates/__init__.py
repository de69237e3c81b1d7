"""Checkers of UNSAT certificates: a SAT solver's "no model" is trusted only when a
certificate of it passes a checker that shares no code with any solver.

In the order data flows:
- `verdict.py`: what every checker answers (the verdict, the progress of a feed) and the
  buffer-growing helper the checkers' stores share.
- `drat_kernels.py`, `drat_store.py`, `drat.py`: the DRAT checker (RUP and RAT steps),
  fed a proof piece by piece.
- `lrat_kernels.py`, `lrat.py`: the LRAT checker (hinted steps, linear time).
"""
