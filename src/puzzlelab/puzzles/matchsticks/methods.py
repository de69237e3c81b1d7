"""The matchsticks methods: names, summaries, options, and their run functions as lazy
`"module:function"` references, so that loading the puzzle imports no search module
and no numba kernel until a method runs. Options that name a file or a machine of the
one who runs the search (the checkpoint of `full` and `greedy`, backend, address) are `local_only`: the
REST service refuses them from a client."""

from __future__ import annotations

from puzzlelab.core.puzzle import Method, Option
from puzzlelab.puzzles.matchsticks.options import BOUND, CHECKPOINT, COUNT, FREE_BELOW, ROAM, SUBTREES, WORKERS

__all__ = ["METHODS"]

METHODS: tuple[Method, ...] = (
    Method(
        "auto",
        "bounds (diagonal, greedy), then the exhaustive search within the budget",
        "puzzlelab.puzzles.matchsticks.auto:run_auto",
        options=(ROAM, WORKERS),
        exact=True,
    ),
    Method(
        "full",
        "exhaustive search from the best bound; proves optimality, can count optimal solutions, split/resume",
        "puzzlelab.puzzles.matchsticks.full:run_full",
        options=(
            Option("max_added", "bool", False, "each size-t square adds at most 2t matches (restricted, not a proof)"),
            COUNT,
            Option("bound", "int", None, "search only answers of at most this many matches (skips the bound methods)", minimum=0),
            WORKERS,
            SUBTREES,
            CHECKPOINT,
            ROAM,
            Option(
                "backend", "str", "local", "where subtrees run: local worker processes or a ray cluster", choices=("local", "ray"), local_only=True
            ),
            Option("address", "str", None, "ray cluster address (backend ray)", local_only=True),
            Option(
                "start",
                "str",
                "published",
                "where the search starts: below the published best value with the best shipped answer in hand, "
                "or from the bound methods' answer (diagonal, greedy) as before",
                choices=("published", "bounds"),
            ),
        ),
        exact=True,
    ),
    Method(
        "free",
        "proves the optimum with the squares anywhere, not only inside the largest one (n <= 20: the span floors)",
        "puzzlelab.puzzles.matchsticks.free:run_free",
        options=(WORKERS, SUBTREES, CHECKPOINT),
        exact=True,
    ),
    Method(
        "diagonal",
        "fast bound: squares of size >= free_below on the main diagonal (exact optimum of that restricted search)",
        "puzzlelab.puzzles.matchsticks.diagonal:run_diagonal",
        options=(FREE_BELOW, BOUND, COUNT, ROAM, WORKERS),
    ),
    Method(
        "greedy",
        "bound: each size only where it adds the fewest matches, all ties tried (exact optimum of that search)",
        "puzzlelab.puzzles.matchsticks.greedy:run_greedy",
        options=(
            Option("slack", "int", 0, "also try placements adding up to this many matches more than the cheapest", minimum=0, maximum=16),
            BOUND,
            COUNT,
            ROAM,
            WORKERS,
            SUBTREES,
            CHECKPOINT,
        ),
    ),
)
