"""The independent checker of MacMahon solutions and counts. It imports no solver and
not the solvers' board tables.

In the order data flows:
- `rules.py`: the geometry and symmetries, rebuilt from coordinates.
- `claims.py`: a count certificate read into dataclasses (or `Malformed`).
- `recount.py`: the checker's own count, by plain backtracking in its own terms.
- `certificate.py`: each claim of a certificate checked, one verdict.
- `checker.py`: the entry points the Puzzle uses (`verify_solution`, `verify_count`).
"""
