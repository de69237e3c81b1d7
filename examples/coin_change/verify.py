"""The independent checker: recompute the value from the solution alone.

`Puzzle.solve` calls it on every answer before the answer leaves the solver, the
records store and the service call it again, and `puzzlelab coin_change verify` calls
it on a file a person wrote. So it trusts nothing a solver says and imports no solver
module (`.importlinter` checks that for the real puzzles): a bug shared by a solver and
its checker would otherwise pass unseen. Keep it short enough to check by eye.
"""

from __future__ import annotations

from typing import Any

from coin_change.model import Change, parse_solution
from puzzlelab.core.inputs import shown
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Verdict

__all__ = ["check"]


def check(instance: Change, solution: Any) -> Verdict:
    """Valid when every coin is one of the instance's denominations and they sum to the
    target; the value is the number of coins."""
    try:
        coins = parse_solution(solution)
    except InvalidInstance as exc:
        return Verdict(False, None, str(exc))
    denominations, target = instance  # a Change unpacks like the tuple it is
    strangers = sorted({c for c in coins if c not in denominations})
    if strangers:
        named = ", ".join(shown(c) for c in strangers[:5]) + (", ..." if len(strangers) > 5 else "")
        return Verdict(False, None, f"coins [{named}] are not denominations of this instance ({list(denominations)})")
    total = sum(coins)
    if total != target:
        return Verdict(False, len(coins), f"coins sum to {total}, not {target}", figures={"sum": total})
    return Verdict(True, len(coins), f"{len(coins)} coins sum to {target}", figures={"sum": total})
