"""From a partial grid to a whole one (seed write-up, "Level by Level").

- `linear.py`: the 5s and 6s in linear time once the 1s..4s are placed (paths and
  cycles of the cells holding 5 or more).
- `from_level.py`: the best whole grid extending a level-k grid (levels k+1..4 by SAT,
  then `linear.py`).
"""
