"""Proofs that no grid of order n scores above R (`puzzlelab hexagon prove`).

In the order data flows:
- `prove.py`: the claim, the level and bound it reduces to, and the route (row DP or
  cubes).
- `cubes.py`: the formula and its cubes.
- `cube_checkpoint.py`: a cube proof's state on disk, so a proof of hours resumes.
- `refute.py`: refuting cubes (the worker tasks).
- `certify.py`: certified UNSAT answers, checked by `core/certificates`.
- `cover.py`: the check that the cubes cover every model of the formula.
- `cube_and_conquer.py`: the cube proof's driver: share cubes out, keep the score.
"""
