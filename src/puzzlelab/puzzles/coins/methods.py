"""The coins methods: names, options and their run functions as lazy references, so
loading the registry imports no numba kernel (the functions live in table.py, bidir/search.py
and bfs/byte_bfs.py). `table`, the default, answers from the shipped table of optima and falls
back to `bidir` (with bidir's options) for any puzzle the table lacks.

Options that name a folder of the machine running the search, or leave files there
(`workdir`, `keep`), are `local_only`: the REST service refuses them from a client."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option

__all__ = ["METHODS"]

BIDIR_OPTIONS = (
    Option("memory_mb", "int", 2048, "memory bound in MB (at most the memory available); beyond it the search stops with a proven lower bound", minimum=16,
           resource="memory", unit_bytes=2**20),
    Option("dedup", "str", "auto", "duplicate detection: hash table, or two bits a ranked board", choices=("auto", "hash", "bits")),
    Option("threads", "int", 1, "threads expanding each level of the hash-table search (0: every core this process may use)", minimum=0, maximum=64,
           resource="processes"),
)

METHODS: tuple[Method, ...] = (
    Method(
        "table",
        "the shipped table of font5x7 optima, proven by this project's full BFS and replayed before it is served; "
        "any puzzle the table lacks goes to bidir (optimal)",
        "puzzlelab.puzzles.coins.table:run_table",
        BIDIR_OPTIONS,
        exact=True,
    ),
    Method(
        "bidir",
        "bidirectional BFS, forward from the start and backward from the target, smaller frontier first (optimal)",
        "puzzlelab.puzzles.coins.bidir.search:run_bidir",
        BIDIR_OPTIONS,
        exact=True,
    ),
    Method(
        "bfs",
        "BFS from the start over all C(cells, coins) ranked boards, one byte each in a file-backed array (optimal)",
        "puzzlelab.puzzles.coins.bfs.byte_bfs:run_bfs",
        (
            Option("workdir", "str", "", "folder for the level array and its checkpoint (default: a temporary folder)", local_only=True),
            Option("max_memory_gb", "float", 0.0, "refuse when the array needs more (default, and at most: the memory available)", minimum=0,
                   resource="memory", unit_bytes=1e9),
            Option("keep", "bool", False, "keep the level array after the run (to resume or to reuse)", local_only=True),
            Option("threads", "int", 0, "threads expanding each level (0: every core this process may use)", minimum=0, maximum=1024,
                   resource="processes"),
        ),
        exact=True,
    ),
)
