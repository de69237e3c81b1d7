"""Breadth-first search from one start over every ranked board (`bfs`, seed write-up
"Coin-sliding Font Puzzles"). A board's BFS depth is its level.

In the order data flows:
- `symmetry.py`: the board symmetries that fix a start (one board of each orbit kept).
- `byte_kernels.py`: the CPU kernels that grow the level array at one byte a board
  (push, pull, frontier bits, counts, the walk back along a path).
- `byte_array.py`: that array as its driver sees it (`CpuLevelKernels`).
- `byte_store.py`: where the byte array's bytes live (RAM, file) and reach their file.
- `byte_bfs.py`: the `bfs` method on the byte array.
- `two_bit.py`: the level array at two bits a board, for 5 x 9.
- `two_bit_orbits.py`: its level kernel over one board per orbit of the start's symmetries.
- `level_file.py`: one level's boards as sorted ranks, Elias-Fano coded on disk.
- `two_bit_budget.py`: what one two-bit start takes (memory, disk) and how it takes it.
- `two_bit_bfs.py`: the two-bit engine with its level files as checkpoints.
- `workdir.py`: the work folder of a run (made, refused, resumed).
- `engine.py`: which level array a BFS runs on, chosen where it runs.
"""
