"""The `puzzlelab hexagon level N` verb: one level question (puzzles/hexagon/
levels/question.py) answered by the level solver of your choice: beam, sat, dlx
(dancing links) or ilp (HiGHS); docs/hexagon.md, "Level solvers".

  level N --levels 1-2 --method dlx              least level-2 penalty from nothing
  level N --levels 3-4 --base FILE --method ilp  place 3s and 4s on a level-2 grid
  level N --levels 1 --count 0                   count the penalty-free level grids (DLX)

The grid printed is a level grid (K+1 = "more than K"), checked by the verifier's rule
check and rescored before it is printed.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Optional

import typer

from puzzlelab.cli.errors import EXIT_NO_ANSWER, fail, user_errors
from puzzlelab.core.inputs import read_text_file
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Budget

__all__ = ["level"]


def _base(path: str | None, n: int):
    """The base grid's cell values from a submission-text file (None without one)."""
    from puzzlelab.puzzles.hexagon.model import grid_values, parse_grids

    if path is None:
        return None
    grids = parse_grids(read_text_file(path, "base file"))
    if len(grids) != 1:
        raise InvalidInstance(f"base: expected one grid in {path}, got {len(grids)}", "base")
    return grid_values(grids[0], n, "base ")[1]


def level(
    n: Annotated[int, typer.Argument(help="Order of the hexagon.")],
    levels: Annotated[str, typer.Option(help="The levels to place: 1, 1-2, 3, 3-4 (any a-b within 1..4).")] = "1",
    method: Annotated[str, typer.Option(help="beam, sat, dlx or ilp.")] = "sat",
    base: Annotated[Optional[str], typer.Option(help="Level grid (or whole grid) to start from, for levels above 1: submission text.")] = None,
    budget: Annotated[float, typer.Option(help="Seconds allowed.")] = 60.0,
    count: Annotated[Optional[int], typer.Option(help="Count the grids with at most this many new penalty edges (dancing links) instead.")] = None,
    width: Annotated[int, typer.Option(help="beam: states kept per step.")] = 2000,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Answer one level question: the least level penalty (proven by sat, dlx and ilp),
    or with --count the number of level grids within a penalty.

    Example: puzzlelab hexagon level 5 --levels 1 --method dlx
    """
    from puzzlelab.puzzles.hexagon.levels.question import level_question
    from puzzlelab.puzzles.hexagon.levels.solvers import LEVEL_METHODS

    with user_errors():
        if budget != budget or budget <= 0:
            raise InvalidInstance(f"budget: expected a positive number of seconds, got {budget}", "budget")
        if method not in LEVEL_METHODS:
            raise InvalidInstance(f"method: expected one of {', '.join(LEVEL_METHODS)}, got {method[:20]!r}", "method")
        if count is not None and not 0 <= count <= 50:
            raise InvalidInstance(f"count: expected a penalty allowance 0..50, got {count}", "count")
        if not 1 <= width <= 10_000_000:
            raise InvalidInstance(f"width: expected 1..10000000, got {width}", "width")
        if not 1 <= n <= 60:
            raise InvalidInstance(f"n: expected an order between 1 and 60 for a level question, got {n}", "n")
        question = level_question(n, levels, _base(base, n))
    run_budget = Budget(None if math.isinf(budget) else budget)
    if count is not None:
        _count(question, count, run_budget, as_json)
        return
    _solve(question, method, run_budget, width, as_json)


def _count(question, allowance: int, budget: Budget, as_json: bool) -> None:
    from puzzlelab.puzzles.hexagon.levels.solvers import count_level

    total = count_level(question, allowance, budget)
    if total is None:
        fail("out of time before every grid was counted (raise --budget)", EXIT_NO_ANSWER)
    bound = question.base_penalty() + allowance
    if as_json:
        typer.echo(json.dumps({"n": question.n, "levels": question.label(), "max_penalty": bound, "count": total}))
    else:
        typer.echo(f"n={question.n} levels {question.label()}: {total} level grids with penalty <= {bound} (dancing links)")


def _solve(question, method: str, budget: Budget, width: int, as_json: bool) -> None:
    from puzzlelab.puzzles.hexagon.levels.solvers import solve_level
    from puzzlelab.puzzles.hexagon.model import format_grid

    answer = solve_level(question, method, budget, **({"width": width} if method == "beam" else {}))
    text = None if answer.grid is None else format_grid(question.n, answer.grid)
    if as_json:
        keys = ("method", "penalty", "proven", "lower", "seconds")
        typer.echo(json.dumps({"n": question.n, "levels": question.label(), **{k: getattr(answer, k) for k in keys}, "grid": text}))
    else:
        claim = "least, proven" if answer.proven else f"not proven; lower bound {answer.lower}"
        typer.echo(f"n={question.n} levels {question.label()} by {method}: penalty {answer.penalty} ({claim}), {answer.seconds:.2f} s")
        if text is not None:
            typer.echo(text)
    if answer.grid is None:
        raise typer.Exit(EXIT_NO_ANSWER)
