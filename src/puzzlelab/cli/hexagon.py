"""Extra CLI verbs of the hexagon puzzle (typer-compatible functions; the CLI adds
them under `puzzlelab hexagon`):

  count N [--levels 1..6]    lowest penalty and number of optimal grids per level
  score FILE                 check every grid of a submission (grids split by ';')
  table [--orders 3..8]      lowest penalties through levels 1, 2, 3, 4+ beside the
                             published ones (SAT, proven)
  batch [--orders 3..16]     SAT settings (published / portfolio / unrestricted) for
                             several orders in worker processes or on a Ray cluster
                             (--backend local|ray, --address); verified, stored
  rows ACTION ...             the row3 store (hexagon_rows.py): build, count, rebuild,
                             mine, show
  level N --levels 3-4       one level question by beam, sat, dlx or ilp
                             (hexagon_level.py), or a count of its grids
  prove N [--raw R]          no grid scores above R: cube-and-conquer on the level-k
                             relaxation, in worker processes or on Ray, resumable
                             from its checkpoint; with a verified grid of R, optimal
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Annotated, Any, Callable, Optional

import typer

from puzzlelab.cli.errors import EXIT_NO_ANSWER, EXIT_OK, EXIT_WRONG_ANSWER, fail, user_errors
from puzzlelab.cli.hexagon_checkpoints import checkpoint_folder, dp_checkpoint_folder
from puzzlelab.cli.hexagon_level import level as level_verb
from puzzlelab.cli.hexagon_rows import rows
from puzzlelab.core.inputs import MAX_INPUT_BYTES, decode_bytes, read_text_file
from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.parallel import BACKENDS
from puzzlelab.core.puzzle import InvalidInstance, parse_range
from puzzlelab.core.result import Budget
from puzzlelab.core.store import Store, StoreError
from puzzlelab.puzzles.hexagon import PUZZLE
from puzzlelab.puzzles.hexagon.completion.linear import split_sixes
from puzzlelab.puzzles.hexagon.model import MAX_ORDER, HexInstance, edge_count, format_grid, grid_values, hexagon, parse_grids
from puzzlelab.puzzles.hexagon.proof.prove import DP_MAX_ORDER, proof_level, run_dp_proof, run_proof
from puzzlelab.puzzles.hexagon.proof.refute import REFUTE_METHODS
from puzzlelab.puzzles.hexagon.reference import level_table, published_raw
from puzzlelab.puzzles.hexagon.rowdp.count import BudgetExceeded, count_solutions, level_minimum
from puzzlelab.puzzles.hexagon.sat.batch import SETTINGS, row_json, run_batch

__all__ = ["COMMANDS", "count", "score", "table", "batch", "prove"]


def _check_backend_and_budget(backend: str, budget: float) -> None:
    """The options every parallel verb shares (raises InvalidInstance naming the field)."""
    if backend not in BACKENDS:
        raise InvalidInstance(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}", "backend")
    _check_seconds(budget, "budget", positive=True)


def _check_seconds(seconds: float, field: str, *, positive: bool = False) -> None:
    """A number of seconds: not NaN, not negative (not 0 when `positive`); inf = no limit."""
    if seconds != seconds or seconds < 0 or (positive and seconds <= 0):
        kind = "a positive number" if positive else "0 or a positive number"
        raise InvalidInstance(f"{field}: expected {kind} of seconds, got {seconds}", field)


def _bounded_range(text: str, field: str, low: int, high: int, what: str) -> list[int]:
    """parse_range's numbers, each checked to lie in low..high before the range is
    built (`1..100000000000` would otherwise build a list of 10^11 numbers)."""
    for number in re.findall(r"-?\d+", str(text)):  # \d as parse_range reads them
        digits = number.lstrip("-").lstrip("0") or "0"
        value = 0 if len(digits) > 9 else (-int(digits) if number.startswith("-") else int(digits))
        if len(digits) > 9 or not low <= value <= high:
            raise InvalidInstance(f"{field}: expected {what} between {low} and {high}, got {number if len(number) <= 12 else number[:12] + '...'}", field)
    return parse_range(text, field)


def count(
    n: Annotated[int, typer.Argument(help="Order of the hexagon, 1..13 (the row DP: every level of n <= 8 in minutes; levels 1-2 of n = 9, level 1 of n = 10-12; tables past 2 GB go to disk).")],
    levels: Annotated[str, typer.Option(help="Levels to count, e.g. 1..6 or 3,4.")] = "1..6",
    budget: Annotated[float, typer.Option(help="Seconds allowed in all.")] = 600.0,
    method: Annotated[str, typer.Option(help="dp (row-by-row dynamic program, counts) or sat (SAT enumeration, small n).")] = "dp",
    checkpoint: Annotated[Optional[str], typer.Option(help="Folder where the row DP keeps its tables and finished counts, so that a count stopped by its budget resumes (none: start again).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Lowest penalty at each level and how many level grids reach it (no symmetry
    factored out; level 6 = whole solutions). The row DP reports its progress on
    standard error every 10 s.

    Example: puzzlelab hexagon count 4
    """
    with user_errors():
        wanted = _bounded_range(levels, "levels", 1, 6, "levels")
        _check_seconds(budget, "budget")
        if not 1 <= n <= 13:
            raise InvalidInstance("n: counting is for small orders, 1..13", "n")
        if method not in ("dp", "sat"):
            raise InvalidInstance(f"method: expected dp or sat, got {method!r}", "method")
        if any(not 1 <= k <= 6 for k in wanted):
            raise InvalidInstance("levels: expected levels between 1 and 6", "levels")
        if checkpoint is not None:
            if method != "dp":
                raise InvalidInstance("checkpoint: only the row DP (--method dp) keeps one", "checkpoint")
            dp_checkpoint_folder(checkpoint)
    run_budget = Budget(budget)

    def show(level: int, minimum: int, total: int, seconds: float | None) -> None:
        if not as_json:
            how = f"{seconds:.2f} s" if seconds is not None else f"read back from {checkpoint}, not counted now; its sample grid checked"
            typer.echo(f"n={n} level {level}: lowest penalty {minimum}, {total} grids  ({how})")

    try:
        if method == "sat":  # the DP checks its own grids (count.count_by_dp)
            # The optimum itself is checked by the independent verifier first.
            _, grid = level_minimum(n, 5, budget=run_budget)
            verdict = PUZZLE.verify(HexInstance(n), format_grid(n, split_sixes(hexagon(n), grid)))
            if not verdict.ok:
                fail(f"internal error: optimum rejected by the checker: {verdict.message}", EXIT_WRONG_ANSWER)
        counts = count_solutions(n, wanted, budget=run_budget, on_level=show, method=method, checkpoint=checkpoint,
                                 progress=_dp_progress(n, as_json) if method == "dp" else None)
    except BudgetExceeded as exc:
        kept = f"; the finished steps are in {checkpoint}: run again to resume" if checkpoint else ""
        fail(f"{exc} (raise --budget){kept}", EXIT_NO_ANSWER)
    except ValueError as exc:  # a checkpoint folder of another question
        fail(str(exc))
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
    with user_errors():
        if file == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(MAX_INPUT_BYTES + 1) if stream is not None else sys.stdin.read(MAX_INPUT_BYTES + 1).encode()
            text = decode_bytes(data, "standard input")
        else:
            text = read_text_file(file, "submission file")
        grids = parse_grids(text)
        rows = []
        for g, grid in enumerate(grids, start=1):
            where = f"grid {g}, " if len(grids) > 1 else ""
            n, _ = grid_values(grid, where=where)
            verdict = PUZZLE.verify(HexInstance(n), [list(r) for r in grid])
            rows.append({"grid": g, "n": n, "ok": verdict.ok, "raw": verdict.value, "penalty": verdict.figures.get("penalty"), "published": published_raw(n), "message": verdict.message})
    if as_json:
        typer.echo(json.dumps(rows))
    else:
        for row in rows:
            status = "valid" if row["ok"] else "INVALID"
            pub = "" if row["published"] is None else f"  published best {row['published']}"
            typer.echo(f"grid {row['grid']} n={row['n']}: {status}  raw {row['raw']}  penalty {row['penalty']}{pub}  {'' if row['ok'] else row['message']}")
    raise typer.Exit(EXIT_OK if all(row["ok"] for row in rows) else EXIT_NO_ANSWER)


def table(
    orders: Annotated[str, typer.Option(help="Orders, e.g. 3..8.")] = "3..6",
    budget: Annotated[float, typer.Option(help="Seconds allowed per order and level.")] = 120.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Lowest penalties through levels 1, 2, 3 and 4+ (proven by SAT) beside the
    published table.

    Example: puzzlelab hexagon table --orders 3..6
    """
    with user_errors():
        ns = _bounded_range(orders, "orders", 1, MAX_ORDER, "orders")
        _check_seconds(budget, "budget")
    out = []
    for n in ns:
        row: dict[str, Any] = {"n": n}
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
    with user_errors():
        ns = _bounded_range(orders, "orders", 1, MAX_ORDER, "orders")
        if not ns or any(not 1 <= n <= MAX_ORDER for n in ns):
            raise InvalidInstance(f"orders: expected orders between 1 and {MAX_ORDER}", "orders")
        if settings not in SETTINGS:
            raise InvalidInstance(f"settings: expected one of {', '.join(SETTINGS)}, got {settings!r}", "settings")
        _check_backend_and_budget(backend, budget)
    address = address or os.environ.get("RAY_ADDRESS")
    missed = 0

    def show(row) -> None:
        nonlocal missed
        result = row["result"]
        missed += row["raw"] is None
        if as_json:
            typer.echo(json.dumps(row_json(row)))
        elif row["raw"] is None:
            typer.echo(f"n={row['n']:2d}: no grid within the budget")
        else:
            mark = "reached" if row["reached"] else "below"
            if row["published"] is not None and row["raw"] > row["published"]:
                mark = "NEW RECORD"
            typer.echo(
                f"n={row['n']:2d}: raw {row['raw']}  penalty {row['penalty']}  [{row['status']}]  "
                f"published {row['published']} ({mark})  {row['setting']}  {row['seconds']:.1f} s"
            )
        if store and result.verified:  # after the line: a store that fails costs an error line, not the answer
            Store().add(PUZZLE.name, str(row["n"]), result, PUZZLE.sense)

    with user_errors():
        try:
            run_batch(ns, settings=settings, budget=budget, seed=seed, workers=workers or None, stop_at_record=stop_at_record, backend=backend, address=address, on_order=show)
        except StoreError:
            raise  # user_errors: exit 4
        except RuntimeError as exc:  # the ray backend is not installed or not reachable
            fail(str(exc), EXIT_NO_ANSWER)
    raise typer.Exit(EXIT_OK if not missed else EXIT_NO_ANSWER)


def _check_proof_options(n: int, raw: int | None, level: int | None, *, depth: int, screen_conflicts: int, screen_method: str, cube_method: str,
                         screen_seconds: float, resplit_rounds: int, resplit: int, screen_levels: str | None) -> tuple[int, int, tuple[int, ...] | None]:
    """(the claimed raw score, the level (proof.proof_level's when not given), the
    levels to screen at or None for all), or InvalidInstance naming the first bad option."""
    if not 2 <= n <= MAX_ORDER:
        raise InvalidInstance(f"n: expected an order between 2 and {MAX_ORDER}", "n")
    if level is not None and not 1 <= level <= 5:
        raise InvalidInstance(f"level: expected 1..5, got {level}", "level")
    if raw is None:
        raw = published_raw(n)
        if raw is None:
            raise InvalidInstance(f"raw: no published score for n = {n}; give the claim with --raw", "raw")
    if not 0 <= raw < edge_count(n):
        raise InvalidInstance(f"raw: expected 0 <= raw < {edge_count(n)} (the edge count bounds every score), got {raw}", "raw")
    if level is None:
        level = proof_level(n, edge_count(n) - raw - 1)
    if depth < 1:
        raise InvalidInstance(f"depth: expected at least 1 cell, got {depth}", "depth")
    if screen_conflicts < 1:
        raise InvalidInstance(f"screen-conflicts: expected a positive number of conflicts, got {screen_conflicts}", "screen-conflicts")
    for option, method in (("screen-method", screen_method), ("cube-method", cube_method)):
        if method not in REFUTE_METHODS:
            raise InvalidInstance(f"{option}: expected one of {', '.join(REFUTE_METHODS)}, got {method!r}", option)
    if screen_seconds != screen_seconds or screen_seconds < 0:
        raise InvalidInstance(f"screen-seconds: expected 0 (no cap) or a positive number of seconds, got {screen_seconds}", "screen-seconds")
    if resplit_rounds < 1:
        raise InvalidInstance(f"resplit-rounds: expected at least 1 round, got {resplit_rounds}", "resplit-rounds")
    if resplit < 0:
        raise InvalidInstance(f"resplit: expected 0 (none) or a number of cells, got {resplit}", "resplit")
    if screen_levels is None:
        return raw, level, None
    try:
        levels = tuple(int(part) for part in screen_levels.replace(" ", "").split(",") if part)
    except ValueError:
        levels = ()
    if not levels or any(not 1 <= at < level for at in levels):
        raise InvalidInstance(f"screen-levels: expected comma-separated levels in 1..{level - 1}, got {screen_levels!r}", "screen-levels")
    return raw, level, levels


def _check_certified_options(screen_levels: str | None, screen_method: str, cube_method: str, resplit: int) -> None:
    """--certified refutes every cube with CaDiCaL at --level: the options that ask for
    an uncertified refutation (screens, MaxSAT bounds) are refused, naming the option."""
    for option, asked in (("screen-levels", screen_levels is not None), ("screen-method", screen_method != "sat"), ("cube-method", cube_method != "sat"), ("resplit", resplit != 0)):
        if asked:
            raise InvalidInstance(f"{option}: not with --certified (screens and MaxSAT bounds give no certificate; a certified proof refutes every cube with CaDiCaL at --level)", option)


def _proof_progress(n: int, level: int, quiet: bool) -> Callable[[Any], None]:
    """A line on standard error at most every 10 s while cubes remain (none when quiet)."""
    last_shown = [0.0]

    def show(summary) -> None:
        if time.monotonic() - last_shown[0] < 10.0 and summary.open:
            return
        last_shown[0] = time.monotonic()
        if not quiet:
            typer.echo(
                f"n={n} level {level} <= {summary.bound} penalties: {summary.refuted}/{summary.cubes} cubes refuted, "
                f"{summary.seconds:.0f} s this run, {summary.total_seconds:.0f} s in all",
                err=True,
            )

    return show


def _dp_progress(n: int, quiet: bool) -> Callable[[dict], None]:
    """A line on standard error at most every 10 s while the row DP runs (none when quiet)."""
    last_shown = [0.0]

    def show(report: dict) -> None:
        if quiet or (time.monotonic() - last_shown[0] < 10.0 and report["step"] < report["steps"]):
            return
        last_shown[0] = time.monotonic()
        typer.echo(
            f"n={n} level {report['level']} {report['pass']}: cell {report['step']}/{report['steps']}, "
            f"{report['states']:,} states (peak {report['peak']:,}), {report['seconds']:.0f} s this pass",
            err=True,
        )

    return show


def _cancel_on_interrupt(budget: Budget, what: str = "the cubes (every refuted cube is in the checkpoint)") -> Callable[[int], None]:
    def on_interrupt(_count: int) -> None:
        typer.echo(f"\ninterrupted: stopping {what}", err=True)
        budget.cancel()

    return on_interrupt


def prove(
    n: Annotated[int, typer.Argument(help="Order of the hexagon.")],
    raw: Annotated[Optional[int], typer.Option(help="Claim: no grid scores above this raw score (default: the published best).")] = None,
    level: Annotated[Optional[int], typer.Option(help="Prove it at this level (values 1..k placed): the level-k penalty bounds the final one; 5 = the whole puzzle. Default: the lowest level whose published minimum is above the bound (n = 7: 4; n = 8, 9, 10, 12: 3; n = 11: 2), else 3.", show_default=False)] = None,
    method: Annotated[str, typer.Option(help="auto (the row DP up to n = 12, cubes beyond), dp (the row DP: exact, no solver; its checkpoint is a folder of tables) or cubes (cube-and-conquer by SAT).")] = "auto",
    depth: Annotated[int, typer.Option(help="Cells nearest the centre whose 1s the cubes decide (more: more, smaller cubes).")] = 14,
    workers: Annotated[int, typer.Option(help="Worker processes (0 = PUZZLELAB_WORKERS or the CPU count).")] = 0,
    split_conflicts: Annotated[int, typer.Option(help="Split a cube three cells deeper after this many conflicts (0 = never; refute.SPLIT_CONFLICTS).")] = 100_000,
    screen: Annotated[bool, typer.Option(help="First refute the cubes that the lower levels' penalties alone rule out (a cheap pass per level).")] = True,
    screen_conflicts: Annotated[int, typer.Option(help="Conflicts per cube in a screening pass; a resumed run with more screens the open cubes again (refute.SCREEN_CONFLICTS).")] = 20_000,
    screen_method: Annotated[str, typer.Option(help="sat (CaDiCaL, --screen-conflicts per cube) or maxsat (a core-guided lower bound per cube, run to the end: for cubes CaDiCaL leaves open).")] = "sat",
    cube_method: Annotated[str, typer.Option(help="How the cubes at --level are refuted: sat (CaDiCaL, split when hard) or maxsat (a core-guided lower bound per cube).")] = "sat",
    screen_seconds: Annotated[float, typer.Option(help="Seconds at most for one cube's MaxSAT bound in a screening pass (0 = no cap).")] = 0.0,
    resplit: Annotated[int, typer.Option(help="First split every open cube this many cells deeper and screen the pieces afresh (for cubes every screen left open).")] = 0,
    resplit_rounds: Annotated[int, typer.Option(help="With --resplit: rounds of 'split the open cubes deeper, screen the pieces' at most.")] = 1,
    screen_levels: Annotated[Optional[str], typer.Option(help="Comma-separated levels to screen at, each below --level (default: all of them).")] = None,
    budget: Annotated[float, typer.Option(help="Seconds for this run; run again to resume.")] = 3600.0,
    checkpoint: Annotated[Optional[str], typer.Option(help="Checkpoint file of the cubes (default: puzzlelab-out/proofs/hexagon-nN-levelK-rawR.json), or folder of the row DP (default: ...-rawR-rowdp).")] = None,
    grid_budget: Annotated[float, typer.Option(help="Seconds at most to find a verified grid of the claimed score once the bound is proven (the sat method with the published arguments; n = 10 needs about 150).")] = 600.0,
    backend: Annotated[str, typer.Option(help="local (worker processes) or ray (a Ray cluster).")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: env RAY_ADDRESS).")] = None,
    store: Annotated[bool, typer.Option(help="Keep a grid proven optimal (or a better one found) in the records store.")] = True,
    certified: Annotated[bool, typer.Option(help="Every cube's UNSAT comes with an LRAT certificate from CaDiCaL, checked by puzzlelab's own checker (core/certificates/lrat.py); no screens, no MaxSAT; its own checkpoint.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Prove that no grid of order N scores above RAW: no level-k grid has E - RAW - 1
    or fewer penalty edges, split into cubes refuted side by side (hexagon/proof/cube_and_conquer.py).
    A run stopped by its budget or Ctrl-C keeps every refuted cube in its checkpoint;
    the same command resumes. Exit 0: proven (or a counterexample found and verified),
    1: not finished, 2: bad input.

    Example: puzzlelab hexagon prove 7 --workers 2
    """
    with user_errors():
        raw, level, levels_to_screen = _check_proof_options(
            n, raw, level, depth=depth, screen_conflicts=screen_conflicts, screen_method=screen_method, cube_method=cube_method,
            screen_seconds=screen_seconds, resplit_rounds=resplit_rounds, resplit=resplit, screen_levels=screen_levels,
        )
        if split_conflicts < 0:
            raise InvalidInstance(f"split-conflicts: expected 0 (never) or a number of conflicts, got {split_conflicts}", "split-conflicts")
        _check_backend_and_budget(backend, budget)
        _check_seconds(grid_budget, "grid-budget")
        if certified:
            _check_certified_options(screen_levels, screen_method, cube_method, resplit)
        by_dp = _proof_by_dp(method, n, certified)
        if by_dp:
            path = checkpoint or f"puzzlelab-out/proofs/hexagon-n{n}-level{level}-raw{raw}-rowdp"
            dp_checkpoint_folder(path, given=checkpoint is not None)
        else:
            path = checkpoint or f"puzzlelab-out/proofs/hexagon-n{n}-level{level}-raw{raw}{'-certified' if certified else ''}.json"
            checkpoint_folder(path, given=checkpoint is not None)
    run_budget = Budget(budget)
    options = dict(
        level=level, depth=depth, workers=workers or None, split_conflicts=split_conflicts or None, screen=screen, screen_conflicts=screen_conflicts,
        screen_method=screen_method, cube_method=cube_method, resplit=resplit, resplit_rounds=resplit_rounds, screen_seconds=screen_seconds or None,
        screen_levels=levels_to_screen, budget=run_budget, checkpoint=path, backend=backend, address=address, grid_budget=grid_budget,
        progress=_proof_progress(n, level, as_json), certified=certified,
    )
    if by_dp:
        def work():
            return run_dp_proof(n, raw, level=level, budget=run_budget, grid_budget=grid_budget, checkpoint=path, progress=_dp_progress(n, as_json))
        interrupt = _cancel_on_interrupt(run_budget, f"the row DP (every finished step is in {path})")
    else:
        def work():
            return run_proof(n, raw, **options)
        interrupt = _cancel_on_interrupt(run_budget)
    with user_errors():
        try:
            report = run_in_thread(work, interrupt)
        except ValueError as exc:
            fail(str(exc))
        typer.echo(json.dumps(report.to_dict()) if as_json else report.message)
        if store and report.record is not None:  # after the answer: a store that fails costs an error line, not the proof
            Store().add(PUZZLE.name, str(n), report.record, PUZZLE.sense)
    raise typer.Exit(EXIT_OK if report.settled else EXIT_NO_ANSWER)


def _proof_by_dp(method: str, n: int, certified: bool) -> bool:
    """Whether `prove` asks the row DP (see --method); bad choices are refused."""
    if method not in ("auto", "dp", "cubes"):
        raise InvalidInstance(f"method: expected auto, dp or cubes, got {method!r}", "method")
    if method == "dp" and certified:
        raise InvalidInstance("method: --certified checks SAT certificates; use --method cubes (or auto) with it", "method")
    return method == "dp" or (method == "auto" and not certified and n <= DP_MAX_ORDER)


COMMANDS = {"count": count, "score": score, "table": table, "batch": batch, "prove": prove, "rows": rows, "level": level_verb}
