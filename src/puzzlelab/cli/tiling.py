"""Extra CLI verbs of the tiling puzzle (typer-compatible functions; the CLI mounts them
under `puzzlelab tiling`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from puzzlelab.cli.errors import EXIT_NO_ANSWER, err, fail, out, user_errors
from puzzlelab.cli.running import bounded_range
from puzzlelab.core.files import check_output_file, check_output_folder, is_stream
from puzzlelab.core.inputs import check_output_path
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.puzzles.tiling.contest import MODES, PracticeContest
from puzzlelab.puzzles.tiling.model import MAX_SIDE

__all__ = ["table_command", "contest_server_command", "contest_command"]


def table_command(
    m: Annotated[str, typer.Option("--m", help="Rectangle heights: a number, a range 1..15, or a list 1,3,5..7.")] = "1..10",
    n: Annotated[str, typer.Option("--n", help="Rectangle widths, like --m.")] = "1..60",
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed in all (default: no limit).", min=0)] = None,
    max_memory_mb: Annotated[float, typer.Option(help="Memory limit of one DP run, MB.")] = 2000.0,
    workers: Annotated[int, typer.Option(help="Worker processes (0 = PUZZLELAB_WORKERS or the CPU count).", min=0)] = 0,
    backend: Annotated[str, typer.Option(help="Where the strips run: local (worker processes) or ray.")] = "local",
    address: Annotated[
        Optional[str], typer.Option(help="Ray cluster address (default: env RAY_ADDRESS).", envvar="RAY_ADDRESS")
    ] = None,
    out_file: Annotated[
        Optional[str],
        typer.Option("--out", help="Append each finished row m to this `m n T` file; entries it holds are skipped (resume)."),
    ] = None,
) -> None:
    """Print OEIS A219158, the fewest squares tiling an m x n rectangle, as `m n T`
    lines computed by the exact column DP (one run per short side serves every long
    side; the runs are spread over worker processes, or a Ray cluster with --backend
    ray); every tiling is rebuilt and verified before its line is printed.

    With --out FILE the rows are computed one m at a time and each is appended to FILE
    (an OEIS b-file's layout, `m n T`) once verified; run it again to resume. With
    --out - (or /dev/stdout) the rows stream to standard output as they are verified.

    Example: puzzlelab tiling table --m 1..15 --n 1..100
    Example: puzzlelab tiling table --m 16..20 --n 16..100 --out a219158.txt
    """
    from puzzlelab.core.parallel import BACKENDS
    from puzzlelab.puzzles.tiling.a219158 import read_table_file, start_table_file
    from puzzlelab.puzzles.tiling.dp import DPStopped  # the DP's numba kernels: only for this verb
    from puzzlelab.puzzles.tiling.rectangles import table_rows

    with user_errors():
        ms = bounded_range(m, "m", 1, MAX_SIDE)
        ns = bounded_range(n, "n", 1, MAX_SIDE)
        for value, name in ((ms, "m"), (ns, "n")):
            if min(value) < 1:
                raise InvalidInstance(f"{name}: sides must be at least 1", name)
        if backend not in BACKENDS:
            raise InvalidInstance(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}", "backend")
        if out_file is not None:
            # a table file is resumed, never replaced: any file may be it, its lines say
            check_output_file(out_file, "--out", recognise=lambda head: True)
            done = read_table_file(out_file)
            start_table_file(out_file)
        try:
            if out_file is not None:
                rows = _resume_rows(ms, ns, done, out_file, budget=budget, max_memory_mb=max_memory_mb, workers=workers or None,
                                    backend=backend, address=address)  # fmt: skip
            else:
                rows = table_rows(
                    ms, ns, budget=budget, max_memory_mb=max_memory_mb, workers=workers or None, backend=backend, address=address
                )
        except DPStopped as stop:
            err.print(f"stopped ({stop.reason}) before the table was complete", markup=False)
            raise typer.Exit(EXIT_NO_ANSWER) from None
        except WrongAnswer:
            raise  # user_errors: exit 3
        except RuntimeError as exc:  # the ray backend is not installed or not reachable
            fail(str(exc))
        if out_file is not None and is_stream(out_file):
            return  # the rows went to standard output as they were verified
        out.print("m\tn\tT", markup=False)
        for row in rows:
            out.print(f"{row[0]}\t{row[1]}\t{row[2]}" if isinstance(row, tuple) else f"{row.m}\t{row.n}\t{row.squares}", markup=False)


def _resume_rows(ms, ns, done, out_file, **options) -> list:
    """The table one m at a time: entries already in `out_file` are taken from it, the
    rest computed (`table_rows`), verified and appended before the next m starts. The
    shipped rows 16..20 and the file's entries bound the sweeps of the rows past them."""
    from puzzlelab.puzzles.tiling.a219158 import append_row, computed_rows
    from puzzlelab.puzzles.tiling.rectangles import table_rows

    known = dict(computed_rows())
    rows = []
    for m in ms:
        missing = [n for n in ns if (m, n) not in done]
        if missing:
            started = time.monotonic()
            known.update({(min(a, b), max(a, b)): t for (a, b), t in done.items()})
            answers = table_rows([m], missing, known=known, **options)
            done.update({(a.m, a.n): a.squares for a in answers})
            append_row(out_file, [(a.m, a.n, a.squares) for a in answers],
                       note=f"m = {m}: exact column DP, each tiling verified ({time.monotonic() - started:.1f} s)")  # fmt: skip
        rows.extend((m, n, done[(m, n)]) for n in ns)
    return rows


def contest_server_command(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback unless told otherwise).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8100,
    seed: Annotated[int, typer.Option(help="Seed of the puzzle sequence (same seed, same puzzles).")] = 2015,
    deadline: Annotated[float, typer.Option(help="Seconds from issue before the time penalty starts.", min=0.1)] = 10.0,
) -> None:
    """Run a practice server speaking the Cimpress Tech Challenge API:
    GET /{key}/{trial|contest}/puzzle and POST /{key}/{mode}/solution.

    Example: puzzlelab tiling contest-server --port 8100
    """
    from puzzlelab.service.contest_server import serve  # FastAPI and uvicorn: loaded only for this verb

    typer.echo(f"practice contest server on http://{host}:{port}/  (seed {seed}, deadline {deadline:g} s)")
    serve(PracticeContest(seed=seed, deadline=deadline), host=host, port=port)


def contest_command(
    server: Annotated[str, typer.Option(help="Base URL of the contest server, e.g. http://127.0.0.1:8100.")],
    key: Annotated[str, typer.Option(help="Your contest key.")],
    count: Annotated[int, typer.Option(help="How many puzzles to fetch and answer.", min=1)] = 1,
    mode: Annotated[str, typer.Option(help="trial or contest.")] = "trial",
    deadline: Annotated[float, typer.Option(help="The contest's seconds from issue to answer.", min=0.5)] = 10.0,
    margin: Annotated[float, typer.Option(help="Seconds kept back for the round trip.", min=0.0)] = 1.5,
    seconds: Annotated[Optional[float], typer.Option(help="Cap on solving seconds per puzzle.", min=0.1)] = None,
    save_dir: Annotated[str, typer.Option(help="Folder for the puzzles (<id>.json) and contest-log.jsonl.")] = "contest-puzzles",
    workers: Annotated[int, typer.Option(help="Worker processes for auto (0 = the CPU count).", min=0)] = 0,
) -> None:
    """Fetch puzzles from a contest server, solve each with `auto` under the deadline
    less a margin, post the verified squares, log the score and save the puzzle so
    `puzzlelab tiling solve <saved>.json` re-solves it.

    Example: puzzlelab tiling contest --server http://127.0.0.1:8100 --key me --count 20
    """
    from puzzlelab.puzzles.tiling.contest_client import run_contest  # the solvers (numba): only for this verb

    if mode not in MODES:
        fail(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")

    def show(entry) -> None:
        answer = entry.answer
        errors = "; ".join(answer.get("errors") or []) or "none"
        out.print(
            f"{entry.id}  {entry.width}x{entry.height}  squares {entry.squares} ({entry.status})  "
            f"posted after {entry.seconds_to_post:.2f} s  score {answer.get('score')}  "
            f"penalty {answer.get('timePenalty')}  errors {errors}  saved {entry.saved}",
            markup=False,
        )

    with user_errors():
        folder = contest_folder(save_dir)
        try:
            logs = run_contest(server, key, count, mode=mode, deadline=deadline, margin=margin, seconds=seconds,
                               save_dir=folder, workers=workers, on_answer=show)
        except OSError as exc:  # urllib.error.URLError is an OSError
            fail(f"server: cannot reach {server} ({exc})", EXIT_NO_ANSWER)
    scores = [e.answer.get("score") for e in logs if e.answer.get("score") is not None]
    if scores:
        out.print(f"{len(logs)} puzzles, mean squares {sum(e.squares for e in logs) / len(logs):.2f}, "
                  f"total score {sum(scores)}, slowest post {max(e.seconds_to_post for e in logs):.2f} s", markup=False)


def contest_folder(save_dir: str) -> Path:
    """The folder `contest` saves puzzles and its log in, made and checked before the
    first puzzle is fetched (a file in the way, a folder in one that does not exist, a
    folder that cannot be made or written: a one-line error, and no puzzle of the
    contest is lost)."""
    folder = Path(save_dir)
    if folder.exists() and not folder.is_dir():
        raise InvalidInstance(f"--save-dir {folder}: is a file; expected a folder", "save_dir")
    check_output_folder(folder, "--save-dir")  # made inside a folder that exists, never from the root up
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise InvalidInstance(f"--save-dir {folder}: cannot be made ({exc.strerror or exc})", "save_dir") from None
    check_output_path(folder / "contest-log.jsonl", "--save-dir")
    return folder


COMMANDS = {"table": table_command, "contest-server": contest_server_command, "contest": contest_command}
