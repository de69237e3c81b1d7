"""Extra CLI verbs of the coins puzzle: `bfs` (all targets of one start), `batch` (every
puzzle of a font) and `animate` (an HTML step-through and animated SVG of a solution).

Each answer is verified by the independent checker before it is printed or stored.
Errors follow the CLI contract: bad input exits 2 with a message, a rejected answer 3,
an unusable records store 4; no answer within the budget exits 1.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Optional

import typer

from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Budget, Progress
from puzzlelab.core.store import StoreError

__all__ = ["COMMANDS"]


def _echo(text: str, err: bool = False) -> None:
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except InvalidInstance as exc:
        _echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except WrongAnswer as exc:
        _echo(f"internal error (please report): {exc}", err=True)
        raise typer.Exit(3) from None
    except StoreError as exc:
        _echo(f"error: {exc}", err=True)
        raise typer.Exit(4) from None


def _interruptible(work: Callable[[], Any], budget: Budget) -> Any:
    """Run `work` in a thread; Ctrl-C cancels the budget (the search stops at the next
    poll and keeps what it found; a bfs run keeps its checkpoint)."""

    def on_interrupt(_count: int) -> None:
        _echo("\ninterrupted: stopping after the current block (the checkpoint is kept)", err=True)
        budget.cancel()

    return run_in_thread(work, on_interrupt)


def _progress(quiet: bool) -> Callable[[Progress], None]:
    def report(event: Progress) -> None:
        if quiet:
            return
        fraction = "" if event.fraction is None else f" {100 * event.fraction:5.1f}%"
        stats = "  ".join(f"{k} {v}" for k, v in event.stats.items())
        _echo(f"  {event.phase} ({event.message}){fraction}  {stats}", err=True)

    return report


def bfs(
    start: Annotated[str, typer.Argument(help="The start: a glyph name like font5x7:A, or one glyph as rows of o and - (rows split by / or newlines; a file; - for standard input).")],
    targets: Annotated[Optional[str], typer.Option(help="Target glyphs, comma separated (default: every other glyph of the font).")] = None,
    workdir: Annotated[Optional[Path], typer.Option(help="Folder for the level array and its checkpoint.")] = None,
    resume: Annotated[bool, typer.Option(help="Resume from the folder's checkpoint when it matches.")] = True,
    max_memory_gb: Annotated[Optional[float], typer.Option(help="Refuse when the array needs more (default: memory available).")] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed (default: no limit).", min=0)] = None,
    mode: Annotated[str, typer.Option(help="Level expansion: auto, push or pull.")] = "auto",
    symmetry: Annotated[bool, typer.Option(help="Store one board per orbit when a mirror or turn of the board fixes the start.")] = True,
    store: Annotated[bool, typer.Option(help="Keep the verified results in the records store.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
) -> None:
    """Breadth-first search from one start over every ranked board (one byte a board,
    file-backed, checkpointed per level): optimal moves to every target in one run.

    Example: puzzlelab coins bfs font5x7:A
    """
    from puzzlelab.puzzles.coins import PUZZLE, model
    from puzzlelab.puzzles.coins.bfs import MODES, LevelArrayRun

    with _errors():
        if mode not in MODES:
            raise InvalidInstance(f"option --mode: expected one of {', '.join(MODES)}, got {mode!r}", "mode")
        if start == "-":
            start = sys.stdin.read(100_000)
        elif "\n" not in start and len(start) < 4096 and Path(start).is_file():
            start = Path(start).read_text()
        begin = model.parse_start(start)
        wanted = _targets(begin, targets)
        folder = workdir or Path("puzzlelab-out") / "coins-bfs" / begin.key.replace(":", "_").replace("/", "slash")
        limit = None if max_memory_gb is None else int(max_memory_gb * 1e9)
        run = LevelArrayRun(begin, folder, max_memory_bytes=limit, resume=resume, symmetry=symmetry)
        run_budget = Budget(budget)
        try:
            if run.resumed and not quiet:
                _echo(f"resuming {folder} after level {len(run.state['counts']) - 1}", err=True)
            outcome = _interruptible(lambda: run.run({n: b for n, b in wanted.items()}, budget=run_budget, progress=_progress(quiet), mode=mode), run_budget)
            rows = []
            for name, board in wanted.items():
                row: dict[str, Any] = {"target": name, "moves": None, "verified": False}
                if name in outcome.found:
                    instance = _instance(begin, name, board)
                    from puzzlelab.core.result import Result, Status

                    moves = run.moves(board)
                    result = Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves), stats={"seconds": round(outcome.seconds, 3)})
                    PUZZLE.check(instance, result)
                    if store:
                        from puzzlelab.core.store import Store

                        Store().add(PUZZLE.name, instance.key, result, PUZZLE.sense)
                    published = PUZZLE.published(instance.key)
                    row.update(moves=len(moves), verified=True, published=None if published is None else published["value"], solution=moves)
                rows.append(row)
        finally:
            run.close()
        summary = {
            "start": begin.key,
            "levels": outcome.levels,
            "boards": sum(outcome.levels),
            "finished": outcome.finished,
            "seconds": round(outcome.seconds, 3),
            "symmetry": run.symmetries,
            "workdir": str(folder),
            "targets": rows,
        }
        if as_json:
            _echo(json.dumps(summary))
        else:
            for row in rows:
                pub = "" if row.get("published") is None else f"  published {row['published']}"
                text = "not reached" if row["moves"] is None else f"{row['moves']} moves, verified{pub}"
                _echo(f"{begin.key} -> {row['target']}: {text}")
            _echo(
                f"{sum(outcome.levels):,} boards in {len(outcome.levels) - 1} levels, {outcome.seconds:.1f} s"
                f"{' (every reachable board)' if outcome.finished else ''}; array in {folder}"
            )
        if any(row["moves"] is None for row in rows) and not outcome.finished:
            raise typer.Exit(1)


def _targets(begin, text: Optional[str]) -> dict[str, int]:
    from puzzlelab.puzzles.coins import model

    if begin.font is None:
        if not text:
            raise InvalidInstance("targets: a start given as rows needs --targets, each target as rows (separate with ';')", "targets")
        out = {}
        for i, block in enumerate(text.split(";")):
            w, h, mask = model.rows_to_mask(block.replace("/", "\n"), "targets")
            if (w, h) != (begin.width, begin.height) or model.popcount(mask) != model.popcount(begin.board):
                raise InvalidInstance("targets: each target needs the start's size and number of coins", "targets")
            out[f"target{i + 1}"] = mask
        return out
    font = model.fonts()[begin.font]
    names = [g for g in font["order"] if g != begin.glyph] if not text else [t.strip() for t in text.split(",") if t.strip()]
    out = {}
    for name in names:
        glyph = name.upper() if name.upper() in font["glyphs"] else name
        if glyph not in font["glyphs"]:
            raise InvalidInstance(f"targets: {begin.font} has no glyph {name!r}; expected glyphs among {' '.join(font['order'])}", "targets")
        out[glyph] = font["glyphs"][glyph]
    return out


def _instance(begin, name: str, board: int):
    from puzzlelab.puzzles.coins import model

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
    workdir: Annotated[Path, typer.Option(help="Folder for the bfs level arrays and their checkpoints.")] = Path("puzzlelab-out/coins-batch"),
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
    from puzzlelab.puzzles.coins import PUZZLE
    from puzzlelab.puzzles.coins.batch import METHODS, run_batch

    with _errors():
        if method not in METHODS:
            raise InvalidInstance(f"option --method: expected one of {', '.join(METHODS)}, got {method!r}", "method")
        if backend not in ("local", "ray"):
            raise InvalidInstance(f"option --backend: expected local or ray, got {backend!r}", "backend")
        run_budget = Budget(budget)

        def on_result(key: str, result) -> None:
            if not as_json:
                text = f"{result.value} moves, verified" if result.solution is not None else f"not solved ({result.status.value})"
                _echo(f"{key}: {text}")

        def on_error(name: str, error: str) -> None:
            _echo(f"{name}: task failed: {error}", err=True)

        report = _interruptible(
            lambda: run_batch(
                PUZZLE, font, method=method, starts=starts, targets=targets, workers=workers, budget=run_budget,
                workdir=str(workdir), options={"memory_mb": memory_mb}, redo=redo, on_result=on_result, on_error=on_error,
                backend=backend, address=address or os.environ.get("RAY_ADDRESS"),
            ),
            run_budget,
        )
        if as_json:
            _echo(json.dumps(report.to_dict()))
        else:
            _echo(
                f"{font}: {report.solved} solved and stored, {report.skipped} already stored, "
                f"{report.unsolved} unsolved, {report.infeasible} proven unreachable, {report.failed_groups} failed tasks, {report.seconds:.1f} s"
            )
        if report.unsolved or report.failed_groups:
            raise typer.Exit(1)


def animate(
    instance: Annotated[str, typer.Argument(help="Catalog name (font5x7:A-B), file, or - for standard input.")],
    html: Annotated[Optional[Path], typer.Option(help="Write an HTML page stepping through the solution.")] = None,
    svg: Annotated[Optional[Path], typer.Option(help="Write an animated SVG of the solution.")] = None,
    solution: Annotated[Optional[Path], typer.Option(help="Use this solution file instead of solving.")] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed for solving.", min=0)] = None,
) -> None:
    """Draw a solution (solved with bidir, or read from --solution and verified) as an
    HTML step-through and/or an animated SVG.

    Example: puzzlelab coins animate font5x7:O-C --html oc.html --svg oc.svg
    """
    from puzzlelab.puzzles.coins import PUZZLE
    from puzzlelab.puzzles.coins.render import animated_svg, html_stepper

    with _errors():
        loaded = PUZZLE.load(instance)
        if solution is not None:
            if not solution.is_file():
                raise InvalidInstance(f"solution file {solution}: no such file", "solution")
            verdict = PUZZLE.verify(loaded, solution.read_text())
            if not verdict.ok:
                raise InvalidInstance(f"solution: {verdict.message}", "solution")
            moves = json.loads(solution.read_text())
            moves = moves.get("moves", moves.get("solution")) if isinstance(moves, dict) else moves
        else:
            run_budget = Budget(PUZZLE.default_budget if budget is None else budget)
            result = _interruptible(lambda: PUZZLE.solve(loaded, "bidir", budget=run_budget), run_budget)
            if result.solution is None:
                _echo(f"no solution found within the budget ({result.status.value})", err=True)
                raise typer.Exit(1)
            moves = result.solution
        if html is None and svg is None:
            html = Path(f"{loaded.key.replace(':', '_').replace('/', 'slash')}.html")
        if html is not None:
            html.write_text(html_stepper(loaded, moves))
            _echo(f"wrote {html}")
        if svg is not None:
            svg.write_text(animated_svg(loaded, moves))
            _echo(f"wrote {svg}")
        _echo(f"{loaded.key}: {len(moves)} moves, verified")


COMMANDS: dict[str, Callable[..., Any]] = {"bfs": bfs, "batch": batch, "animate": animate}
