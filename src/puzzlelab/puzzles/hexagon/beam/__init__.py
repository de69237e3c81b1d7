"""Beam search over the cells in clock or spiral order (seed write-up, "Algorithms").

In the order data flows:
- `search.py`: the `beam` method: the plan (cell order, width), the memory check, the
  driver and the completion of the best partial grids.
- `kernels.py`: the numba kernel that extends a pool of frontiers one cell at a time.
"""
