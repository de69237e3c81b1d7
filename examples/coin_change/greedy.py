"""`greedy`: take the largest coin that fits, again and again.

Fast and often right (always, for the euro's and the US dollar's coins) but not always:
for 11 with coins 1 5 6 9 it pays 9 + 1 + 1 where 5 + 6 will do, and for 6 with 4 3 it
pays 4 and then is stuck. So its answers are `feasible`, never `optimal`. Which coin
systems greedy solves is a classic question (D. Kozen and S. Zaks, "Optimal bounds for
the change-making problem", Theoretical Computer Science 123, 1994: a counterexample,
if any, is below the sum of the two largest coins).

The option shows how a method declares one (`methods.py`: `Option("largest_first",
"bool", True, ...)`): the CLI offers `--largest-first / --no-largest-first`, the service
and the page offer a checkbox, and the value arrives here as a keyword argument,
already checked and converted.
"""

from __future__ import annotations

from puzzlelab.core.result import Budget, ProgressFn, Result, Status

__all__ = ["run_greedy", "greedy_coins"]


def greedy_coins(coins: tuple[int, ...], target: int, largest_first: bool = True) -> list[int] | None:
    """The coins greedy pays with, or None when it gets stuck with a remainder."""
    paid, rest = [], target
    for c in sorted(coins, reverse=largest_first):
        count, rest = divmod(rest, c)
        paid.extend([c] * count)
    return None if rest else paid


def run_greedy(instance, *, budget: Budget, progress: ProgressFn, seed: int, largest_first: bool = True) -> Result:
    """One greedy pass; `unknown` when it is stuck (greedy proves nothing either way)."""
    coins, target = instance
    paid = greedy_coins(coins, target, largest_first)
    if paid is None:
        return Result(None, None, Status.UNKNOWN, "greedy", stats={"note": "greedy was left with a remainder no coin fits"})
    return Result(len(paid), paid, Status.FEASIBLE, "greedy")
