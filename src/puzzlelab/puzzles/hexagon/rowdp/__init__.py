"""Row-by-row dynamic programming over level-k grids (seed write-up, "Other Programs"):
exact lowest penalties, counts and the grids themselves, without enumerating grids.

In the order data flows:
- `kernels.py`: the numba transfer step over one cell, the backward pass, the walk that
  lists grids.
- `compact.py`: the compact form of a min table: sorted keys in XOR-coded blocks, the
  penalty and the least penalty still to come in a byte each, and its lookup.
- `tables.py`: where the DP's tables live: memory, memory-mapped files, or a checkpoint
  folder a later run resumes from.
- `forms.py`: what the driver does alike with a wide or a compact table.
- `dp.py`: the DP driver (`count_levels`, `lowest_level_grids`).
- `count.py`: lowest penalties and optimal-grid counts per level (`hexagon count`).
- `row3.py`: the row3 store of partial solutions (seed write-up, "Storing Partial
  Solutions").
- `backtrack.py`: the `backtrack` method, on the DP's incremental penalty.
"""
