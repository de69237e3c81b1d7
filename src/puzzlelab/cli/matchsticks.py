"""Extra CLI verbs of the matchsticks puzzle (typer-compatible functions; the CLI mounts
them under `puzzlelab matchsticks`).

`table` solves a range of n with one method and prints each verified value beside the
published one: the column of A294249's table that method reproduces (diagonal with
free_below 1 or 20, greedy), or the best known value. `records` shows the answers found
here below the published values (`records.py`), drawn. `improve` runs the record try's
local search (`lns.py`) from a shipped answer or the user's.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from puzzlelab.cli.errors import EXIT_NO_ANSWER, fail, user_errors
from puzzlelab.cli.running import bounded_range
from puzzlelab.core.files import check_output_file, check_output_folder, write_output
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.core.store import Store, StoreError
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.model import MAX_N
from puzzlelab.puzzles.matchsticks.reference import published_table

__all__ = ["table", "records", "improve", "published_column"]


def published_column(method: str, free_below: int | None) -> str:
    """Which published column a method's exact optimum is compared with."""
    if method == "greedy":
        return "greedy_best"
    if method == "diagonal":
        return {1: "diagonal1_best", 0: "diagonal1_best", 20: "diagonal20_best"}.get(free_below if free_below is not None else 20, "best_known")
    return "best_known"


def table(
    n: Annotated[str, typer.Option("--n", help="Values of n: a number, a range 1..46, or a list 1,5,9..12.")] = "1..20",
    method: Annotated[str, typer.Option(help="Method: greedy, diagonal, full or auto.")] = "greedy",
    free_below: Annotated[Optional[int], typer.Option(help="diagonal only: sizes below this are free (1: all on the diagonal).")] = None,
    budget: Annotated[float, typer.Option(help="Seconds allowed per n.", min=0)] = 60.0,
    workers: Annotated[int, typer.Option(help="Worker processes inside each solve (diagonal, greedy, full).", min=1)] = 1,
    jobs: Annotated[int, typer.Option(help="Solve this many n at once, one task per n through core.parallel.", min=1)] = 1,
    backend: Annotated[str, typer.Option(help="Where the per-n tasks run: local worker processes or a ray cluster.")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (backend ray).", envvar="RAY_ADDRESS")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per n.")] = False,
    store: Annotated[bool, typer.Option(help="Keep the verified results in the records store.")] = True,
    stored: Annotated[bool, typer.Option("--stored", help="Solve nothing: show the shipped restricted columns (diagonal1, diagonal20, greedy), re-verified.")] = False,
) -> None:
    """Solve n over a range with one method and print each verified value beside the
    published figure (the matching column of A294249's table). Exit status 1 if some n
    got no answer within its budget. With --stored, show the three restricted columns
    computed earlier and shipped with the package (each re-verified on load).

    Example: puzzlelab matchsticks table --n 1..46 --method greedy
             puzzlelab matchsticks table --n 1..63 --stored
    """
    if stored:
        with user_errors():
            _show_stored(bounded_range(n, "--n", 0, MAX_N), as_json)
        return
    with user_errors():
        values = bounded_range(n, "--n", 0, MAX_N)
        chosen = PUZZLE.method(method)
        options = {}
        if free_below is not None:
            if method != "diagonal":
                raise InvalidInstance("--free-below: only the diagonal method has it", field="free_below")
            options["free_below"] = free_below
        if workers > 1:
            if "workers" not in {o.name for o in chosen.options}:
                raise InvalidInstance(f"--workers: method {method!r} runs in one process", field="workers")
            options["workers"] = workers
        if backend not in ("local", "ray"):
            raise InvalidInstance(f"--backend: expected local or ray, got {backend!r}", field="backend")
        chosen.parse_options(options)
        instances = [PUZZLE.parse(v) for v in values]
    column = published_column(method, free_below)
    published = published_table()
    missing = 0
    same = 0
    compared = 0
    with user_errors():
        try:
            # A batch (jobs > 1, ray) is solved here at once, so that its errors (no ray
            # backend, say) come before the header; one-by-one solving is lazy.
            solved = _solve_each(instances, method, options, budget, jobs, backend, address)
            if not as_json:
                typer.echo(f"{'n':>3} {'ours':>6} {'status':<9} {column:>15} {'':>5} {'seconds':>9}  nodes")
            for instance, result, seconds in solved:
                missing_one, same_one, compared_one = _print_row(instance, result, seconds, column, published, store, as_json)
                missing += missing_one
                same += same_one
                compared += compared_one
        except (WrongAnswer, StoreError):
            raise  # user_errors: exit 3 and 4
        except RuntimeError as exc:  # e.g. the ray backend is not installed
            fail(str(exc))
    if not as_json:
        typer.echo(f"{same} of {compared} equal the published {column}; {missing} without an answer in {budget:g} s")
    if missing:
        raise typer.Exit(EXIT_NO_ANSWER)


def _solve_each(instances, method, options, budget, jobs, backend, address):
    """(instance, verified result, seconds) per instance, in order: as one
    `batch.solve_batch` call (jobs > 1 or a ray backend; a list), or one after another
    as they are printed (a generator)."""
    if jobs > 1 or backend != "local":
        from puzzlelab.puzzles.matchsticks.batch import solve_batch

        rows = solve_batch([i.n for i in instances], method, seconds=budget, options=options, workers=jobs, backend=backend, address=address)
        solved = []
        for instance, row in zip(instances, rows):
            result = row["result"] or Result(None, None, Status.UNKNOWN, method, stats={"error": row.get("error")})
            solved.append((instance, result, float(result.stats.get("seconds") or 0.0)))
        return solved
    return _one_by_one(instances, method, options, budget)


def _one_by_one(instances, method, options, budget):
    for instance in instances:
        started = time.perf_counter()
        result = PUZZLE.solve(instance, method, budget=Budget(budget), **options)
        yield instance, result, time.perf_counter() - started


def _print_row(instance, result, seconds, column, published, store, as_json):
    """Print one table row (storing a verified result); returns (missing, same, compared)."""
    missing = same = compared = 0
    ref = published.get(instance.n, {}).get(column)
    mark = ""
    if result.value is None:
        missing += 1
        mark = "none"
    elif ref is not None:
        compared += 1
        same += result.value == ref
        # A restricted optimum must equal its column; our proven value must equal a
        # proven one; anything else is an improvement or a shortfall.
        complete = result.stats.get("complete", False)
        mark = "=" if result.value == ref else ("BETTER" if result.value < ref else ("worse" if complete else "open"))
    if as_json:
        typer.echo(json.dumps({"n": instance.n, "value": result.value, "status": result.status.value, "published": ref, "column": column, "seconds": round(seconds, 3), "nodes": result.stats.get("nodes"), "verified": result.verified, "complete": result.stats.get("complete")}))
    else:
        value = "-" if result.value is None else str(result.value)
        typer.echo(f"{instance.n:>3} {value:>6} {result.status.value:<9} {'' if ref is None else ref:>15} {mark:>5} {seconds:>9.2f}  {result.stats.get('nodes', '')}")
    sys.stdout.flush()
    if store and result.verified:  # after the row: a store that fails costs an error line, not the answer
        Store().add(PUZZLE.name, PUZZLE.instance_key(instance), result, PUZZLE.sense)
    return missing, int(same), compared


def _show_stored(values: list[int], as_json: bool) -> None:
    """The shipped restricted columns beside the published ones (`columns.py`)."""
    from puzzlelab.puzzles.matchsticks.columns import COLUMNS, shipped_columns
    from puzzlelab.puzzles.matchsticks.records import shipped_records

    try:
        shipped = shipped_columns()
        new_records = shipped_records()
    except ValueError as exc:
        fail(f"shipped results: {exc}")
    published = published_table()
    same = have = 0
    seconds = 0.0
    if not as_json:
        typer.echo(f"{'n':>3} {'best':>5}  " + "  ".join(f"{name:>22}" for name in COLUMNS) + "  (ours/published, seconds)")
    for v in values:
        cells, record = [], {"n": v, "best_known": published[v]["best_known"]}
        for name, (_, _, _, column) in COLUMNS.items():
            row = shipped["columns"][name].get(v)
            ref = published[v][column]
            record[name] = None if row is None else {"value": row["value"], "published": ref, "seconds": row["seconds"]}
            if row is None:
                cells.append(f"{'-':>5}/{ref:<5} {'':>10}")
                continue
            have += 1
            same += row["value"] == ref
            seconds += row["seconds"]
            mark = "" if row["value"] == ref else "!"
            cells.append(f"{row['value']:>5}/{ref:<5}{mark:1}{row['seconds']:>9.1f}s")
        typer.echo(json.dumps(record) if as_json else f"{v:>3} {published[v]['best_known']:>5}  " + "  ".join(f"{c:>22}" for c in cells))
        if v in new_records:
            record["new_record"] = new_records[v]["value"]
            if not as_json:
                typer.echo(f"{'':>3} {new_records[v]['value']:>5}  new record, below the published {published[v]['best_known']} (puzzlelab matchsticks records)")
    if not as_json:
        total = len(values) * len(COLUMNS)
        typer.echo(f"{same} of {have} shipped values equal the published ones ({total - have} of {total} not computed yet); {seconds:.0f} s of search in all")


def records(
    n: Annotated[str, typer.Option("--n", help="Values of n to show: a number, a range 47..63, or a list.")] = f"0..{MAX_N}",
    svg: Annotated[Optional[Path], typer.Option(help="Also write each record's drawing to this folder as matchsticks-nN-record.svg.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record (its squares included).")] = False,
    force: Annotated[bool, typer.Option(help="Let --svg replace files that puzzlelab did not write.")] = False,
) -> None:
    """Show the answers found here with fewer matches than A294249's published best
    known values (upper bounds, not proofs), each re-verified by the checker on load,
    drawn, with how it was found.

    Example: puzzlelab matchsticks records
             puzzlelab matchsticks records --n 56 --svg out/
    """
    from puzzlelab.puzzles.matchsticks.records import shipped_records

    with user_errors():
        values = set(bounded_range(n, "--n", 0, MAX_N))
    try:
        held = shipped_records()
    except ValueError as exc:
        fail(f"shipped records: {exc}")
    chosen = [held[k] for k in sorted(held) if k in values]
    with user_errors():
        if svg is not None:
            check_output_folder(svg, "--svg")
            try:
                svg.mkdir(exist_ok=True)
            except OSError as exc:
                fail(f"--svg: cannot make the folder {svg}: {exc.strerror}")
            for row in chosen:
                check_output_file(svg / f"matchsticks-n{row['n']}-record.svg", "--svg", force=force)
        _show_records(chosen, svg, as_json, force)
    if not as_json:
        typer.echo(f"{len(chosen)} new record{'s' if len(chosen) != 1 else ''} of {len(held)} shipped")


def _show_records(chosen: list[dict], svg: Optional[Path], as_json: bool, force: bool) -> None:
    """Print each record (drawn, or as JSON), and write its picture into `svg`."""
    from puzzlelab.puzzles.matchsticks.render import render_svg, render_text

    for row in chosen:
        solution = {"roam": 0, "squares": row["squares"]}
        if as_json:
            typer.echo(json.dumps(row))
        else:
            typer.echo(f"n={row['n']}: {row['value']} matches, below the published {row['published']} (new upper bound, checked on load)")
            typer.echo(f"  started from: {row['started_from']}; found by: {row['found_by']}; {row['recorded']}")
            typer.echo(render_text(row["n"], solution, matches=row["value"]))
            typer.echo("")
        if svg is not None:
            caption = f"n={row['n']}: {row['value']} matches (published {row['published']})"
            write_output(svg / f"matchsticks-n{row['n']}-record.svg", render_svg(row["n"], solution, caption), "--svg", force=force, kind="svg")


def improve(
    n: Annotated[int, typer.Argument(help="n: squares 1x1 .. nxn.", min=1, max=MAX_N)],
    start: Annotated[Optional[Path], typer.Option(help="Start from this answer (JSON, (s,x,y) triples or the drawing); default: the best shipped one.")] = None,
    ladder: Annotated[Optional[int], typer.Option(help="Start from the ladder shape (greedy's at n = 55, 56) with sizes T..1 placed exactly.", min=0, max=MAX_N)] = None,
    ladder_shape: Annotated[str, typer.Option(help="--ladder: triples (greedy's shape at n = 55, 56) or pairs (at n = 53).")] = "triples",
    ladder_sides: Annotated[str, typer.Option(help="--ladder: where each block goes, d (the diagonal), l (the left side) or t (the top); greedy's n = 57: ddl.")] = "",
    related: Annotated[int, typer.Option(help="Re-place a random square and the k - 1 nearest it, exactly, each move (0: band sweeps instead).", min=0, max=MAX_N)] = 14,
    moves: Annotated[int, typer.Option(help="--related: moves to make.", min=1)] = 2000,
    seed: Annotated[int, typer.Option(help="--related: random seed (a run repeats exactly).")] = 1,
    width: Annotated[int, typer.Option(help="With --related 0: re-place every band of this many consecutive sizes, until a sweep finds nothing.", min=1, max=MAX_N)] = 12,
    budget: Annotated[float, typer.Option(help="Seconds allowed in all.", min=0)] = 600.0,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Write the answer (JSON squares) here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    force: Annotated[bool, typer.Option(help="Let --out replace a file that puzzlelab did not write.")] = False,
) -> None:
    """Try to lower an answer's match count by re-placing groups of squares exactly, all
    others held (large-neighbourhood search; how a(56) <= 1216 was found). The answer is
    checked by the independent checker before it is printed or written.

    Example: puzzlelab matchsticks improve 56 --related 12 --moves 500
             puzzlelab matchsticks improve 40 --start answer.json --related 0 --width 15
             puzzlelab matchsticks improve 54 --ladder 6 --related 0 --width 15
             puzzlelab matchsticks improve 54 --ladder 12 --ladder-shape pairs --ladder-sides ddl --related 0
    """
    from puzzlelab.puzzles.matchsticks.lns import related_search, sweep_bands
    from puzzlelab.puzzles.matchsticks.model import Instance
    from puzzlelab.puzzles.matchsticks.verify import verify_solution

    with user_errors():
        protect = [(start, "the --start file")]
        if out_file is not None:
            check_output_file(out_file, "--out", force=force, protect=protect)
        origin, squares = _improve_start(n, start, ladder, (ladder_shape, ladder_sides), budget)
    before = verify_solution(Instance(n), {"roam": 0, "squares": squares}).value
    limit = Budget(budget)
    started = time.perf_counter()
    if related:
        outcome = related_search(n, squares, related, moves, seed=seed, budget=limit)
        work = {"moves": outcome.moves, "incomplete_moves": outcome.incomplete_moves}
    else:
        outcome = sweep_bands(n, squares, width, budget, budget=limit)
        work = {"bands": outcome.bands, "complete_bands": outcome.complete_bands}
    seconds = time.perf_counter() - started
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": outcome.squares})
    if not verdict.ok or verdict.value != outcome.value:
        fail(f"the search returned an answer the checker does not confirm ({verdict.message})", EXIT_NO_ANSWER)
    published = published_table()[n]["best_known"]
    report = {"n": n, "start": origin, "before": before, "value": verdict.value, "published": published, "improvements": outcome.improvements,
              "nodes": outcome.nodes, "seconds": round(seconds, 2), **work, "squares": outcome.squares}
    if as_json:
        typer.echo(json.dumps(report))
    else:
        _print_improvement(report, related, width)
    if out_file is not None:
        with user_errors():
            answer = {"roam": 0, "squares": outcome.squares, "written_by": "puzzlelab"}
            write_output(out_file, json.dumps(answer) + "\n", "--out", force=force, protect=protect)


def _print_improvement(report: dict, related: int, width: int) -> None:
    """`improve`'s two lines: the match counts beside the published one, and the work."""
    value, published = report["value"], report["published"]
    mark = "below it: a new record (verified)" if value < published else ("equal" if value == published else "above it")
    done = f"{report['moves']} moves of {related} related sizes" if related else f"{report['complete_bands']} of {report['bands']} bands of {width} searched to the end"
    typer.echo(f"n={report['n']}: {report['before']} -> {value} matches (start: {report['start']}); published {published}: {mark}")
    typer.echo(f"{report['improvements']} improvements, {done}, {report['nodes']:,} nodes, {report['seconds']:.1f} s")


def _improve_start(n: int, start: Optional[Path], ladder: Optional[int], shape_sides: tuple[str, str], budget: float) -> tuple[str, list[list[int]]]:
    """`improve`'s start: the ladder shape, the user's answer (checked), or the best
    shipped answer; a bad choice ends with a one-line error."""
    from puzzlelab.cli.contract import read_solution
    from puzzlelab.puzzles.matchsticks.drawing import parse_any_solution
    from puzzlelab.puzzles.matchsticks.ladder import SHAPES, ladder_answer
    from puzzlelab.puzzles.matchsticks.model import Instance
    from puzzlelab.puzzles.matchsticks.records import best_shipped
    from puzzlelab.puzzles.matchsticks.verify import verify_solution

    shape, sides = shape_sides
    if start is not None and ladder is not None:
        fail("--ladder: give --start or --ladder, not both")
    if sides and ladder is None:
        fail("--ladder-sides: give it with --ladder")
    if ladder is not None:
        if ladder >= n:
            fail(f"--ladder: expected a tail below n = {n}, got {ladder}")
        if shape not in SHAPES:
            fail(f"--ladder-shape: expected one of {', '.join(SHAPES)}, got {shape!r}")
        if set(sides) - set("dlt") or len(sides) > MAX_N:
            fail(f"--ladder-sides: expected the letters d, l and t (one a block), got {sides!r}")
        where = f", sides {sides}" if sides else ""
        return f"ladder of {shape}{where} (tail {ladder})", ladder_answer(n, ladder, shape, Budget(budget), sides)[0]
    if start is None:
        try:
            shipped = best_shipped(n)
        except ValueError as exc:
            fail(f"shipped answers: {exc}")
        if shipped is None:
            fail(f"n: no answer of n = {n} ships; give one with --start FILE")
        return f"shipped {shipped[0]}", shipped[2]
    solution = read_solution(start, PUZZLE.max_input_bytes)
    verdict = verify_solution(Instance(n), solution)
    if not verdict.ok:
        fail(f"--start {start}: not a valid answer for n = {n}: {verdict.message}")
    parsed = parse_any_solution(solution)
    if parsed.roam:
        fail(f"--start {start}: squares stick out of the largest one (roam {parsed.roam}); expected every square inside it")
    return str(start), [[q.size, q.x, q.y] for q in parsed.squares]


COMMANDS = {"table": table, "records": records, "improve": improve}
