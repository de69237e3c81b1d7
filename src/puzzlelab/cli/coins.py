"""Extra CLI verbs of the coins puzzle: `bfs` (all targets of one start), `batch` (every
puzzle of a font), `table` (the shipped table of optima) and `animate` (an HTML
step-through and animated SVG of a solution).

Each answer is verified by the independent checker before it is printed or stored.
Errors follow the CLI contract: bad input exits 2 with a message, a rejected answer 3,
an unusable records store 4; no answer within the budget exits 1.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from puzzlelab.cli.contract import read_solution
from puzzlelab.cli.errors import EXIT_INTERNAL, EXIT_NO_ANSWER, err, fail, out, user_errors
from puzzlelab.cli.running import progress_printer, run_interruptibly, store_result
from puzzlelab.core.files import check_output_file, check_output_folder, write_output
from puzzlelab.core.inputs import check_number, decode_bytes, read_text_file
from puzzlelab.core.puzzle import InvalidInstance, names_a_file
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.memory import memory_available
from puzzlelab.puzzles.coins.render import animated_svg, html_stepper
from puzzlelab.puzzles.coins.verify import parse_moves

__all__ = ["COMMANDS"]

START_BYTES = 100_000  # one glyph's rows: a few hundred bytes


def bfs(
    start: Annotated[str, typer.Argument(help="The start: a glyph name like font5x7:A, or one glyph as rows of o and - (rows split by / or newlines; a file; - for standard input).")],
    targets: Annotated[Optional[str], typer.Option(help="Target glyphs, comma separated (default: every other glyph of the font).")] = None,
    workdir: Annotated[Optional[Path], typer.Option(help="Folder for the level array and its checkpoint.")] = None,
    resume: Annotated[bool, typer.Option(help="Resume from the folder's checkpoint when it matches.")] = True,
    max_memory_gb: Annotated[Optional[float], typer.Option(help="Refuse when the array needs more (default: memory available).")] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed (default: no limit).", min=0)] = None,
    mode: Annotated[str, typer.Option(help="Level expansion: auto, push or pull.")] = "auto",
    symmetry: Annotated[bool, typer.Option(help="Store one board per orbit when a mirror or turn of the board fixes the start.")] = True,
    threads: Annotated[int, typer.Option(help="Threads expanding each level (default 0: every core this process may use).", min=0, max=1024)] = 0,
    engine: Annotated[str, typer.Option(help="Level array: auto (one byte a board when it fits in memory, else two bits a board with the levels on disk, as 5 x 9 needs), byte or twobit.")] = "auto",
    store: Annotated[bool, typer.Option(help="Keep the verified results in the records store.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
) -> None:
    """Breadth-first search from one start over every ranked board (one byte a board,
    or two with each level on disk for 5 x 9; checkpointed per level): optimal moves to
    every target in one run. Refused up front, with the figures, when the memory or
    the disk is short.

    Example: puzzlelab coins bfs font5x7:A
    """
    from puzzlelab.core.memory import peak_memory_bytes
    from puzzlelab.puzzles.coins.bfs.byte_bfs import MODES
    from puzzlelab.puzzles.coins.bfs.engine import open_bfs_run
    from puzzlelab.puzzles.coins.bfs.two_bit_bfs import TwoBitRun

    with user_errors():
        if mode not in MODES:
            raise InvalidInstance(f"option --mode: expected one of {', '.join(MODES)}, got {mode!r}", "mode")
        limit = None if max_memory_gb is None else int(check_number(max_memory_gb, "--max-memory-gb", minimum=0, maximum=1e9) * 1e9)
        if workdir is not None:
            check_output_folder(workdir, "--workdir")
        begin = model.parse_start(_read_start(start))
        wanted = _targets(begin, targets)
        folder = workdir or Path("puzzlelab-out") / "coins-bfs" / begin.key.replace(":", "_").replace("/", "slash")
        run = open_bfs_run(begin, folder, engine=engine, max_memory_bytes=limit, resume=resume, symmetry=symmetry, threads=threads)
        run_budget = Budget(budget)
        try:
            if run.resumed and not quiet:
                err.print(f"resuming {folder} after level {len(run.state['counts']) - 1}", markup=False)
            outcome = run_interruptibly(
                lambda: run.run(dict(wanted), budget=run_budget, progress=progress_printer(quiet), mode=mode), run_budget
            )
            checked = [_target_row(run, outcome, begin, name, board) for name, board in wanted.items()]
        finally:
            run.close()
        rows = [row for row, _ in checked]
        summary = {
            "start": begin.key,
            "levels": outcome.levels,
            "boards": sum(outcome.levels),
            "finished": outcome.finished,
            "seconds": round(outcome.seconds, 3),
            # every level's figures, resumed runs' levels too; the peak is this process's
            "level_wall_seconds": round(sum(row.get("seconds", 0.0) for row in outcome.history), 3),
            "cpu_seconds": round(sum(row.get("cpu_seconds", 0.0) for row in outcome.history), 3),
            "peak_memory_bytes": peak_memory_bytes(),
            "engine": "twobit" if isinstance(run, TwoBitRun) else "byte",
            "threads": run.threads,
            "symmetry": run.symmetries,
            "workdir": str(folder),
            "targets": rows,
        }
        if as_json:
            out.print_json(json.dumps(summary), indent=None)
        else:
            _print_bfs(begin, outcome, rows, folder)
        for _, answer in checked:  # after the answers: a store that fails costs an error line, not them
            if store and answer is not None:
                store_result(PUZZLE, *answer)
        if any(row["moves"] is None for row in rows) and not outcome.finished:
            raise typer.Exit(EXIT_NO_ANSWER)


def _read_start(start: str) -> str:
    """The start as text: standard input for '-', a file's text, or the argument (bytes
    that are not UTF-8 text are a clear error, through `core.inputs`)."""
    if start == "-":
        stream = getattr(sys.stdin, "buffer", None)
        raw = stream.read(START_BYTES + 1) if stream is not None else sys.stdin.read(START_BYTES + 1).encode()
        return decode_bytes(raw, "standard input", START_BYTES)
    if names_a_file(start):
        return read_text_file(start, "start file", START_BYTES)
    return start


def _target_row(run, outcome, begin: model.Start, name: str, board: int) -> tuple[dict[str, Any], tuple | None]:
    """One target's line of the bfs report, and (instance, result) to store for a
    reached target, whose path is checked by the independent checker first
    (WrongAnswer if rejected)."""
    row: dict[str, Any] = {"target": name, "moves": None, "verified": False}
    if name not in outcome.found:
        return row, None
    instance = _instance(begin, name, board)
    moves = run.moves(board)
    result = Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves), stats={"seconds": round(outcome.seconds, 3)})
    PUZZLE.check(instance, result)
    published = PUZZLE.published(instance.key)
    row.update(moves=len(moves), verified=True, published=None if published is None else published["value"], solution=moves)
    return row, (instance, result)


def _print_bfs(begin: model.Start, outcome, rows: list[dict[str, Any]], folder: Path) -> None:
    for row in rows:
        pub = "" if row.get("published") is None else f"  published {row['published']}"
        text = "not reached" if row["moves"] is None else f"{row['moves']} moves, verified{pub}"
        out.print(f"{begin.key} -> {row['target']}: {text}", markup=False)
    out.print(
        f"{sum(outcome.levels):,} boards in {len(outcome.levels) - 1} levels, {outcome.seconds:.1f} s"
        f"{' (every reachable board)' if outcome.finished else ''}; array in {folder}",
        markup=False,
    )


def _targets(begin: model.Start, text: Optional[str]) -> dict[str, int]:
    if begin.font is None:
        if not text:
            raise InvalidInstance("targets: a start given as rows needs --targets, each target as rows (separate with ';')", "targets")
        found = {}
        for i, block in enumerate(text.split(";")):
            w, h, mask = model.rows_to_mask(block.replace("/", "\n"), "targets")
            if (w, h) != (begin.width, begin.height) or model.popcount(mask) != model.popcount(begin.board):
                raise InvalidInstance("targets: each target needs the start's size and number of coins", "targets")
            found[f"target{i + 1}"] = mask
        return found
    font = model.fonts()[begin.font]
    names = [g for g in font["order"] if g != begin.glyph] if not text else [t.strip() for t in text.split(",") if t.strip()]
    found = {}
    for name in names:
        glyph = name.upper() if name.upper() in font["glyphs"] else name
        if glyph not in font["glyphs"]:
            raise InvalidInstance(f"targets: {begin.font} has no glyph {name!r}; expected glyphs among {' '.join(font['order'])}", "targets")
        found[glyph] = font["glyphs"][glyph]
    return found


def _instance(begin: model.Start, name: str, board: int) -> model.Instance:
    if begin.font is not None:
        return model.parse_instance(f"{begin.font}:{begin.glyph}-{name}")
    return model.Instance(begin.width, begin.height, begin.board, board)


def batch(
    font: Annotated[str, typer.Option("--font", help="The font: font5x7 or font5x9.")],
    method: Annotated[str, typer.Option(help="auto (bfs when its array fits in memory, else bidir), bfs or bidir.")] = "auto",
    starts: Annotated[Optional[str], typer.Option(help="Only these start glyphs, comma separated.")] = None,
    targets: Annotated[Optional[str], typer.Option(help="Only these target glyphs, comma separated.")] = None,
    workers: Annotated[Optional[int], typer.Option(help="Worker processes (default: CPUs, fewer if memory is short).", min=1)] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds for the whole batch (default: no limit).", min=0)] = None,
    memory_mb: Annotated[int, typer.Option(help="bidir: memory bound per puzzle in MB.", min=16)] = 1024,
    engine: Annotated[str, typer.Option(help="bfs: level array, chosen on the machine running each start: auto, byte or twobit (5 x 9).")] = "auto",
    workdir: Annotated[Optional[Path], typer.Option(help="Folder for the bfs level arrays and their checkpoints (default: puzzlelab-out/coins-batch).")] = None,
    redo: Annotated[bool, typer.Option(help="Solve again puzzles the records store already holds.")] = False,
    backend: Annotated[str, typer.Option(help="Where the tasks run: local (worker processes) or ray (a Ray cluster).")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: the RAY_ADDRESS environment variable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary at the end.")] = False,
) -> None:
    """Solve every puzzle of a font (37 x 36) in worker processes (one task per start
    with bfs, per puzzle with bidir); each answer is replayed by the checker, then goes
    to the records store as it arrives. Run it again to resume: stored optima are
    skipped, bfs arrays resume from their checkpoint.

    Example: puzzlelab coins batch --font font5x7
    """
    from puzzlelab.puzzles.coins.batch import METHODS, run_batch
    from puzzlelab.puzzles.coins.bfs.engine import ENGINES

    with user_errors():
        if method not in METHODS:
            raise InvalidInstance(f"option --method: expected one of {', '.join(METHODS)}, got {method!r}", "method")
        if engine not in ENGINES:
            raise InvalidInstance(f"option --engine: expected one of {', '.join(ENGINES)}, got {engine!r}", "engine")
        if backend not in ("local", "ray"):
            raise InvalidInstance(f"option --backend: expected local or ray, got {backend!r}", "backend")
        if workdir is None:
            workdir = Path("puzzlelab-out/coins-batch")
        elif workdir.exists() and not workdir.is_dir():
            raise InvalidInstance(f"--workdir {workdir}: is a file; expected a folder for the bfs level arrays", "workdir")
        else:
            check_output_folder(workdir, "--workdir")
        if backend == "local":
            _check_workers_fit(workers, memory_mb)
        run_budget = Budget(budget)

        def on_result(key: str, result) -> None:
            if not as_json:
                text = f"{result.value} moves, verified" if result.solution is not None else f"not solved ({result.status.value})"
                out.print(f"{key}: {text}", markup=False, emoji=False)

        def on_error(name: str, error: str) -> None:
            err.print(f"{name}: task failed: {error}", markup=False, emoji=False)  # "font5x9:A:" is no emoji

        report = run_interruptibly(
            lambda: run_batch(
                PUZZLE, font, method=method, starts=starts, targets=targets, workers=workers, budget=run_budget,
                workdir=str(workdir), options={"memory_mb": memory_mb, "engine": engine}, redo=redo, on_result=on_result, on_error=on_error,
                backend=backend, address=address or os.environ.get("RAY_ADDRESS"),
            ),
            run_budget,
        )
        if as_json:
            out.print_json(json.dumps(report.to_dict()), indent=None)
        else:
            out.print(
                f"{font}: {report.solved} solved and stored, {report.skipped} already stored, "
                f"{report.unsolved} unsolved, {report.infeasible} proven unreachable, {report.failed_groups} failed tasks, {report.seconds:.1f} s",
                markup=False,
            )
        if report.unsolved or report.failed_groups:
            raise typer.Exit(EXIT_NO_ANSWER)


def _check_workers_fit(workers: Optional[int], memory_mb: int) -> None:
    """Local bidir workers, each bounded by --memory-mb (at most the memory available),
    must fit in memory together."""
    if workers is None:
        return
    available = memory_available()
    each = min(memory_mb * 2**20, available)
    if workers * each > available:
        raise InvalidInstance(
            f"--workers {workers} x --memory-mb {each // 2**20:,} = {workers * each / 2**30:,.1f} GB, more than the "
            f"{available / 2**30:,.1f} GB available here; give fewer workers or a smaller --memory-mb",
            "workers",
            413,
        )


def table(
    font: Annotated[str, typer.Option("--font", help="The font whose shipped table to print (tables ship for font5x7).")] = "font5x7",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object, with each puzzle's move list.")] = False,
) -> None:
    """Print the shipped table of optimal solutions: one line `start target moves` a
    puzzle, then a summary line (`#`) of how many of the font's puzzles it holds. Each
    move list is replayed by the independent checker before anything is printed; each
    length was proven by the project's own full BFS from its start.

    Example: puzzlelab coins table --font font5x7 --json
    """
    from puzzlelab.puzzles.coins.optimal_table import CorruptTable, load_table

    with user_errors():
        try:
            shipped = load_table(font)
            rows = list(shipped.entries())
        except CorruptTable as exc:
            fail(f"{exc}; the search methods still answer (--method bidir)", EXIT_INTERNAL)
        summary = f"{shipped.coverage()}; every move list replayed; lengths proven by full BFS ({shipped.provenance.get('command')})"
        if as_json:
            puzzles = [{"start": e.start, "target": e.target, "moves": e.moves, "solution": e.solution} for e in rows]
            report = {"font": shipped.font, "puzzles_in_table": len(rows), "puzzles_in_font": shipped.total, "starts": shipped.starts,
                      "provenance": shipped.provenance, "puzzles": puzzles}
            typer.echo(json.dumps(report))  # plain: rich's print_json takes seconds over a table this size
            return
        out.print("\n".join(f"{e.start} {e.target} {e.moves}" for e in rows), markup=False)
        out.print(f"# {summary}", markup=False)


def animate(
    instance: Annotated[str, typer.Argument(help="Catalog name (font5x7:A-B), file, or - for standard input.")],
    html: Annotated[Optional[Path], typer.Option(help="Write an HTML page stepping through the solution.")] = None,
    svg: Annotated[Optional[Path], typer.Option(help="Write an animated SVG of the solution.")] = None,
    solution: Annotated[Optional[Path], typer.Option(help="Use this solution file instead of solving.")] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed for solving.", min=0)] = None,
    force: Annotated[bool, typer.Option(help="Let --html and --svg replace files that puzzlelab did not write.")] = False,
) -> None:
    """Draw a solution (from the shipped table of optima, else solved with bidir; or
    read from --solution and verified) as an HTML step-through and/or an animated SVG.

    Example: puzzlelab coins animate font5x7:O-C --html oc.html --svg oc.svg
    """
    with user_errors():
        protect = [(instance, "the instance file"), (solution, "the --solution file")]
        loaded = PUZZLE.load(instance)
        if html is None and svg is None:
            html = Path(f"{loaded.key.replace(':', '_').replace('/', 'slash')}.html")
        for path, flag in ((html, "--html"), (svg, "--svg")):
            if path is not None:
                check_output_file(path, flag, force=force, protect=protect)
        if solution is not None:
            given = read_solution(solution, PUZZLE.max_input_bytes)
            verdict = PUZZLE.verify(loaded, given)
            if not verdict.ok:
                raise InvalidInstance(f"solution: {verdict.message}", "solution")
            moves = [list(move) for move in parse_moves(given)]
        else:
            run_budget = Budget(PUZZLE.default_budget if budget is None else budget)
            result = run_interruptibly(lambda: PUZZLE.solve(loaded, PUZZLE.default_method, budget=run_budget), run_budget)
            if result.solution is None:
                err.print(f"no solution found within the budget ({result.status.value})", markup=False)
                raise typer.Exit(EXIT_NO_ANSWER)
            moves = result.solution
        out.print(f"{loaded.key}: {len(moves)} moves, verified", markup=False)
        if html is not None:
            write_output(html, html_stepper(loaded, moves), "--html", force=force, protect=protect, kind="html")
            out.print(f"wrote {html}", markup=False)
        if svg is not None:
            write_output(svg, animated_svg(loaded, moves), "--svg", force=force, protect=protect, kind="svg")
            out.print(f"wrote {svg}", markup=False)


COMMANDS: dict[str, Callable[..., Any]] = {"bfs": bfs, "batch": batch, "table": table, "animate": animate}
