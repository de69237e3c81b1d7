"""The verbs that bind the puzzles together: records, tour, serve, bench."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from puzzlelab.cli.errors import EXIT_BAD_INPUT, EXIT_NO_ANSWER, err, out, user_errors
from puzzlelab.cli.listing import beats_and_ties, shipped_rows, shipped_tables
from puzzlelab.cli.running import store_result
from puzzlelab.core.files import check_output_folder, write_output
from puzzlelab.core.lifeline import preexec_die_with_parent
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.records_check import checked_best
from puzzlelab.core.store import Store
from puzzlelab.puzzles import REGISTRY
from puzzlelab.service.capacity import DEFAULT_FINISHED_KEPT, DEFAULT_MAX_BUDGET, DEFAULT_MAX_QUEUED, MAX_CONNECTIONS, REQUEST_SECONDS

__all__ = ["records", "tour", "serve", "bench"]


def records(
    puzzle: Annotated[Optional[str], typer.Option(help="Only this puzzle.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    shipped: Annotated[Optional[bool], typer.Option(
        "--shipped/--no-shipped", help="Also list what the package ships (default: yes; with --json only when given).")] = None,
    every: Annotated[bool, typer.Option("--all", help="List every shipped row (a file of many rows is otherwise one line).")] = False,
) -> None:
    """What the package ships that this project computed (proofs, new records, tables),
    each checked again by its puzzle's checker, and this machine's records store (local),
    each record checked again before it is listed; beside the published value. A shipped
    row that fails is listed as FAILED with the reason; a store record that fails is named
    on stderr. --json prints the store's records (a list, as it always has); --json
    --shipped prints {"shipped": [...], "local": [...]}.

    Example: puzzlelab records --puzzle tiling
    """
    with user_errors():
        if puzzle is not None and puzzle not in REGISTRY:
            from puzzlelab.puzzles import get

            get(puzzle)
        checked = checked_best(Store(), REGISTRY, puzzle)
        for passed_over in checked.rejected:
            err.print(passed_over.line(), markup=False)
        rows = []
        for record in checked.records:
            published = REGISTRY[record.puzzle].published(record.instance) if record.puzzle in REGISTRY else None
            rows.append((record, published))
        listed = shipped_rows(puzzle) if (shipped if shipped is not None else not as_json) else None
        if as_json:
            local = [dict(r.to_dict(), published=p, origin="local") for r, p in rows]
            payload: Any = local if listed is None else {
                "shipped": [dict(row.view(), puzzle=row.puzzle, published=p) for row, p in listed], "local": local}
            out.print_json(json.dumps(payload, default=str), indent=None)
            return
        if listed:
            for line in beats_and_ties(listed):
                out.print(line, markup=False)
            for table in shipped_tables(listed, every, puzzle):
                out.print(table)
        out.print(_local_table(rows) if rows else "no local records yet: solve something, e.g. puzzlelab tour")


def _local_table(rows: list) -> Table:
    table = Table("puzzle", "instance", "value", "status", "bound", "method", "seconds", "published",
                  title="local: this machine's records store, each checked now")
    for record, published in rows:
        pub = "" if not published else f"{published['value']}{' (proven)' if published.get('proven') else ''}"
        table.add_row(
            record.puzzle,
            record.instance,
            str(record.value),
            record.status,
            "" if record.bound is None else str(record.bound),
            record.method,
            "" if record.seconds is None else f"{record.seconds:.2f}",
            pub,
        )
    return table


def tour(
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Folder for the pictures (default: puzzlelab-out/tour).")] = None,
    budget: Annotated[Optional[float], typer.Option(help="Seconds per puzzle (default: each puzzle's tour budget).")] = None,
    store: Annotated[bool, typer.Option(help="Keep the verified results in the records store.")] = True,
    warm_up: Annotated[bool, typer.Option("--warm-up", help="Also compile the kernels the tour does not reach (make install does this once).")] = False,
) -> None:
    """Solve one named instance of every registered puzzle with its default method and a
    short budget; print each answer, its verification and where its picture went.

    Example: puzzlelab tour --budget 5
    """
    if not REGISTRY:
        out.print("no puzzles registered yet")
        return
    with user_errors():
        if out_dir is not None:
            check_output_folder(out_dir, "--out")
        out_dir = out_dir or Path("puzzlelab-out/tour")
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidInstance(f"--out {out_dir}: the folder cannot be made ({exc.strerror or exc})", "out") from None
    failures = 0
    for puzzle in REGISTRY.values():
        try:
            with user_errors():
                instance = puzzle.load(puzzle.tour_instance)
                seconds = puzzle.tour_budget if budget is None else budget
                result = puzzle.solve(instance, budget=seconds)
                picture = out_dir / f"{puzzle.name}.svg"
                check = "verified" if result.verified else f"NOT verified: {result.verdict.message if result.verdict else ''}"
                out.print(
                    f"{puzzle.name:<12} {puzzle.tour_instance:<16} {puzzle.value_name} {result.value} "
                    f"[{result.status.value}] by {result.method} in {result.stats.get('seconds', 0):.2f} s, {check} -> {picture}",
                    markup=False,
                )
                failures += not result.verified
                write_output(picture, puzzle.render_svg(instance, result), "--out", kind="svg")
                if store and result.verified:
                    store_result(puzzle, instance, result)
        except typer.Exit:
            failures += 1
        if warm_up:
            started = time.perf_counter()
            puzzle.warm_up()
            out.print(f"{puzzle.name:<12} kernels compiled in {time.perf_counter() - started:.1f} s")
    if failures:
        raise typer.Exit(EXIT_NO_ANSWER)


def check_port_free(host: str, port: int) -> None:
    """Refuse a port another server listens on, with a clear message, before starting.
    SO_REUSEADDR, as uvicorn's own socket has: connections a killed server left in
    TIME_WAIT must not block a restart on the same port."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise InvalidInstance(f"--port: cannot listen on {host}:{port} ({exc.strerror}); pick another port", "port") from None


def ignore_broken_pipes() -> None:
    """A server goes on when a pipe or socket it writes to is closed: a worker that died
    while idle, a client that went away mid-answer. `main` sets SIGPIPE to its default
    so that `puzzlelab ... | head` ends quietly; for `serve` that default would kill the
    whole service on the first such write, so here the write raises instead, and the
    worker pool and the HTTP server handle it."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback unless told otherwise; the service has no authentication).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.", min=1, max=65535)] = 8000,
    workers: Annotated[Optional[int], typer.Option(help="Jobs run at once (default: CPU count).", min=1)] = None,
    job_memory_mb: Annotated[
        Optional[int],
        typer.Option(help="Memory each job may hold, in MB; a job over it fails 'out of memory', and options asking for more are refused (default: 3/4 of this machine's memory, shared between the workers).", min=64),
    ] = None,
    job_workers: Annotated[
        Optional[int], typer.Option(help="Processes or threads one job may start (its workers, threads options); more is refused (default: --workers).", min=1, max=4096)
    ] = None,
    max_budget: Annotated[float, typer.Option(help="Seconds one job may run; a longer budget is refused.", min=1, max=86400)] = DEFAULT_MAX_BUDGET,
    max_queued: Annotated[int, typer.Option(help="Jobs that may wait for a worker; past it a new job gets 503 with Retry-After.", min=1, max=100_000)] = DEFAULT_MAX_QUEUED,
    finished_kept: Annotated[int, typer.Option(help="Finished jobs kept in memory; older ones are read back from the store.", min=1, max=100_000)] = DEFAULT_FINISHED_KEPT,
    request_timeout: Annotated[float, typer.Option(help="Seconds a client has to send a whole request; a slower connection is closed.", min=1, max=600)] = REQUEST_SECONDS,
    max_connections: Annotated[int, typer.Option(help="Connections open at once; past it a request gets 503.", min=8, max=100_000)] = MAX_CONNECTIONS,
) -> None:
    """Start the web workbench: the REST API, its OpenAPI page at /docs, and the page at /.
    No authentication: keep it on loopback, or behind a proxy that authenticates.

    Example: puzzlelab serve --port 8000 --workers 2 --job-memory-mb 4000 --max-queued 64
    """
    from puzzlelab.core.parallel import default_workers
    from puzzlelab.core.store import default_path
    from puzzlelab.service.app import create_app
    from puzzlelab.service.http_server import serve as serve_http
    from puzzlelab.service.store_lock import hold_store

    with user_errors():
        ignore_broken_pipes()
        store_path = default_path()
        lock = hold_store(store_path)  # one server per store, held until this process ends
        check_port_free(host, port)
        application = create_app(
            workers=workers or default_workers(),
            store_path=str(store_path),
            job_memory_bytes=None if job_memory_mb is None else job_memory_mb * 1_000_000,
            job_processes=job_workers,
            max_budget=max_budget,
            max_queued=max_queued,
            finished_kept=finished_kept,
        )
        shown = f"[{host}]" if ":" in host else host
        out.print(f"puzzlelab workbench: http://{shown}:{port}/   (API docs: http://{shown}:{port}/docs; Ctrl-C stops it)", markup=False)
        serve_http(application, host, port, request_seconds=request_timeout, max_connections=max_connections)
        lock.close()


def bench(
    name: Annotated[Optional[str], typer.Argument(help="Benchmark name (benchmarks/bench_NAME.py); all when omitted.")] = None,
) -> None:
    """Run the benchmarks of a source checkout (each prints our method beside its peer).

    Example: puzzlelab bench rank
    """
    folder = Path("benchmarks")
    scripts = sorted(folder.glob(f"bench_{name or '*'}.py"))
    if not scripts:
        err.print(f"error: no benchmark {'bench_' + name + '.py' if name else ''} in {folder.resolve()} (run from the source checkout)")
        raise typer.Exit(EXIT_BAD_INPUT)
    for script in scripts:
        out.print(f"== {script}")
        code = subprocess.call([sys.executable, str(script)], preexec_fn=preexec_die_with_parent)  # ends with this command
        if code:
            raise typer.Exit(code)
