"""How a long matchsticks search is cut and kept (shared by `full` and `greedy`): the
checks made before any search starts, the default number of subtrees, and the
checkpoint errors reported as the option they came from."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.checkpoint import Checkpoint
from puzzlelab.puzzles.matchsticks.limits import format_bytes, memory_allowed, prefix_bytes

__all__ = ["check_search_plan", "default_subtrees"]


def check_search_plan(base: dict[str, Any], checkpoint: str | None, subtrees: int, budget: Budget) -> None:
    """Before any search: the checkpoint file is this search's (or absent, in a
    writable place), and the subtrees asked for fit the memory allowed."""
    try:
        Checkpoint(checkpoint, base).check()
    except ValueError as exc:
        raise InvalidInstance(f"option --checkpoint: {exc}", field="checkpoint") from None
    need, allowed = subtrees * prefix_bytes(3), memory_allowed(budget)
    if need > allowed:
        raise InvalidInstance(
            f"option --subtrees: {subtrees} subtrees need at least {format_bytes(need)} to plan, more than the "
            f"{format_bytes(allowed)} allowed; ask for fewer (0: automatic)",
            field="subtrees",
            status=413,
        )


def default_subtrees(n: int, workers: int, checkpoint: str | None) -> int:
    """Subtrees to cut when none are asked for. 128 a worker: n = 28 on 2 workers took
    20.1-20.5 s wall with 16 a worker, 18.4 s with 128 and 18.3 s with 512
    (bench_matchsticks_proofs.py --n 28 --subtrees K): a few large subtrees leave one
    worker idle at the end. One worker cuts 256 with a checkpoint (each finished one is
    kept), else 32 from n = 20 (so progress is reported), else none."""
    if workers > 1:
        return 128 * workers
    return 256 if checkpoint else (32 if n >= 20 else 0)
