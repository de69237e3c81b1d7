"""Options and checks shared by the methods (`methods.py` declares them; the run
functions check them). Light: nothing here imports a search module."""

from __future__ import annotations

from puzzlelab.core.puzzle import InvalidInstance, Option
from puzzlelab.puzzles.matchsticks.limits import prefix_bytes
from puzzlelab.puzzles.matchsticks.model import MAX_AREA, Instance

__all__ = ["ROAM", "COUNT", "WORKERS", "BOUND", "FREE_BELOW", "SUBTREES", "CHECKPOINT", "check_roam", "limit_from"]

ROAM = Option(
    "roam",
    "int",
    0,
    "let the smaller squares leave the largest one by up to this many units on every side (needs n + 2*roam <= 63)",
    minimum=0,
    maximum=31,
)
COUNT = Option(
    "count_solutions",
    "bool",
    False,
    "also count the optimal solutions of the search, up to the symmetry it breaks (stats.optimal_solutions)",
)
WORKERS = Option(
    "workers", "int", 1, "worker processes sharing the subtrees (core.parallel)", minimum=1, maximum=256, resource="processes"
)
SUBTREES = Option(
    "subtrees",
    "int",
    0,
    "cut the search into at least this many subtrees (0: automatic)",
    minimum=0,
    maximum=10_000_000,
    resource="memory",
    unit_bytes=prefix_bytes(3),  # as plan.check_search_plan counts a planned subtree
)
CHECKPOINT = Option(
    "checkpoint", "str", None, "JSON file recording finished subtrees; an interrupted run resumes from it", local_only=True
)
BOUND = Option("bound", "int", None, "search only answers of at most this many matches", minimum=0)
FREE_BELOW = Option(
    "free_below",
    "int",
    20,
    "sizes below k may go anywhere; sizes k and up sit on the main diagonal (1: all of them)",
    minimum=0,
    maximum=64,
)


def check_roam(instance: Instance, roam: int) -> None:
    if instance.n + 2 * roam > MAX_AREA:
        raise InvalidInstance(
            f"option --roam: n + 2*roam must be at most {MAX_AREA} (one 64-bit word per row); "
            f"n = {instance.n} allows roam <= {(MAX_AREA - instance.n) // 2}, got {roam}",
            field="roam",
        )


def limit_from(bound: int | None) -> int | None:
    """The kernel's strict bound for 'answers of at most `bound` matches'."""
    return None if bound is None else int(bound) + 1
