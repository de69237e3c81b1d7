"""Extra CLI verbs of the hexagon puzzle (typer-compatible functions; the CLI adds
them under `puzzlelab hexagon`):

  count N [--levels 1..6]    lowest penalty and number of optimal grids per level
  score FILE                 check every grid of a submission (grids split by ';')
  table [--orders 3..8]      lowest penalties through levels 1, 2, 3, 4+ beside the
                             published ones (SAT, proven)
  batch [--orders 3..16]     SAT settings (published / portfolio / unrestricted) for
                             several orders in worker processes or on a Ray cluster
                             (--backend local|ray, --address); verified, stored
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from puzzlelab.core.puzzle import InvalidInstance, parse_range
from puzzlelab.core.result import Budget

EXIT_OK, EXIT_NO_ANSWER, EXIT_BAD_INPUT = 0, 1, 2


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def count(
    n: Annotated[int, typer.Argument(help="Order of the hexagon (small: 3..6).")],
    levels: Annotated[str, typer.Option(help="Levels to count, e.g. 1..6 or 3,4.")] = "1..6",
    budget: Annotated[float, typer.Option(help="Seconds allowed in all.")] = 600.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Lowest penalty at each level and how many level grids reach it (no symmetry
    factored out; level 6 = whole solutions).

    Example: puzzlelab hexagon count 4
    """
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.count import BudgetExceeded, count_solutions, level_minimum
    from puzzlelab.puzzles.hexagon.model import HexInstance, format_grid

    try:
        wanted = parse_range(levels, "levels")
        if not 1 <= n <= 12:
            raise InvalidInstance("n: counting is for small orders, 1..12", "n")
        if any(not 1 <= k <= 6 for k in wanted):
            raise InvalidInstance("levels: expected levels between 1 and 6", "levels")
        run_budget = Budget(budget)
        # The optimum itself is checked by the independent verifier first.
        from puzzlelab.puzzles.hexagon.completion import split_sixes
        from puzzlelab.puzzles.hexagon.model import hexagon

        _, grid = level_minimum(n, 5, budget=run_budget)
        full = split_sixes(hexagon(n), grid)
        verdict = PUZZLE.verify(HexInstance(n), format_grid(n, full))
        if not verdict.ok:
            _fail(f"internal error: optimum rejected by the checker: {verdict.message}", 3)

        def show(level: int, minimum: int, total: int, seconds: float) -> None:
            if not as_json:
                typer.echo(f"n={n} level {level}: lowest penalty {minimum}, {total} grids  ({seconds:.2f} s)")

        counts = count_solutions(n, wanted, budget=run_budget, on_level=show)
    except InvalidInstance as exc:
        _fail(str(exc))
    except BudgetExceeded as exc:
        _fail(f"{exc} (raise --budget)", EXIT_NO_ANSWER)
    if as_json:
        typer.echo(json.dumps({"n": n, "levels": {str(k): {"penalty": p, "count": c} for k, (p, c) in counts.items()}}))


def score(
    file: Annotated[str, typer.Argument(help="Submission file (grids separated by ';'), or - for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check every grid of a submission and print its order, raw score and penalty
    beside the published best.

    Example: puzzlelab hexagon score submission.txt
    """
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.model import HexInstance, grid_values, parse_grids

    text = sys.stdin.read() if file == "-" else (Path(file).read_text() if Path(file).is_file() else None)
    if text is None:
        _fail(f"submission file {file}: no such file")
    try:
        grids = parse_grids(text)
        rows = []
        bad = 0
        for g, grid in enumerate(grids, start=1):
            where = f"grid {g}, " if len(grids) > 1 else ""
            n, values = grid_values(grid, where=where)
            verdict = PUZZLE.verify(HexInstance(n), [list(r) for r in grid])
            published = PUZZLE.published(str(n)) or {}
            rows.append({"grid": g, "n": n, "ok": verdict.ok, "raw": verdict.value, "penalty": verdict.figures.get("penalty"), "published": published.get("value"), "message": verdict.message})
            bad += not verdict.ok
    except InvalidInstance as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(rows))
    else:
        for row in rows:
            status = "valid" if row["ok"] else "INVALID"
            pub = "" if row["published"] is None else f"  published best {row['published']}"
            typer.echo(f"grid {row['grid']} n={row['n']}: {status}  raw {row['raw']}  penalty {row['penalty']}{pub}  {'' if row['ok'] else row['message']}")
    raise typer.Exit(EXIT_OK if not bad else EXIT_NO_ANSWER)


def table(
    orders: Annotated[str, typer.Option(help="Orders, e.g. 3..8.")] = "3..6",
    budget: Annotated[float, typer.Option(help="Seconds allowed per order and level.")] = 120.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Lowest penalties through levels 1, 2, 3 and 4+ (proven by SAT) beside the
    published table.

    Example: puzzlelab hexagon table --orders 3..6
    """
    from puzzlelab.puzzles.hexagon.count import BudgetExceeded, level_minimum
    from puzzlelab.puzzles.hexagon.puzzle import level_table

    try:
        ns = parse_range(orders, "orders")
    except InvalidInstance as exc:
        _fail(str(exc))
    out = []
    for n in ns:
        row = {"n": n}
        for column, level in (("level1", 1), ("level2", 2), ("level3", 3), ("level4_5_6", 5)):
            try:
                row[column], _ = level_minimum(n, level, budget=Budget(budget))
            except BudgetExceeded:
                row[column] = None
        row["published"] = level_table().get(n)
        out.append(row)
        if not as_json:
            ours = " ".join("?" if row[c] is None else str(row[c]) for c in ("level1", "level2", "level3", "level4_5_6"))
            typer.echo(f"n={n}: {ours}   published {' '.join(map(str, row['published'] or ()))}")
    if as_json:
        typer.echo(json.dumps(out))


def batch(
    orders: Annotated[str, typer.Option(help="Orders, e.g. 3..16 or 7,9,11.")] = "3..9",
    settings: Annotated[str, typer.Option(help="published (the record's arguments), portfolio (the recipe around them), unrestricted.")] = "published",
    budget: Annotated[float, typer.Option(help="Seconds for the whole batch.")] = 300.0,
    workers: Annotated[int, typer.Option(help="Worker processes (0 = PUZZLELAB_WORKERS or the CPU count).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the SAT solvers' clause order.")] = 0,
    stop_at_record: Annotated[bool, typer.Option(help="Stop an order once it reaches the published score.")] = True,
    backend: Annotated[str, typer.Option(help="local (worker processes) or ray (a Ray cluster).")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: env RAY_ADDRESS).")] = None,
    store: Annotated[bool, typer.Option(help="Keep every verified grid in the records store.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON lines, one per order.")] = False,
) -> None:
    """Run SAT settings for several orders at once; print each order's best verified
    score beside the published one as soon as it is settled.

    Example: puzzlelab hexagon batch --orders 7..12 --settings published --budget 120
    """
    from puzzlelab.core.parallel import BACKENDS
    from puzzlelab.core.store import Store
    from puzzlelab.puzzles.hexagon import PUZZLE
    from puzzlelab.puzzles.hexagon.batch import SETTINGS, row_json, run_batch
    from puzzlelab.puzzles.hexagon.model import MAX_ORDER

    try:
        ns = parse_range(orders, "orders")
        if not ns or any(not 1 <= n <= MAX_ORDER for n in ns):
            raise InvalidInstance(f"orders: expected orders between 1 and {MAX_ORDER}", "orders")
        if settings not in SETTINGS:
            raise InvalidInstance(f"settings: expected one of {', '.join(SETTINGS)}, got {settings!r}", "settings")
        if backend not in BACKENDS:
            raise InvalidInstance(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}", "backend")
        if budget <= 0:
            raise InvalidInstance(f"budget: expected a positive number of seconds, got {budget}", "budget")
    except InvalidInstance as exc:
        _fail(str(exc))
    address = address or os.environ.get("RAY_ADDRESS")
    missed = 0

    def show(row) -> None:
        nonlocal missed
        result = row["result"]
        if store and result.verified:
            Store().add(PUZZLE.name, str(row["n"]), result, PUZZLE.sense)
        missed += row["raw"] is None
        if as_json:
            typer.echo(json.dumps(row_json(row)))
            return
        if row["raw"] is None:
            typer.echo(f"n={row['n']:2d}: no grid within the budget")
            return
        mark = "reached" if row["reached"] else "below"
        if row["published"] is not None and row["raw"] > row["published"]:
            mark = "NEW RECORD"
        typer.echo(
            f"n={row['n']:2d}: raw {row['raw']}  penalty {row['penalty']}  [{row['status']}]  "
            f"published {row['published']} ({mark})  {row['setting']}  {row['seconds']:.1f} s"
        )

    try:
        run_batch(ns, settings=settings, budget=budget, seed=seed, workers=workers or None, stop_at_record=stop_at_record, backend=backend, address=address, on_order=show)
    except RuntimeError as exc:
        _fail(str(exc), EXIT_NO_ANSWER)
    raise typer.Exit(EXIT_OK if not missed else EXIT_NO_ANSWER)


COMMANDS = {"count": count, "score": score, "table": table, "batch": batch}
