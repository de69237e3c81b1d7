"""The `puzzlelab` command: one typer app with a sub-command group per registered puzzle
(the same verbs for each: solve, verify, catalog, plus the puzzle's own), and the
commands that bind them: records, tour, serve, bench.

Exit status (DESIGN.md): 0 an answer was found and verified, 1 none was found within
the budget (or a given solution was rejected), 2 bad input, 3 a solver's answer failed
verification (a bug, never shown as an answer), 4 the records store is unusable.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from puzzlelab import __version__
from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.puzzle import InvalidInstance, Method, Puzzle, WrongAnswer
from puzzlelab.core.result import Budget, Progress, Result
from puzzlelab.core.store import Store, StoreError
from puzzlelab.puzzles import REGISTRY

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

EXIT_OK, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_WRONG_ANSWER, EXIT_STORE = 0, 1, 2, 3, 4

def _version_callback(value: bool) -> None:
    if value:
        out.print(f"puzzlelab {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version_callback, is_eager=True, help="Print the version and exit.")
    ] = None,
) -> None:
    """puzzlelab: solve, reproduce, beat, prove and draw puzzle records."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the project's expected errors into a message and an exit status, never a
    traceback."""
    try:
        yield
    except InvalidInstance as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except WrongAnswer as exc:
        err.print(f"internal error (please report): {exc}")
        raise typer.Exit(EXIT_WRONG_ANSWER) from None
    except StoreError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(EXIT_STORE) from None


# --------------------------------------------------------------------------- helpers


def parse_method_options(method: Method, args: list[str]) -> dict[str, Any]:
    """`--ring 4 --allow-at 4,5,7 --count-solutions --no-roam` against the method's
    declared options; unknown or malformed ones raise InvalidInstance naming them."""
    known = {o.flag: o for o in method.options}
    values: dict[str, Any] = {}
    i = 0
    while i < len(args):
        token = args[i]
        if not token.startswith("--"):
            raise InvalidInstance(f"unexpected argument {token!r}: method options look like --name value", field="options")
        flag, _, inline = token.partition("=")
        negated = flag.startswith("--no-") and flag not in known and "--" + flag[5:] in known
        option = known.get("--" + flag[5:] if negated else flag)
        if option is None:
            valid = ", ".join(known) or "none"
            raise InvalidInstance(f"option {flag}: method {method.name!r} has no such option (its options: {valid})", field=flag[2:])
        if option.kind == "bool":
            values[option.name] = (not negated) if not inline else option.coerce(inline)
            i += 1
            continue
        if inline:
            values[option.name] = inline
            i += 1
        elif i + 1 < len(args):
            values[option.name] = args[i + 1]
            i += 2
        else:
            raise InvalidInstance(f"option {flag}: expected a value after it", field=option.name)
    return values


def method_help(puzzle: Puzzle) -> str:
    lines = ["Methods (--method NAME) and their options:"]
    for method in puzzle.methods.values():
        default = " (default)" if method.name == puzzle.default_method else ""
        lines.append(f"  {method.name}{default}: {method.summary}")
        for option in method.options:
            kind = "" if option.kind == "bool" else f" {option.kind.upper()}"
            lines.append(f"      {option.flag}{kind}: {option.help} [default: {option.default}]")
    return "\b\n" + "\n".join(lines)  # \b: click keeps these lines as they are


def progress_printer(quiet: bool) -> Callable[[Progress], None]:
    """Progress to stderr, at most once a second (live on a terminal)."""
    last = [0.0]

    def report(event: Progress) -> None:
        now = time.monotonic()
        if quiet or now - last[0] < 1.0:
            return
        last[0] = now
        parts = [p for p in (event.phase, event.message) if p]
        if event.fraction is not None:
            parts.append(f"{100 * event.fraction:.1f}%")
        if event.best is not None:
            parts.append(f"best {event.best}")
        parts += [f"{k} {v}" for k, v in event.stats.items()]
        err.print("  " + "  ".join(str(p) for p in parts), end="\r" if err.is_terminal else "\n")

    return report


def run_interruptibly(work: Callable[[], Result], budget: Budget) -> Result:
    """Run `work` in a thread; the first Ctrl-C cancels the budget so the solver returns
    its best so far, a second one gives up at once (exit 130)."""

    def on_interrupt(count: int) -> None:
        if count > 1:
            err.print("\ninterrupted again: giving up")
            raise typer.Exit(130)
        err.print("\ninterrupted: stopping the search and keeping what was found (Ctrl-C again to quit)")
        budget.cancel()

    return run_in_thread(work, on_interrupt)


def print_result(puzzle: Puzzle, instance: Any, result: Result, as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps(puzzle.report(instance, result), default=str), indent=None)
        return
    drawing = puzzle.render_text(instance, result) if result.solution is not None else None
    if drawing:
        out.print(drawing, markup=False)
    verdict = result.verdict
    check = "verified" if result.verified else f"NOT verified ({verdict.message if verdict else 'no verdict'})"
    bound = "" if result.bound is None or result.bound == result.value else f"  bound {result.bound}"
    out.print(
        f"{puzzle.name} {puzzle.instance_key(instance)}: {puzzle.value_name} {result.value}  "
        f"[{result.status.value}]{bound}  method {result.method}  {result.stats.get('seconds', 0):.2f} s  {check}",
        markup=False,
    )


def store_result(puzzle: Puzzle, instance: Any, result: Result) -> None:
    if result.verified:
        Store().add(puzzle.name, puzzle.instance_key(instance), result, puzzle.sense)


# --------------------------------------------------------------------------- per puzzle


def _puzzle_group(puzzle: Puzzle) -> typer.Typer:
    group = typer.Typer(help=f"{puzzle.title}\n\nExample: puzzlelab {puzzle.name} solve {puzzle.tour_instance}", no_args_is_help=True, rich_markup_mode=None)
    example = f"puzzlelab {puzzle.name} solve {puzzle.tour_instance} --budget 10 --json"

    @group.command(
        "solve",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        help=f"Solve an instance (a catalog name, a file, or - for standard input), verify the "
        f"answer independently, print it and keep it in the records store.\n\nExample: {example}\n\n"
        + method_help(puzzle),
    )
    def solve(
        ctx: typer.Context,
        instance: Annotated[str, typer.Argument(help="Catalog name, file, or - for standard input.")],
        method: Annotated[str, typer.Option(help="Solving method (listed below).")] = puzzle.default_method,
        budget: Annotated[Optional[float], typer.Option(help="Seconds allowed.", min=0)] = None,
        seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        svg: Annotated[Optional[Path], typer.Option(help="Write the picture to this SVG file.")] = None,
        store: Annotated[bool, typer.Option(help="Keep the verified result in the records store.")] = True,
        quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
    ) -> None:
        with user_errors():
            chosen = puzzle.method(method)
            options = parse_method_options(chosen, list(ctx.args))
            loaded = puzzle.load(instance)
            run_budget = Budget(puzzle.default_budget if budget is None else budget)
            result = run_interruptibly(
                lambda: puzzle.solve(loaded, method, budget=run_budget, progress=progress_printer(quiet), seed=seed, **options),
                run_budget,
            )
            if not quiet and err.is_terminal:
                err.print(" " * 60, end="\r")
            if store and result.verified:
                store_result(puzzle, loaded, result)
            if svg is not None:
                svg.write_text(puzzle.render_svg(loaded, result))
            print_result(puzzle, loaded, result, as_json)
            if result.solution is None or not result.verified:
                if not as_json:
                    err.print(f"no answer found within the budget ({result.status.value})")
                raise typer.Exit(EXIT_NO_ANSWER)

    @group.command(
        "verify",
        help=f"Check a solution with the independent checker and print what it recomputes.\n\n"
        f"Example: puzzlelab {puzzle.name} verify {puzzle.tour_instance} solution.json",
    )
    def verify(
        instance: Annotated[str, typer.Argument(help="Catalog name, file, or - for standard input.")],
        solution_file: Annotated[Path, typer.Argument(help="The solution (JSON, or the field's text format).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    ) -> None:
        with user_errors():
            loaded = puzzle.load(instance)
            if not solution_file.is_file():
                raise InvalidInstance(f"solution file {solution_file}: no such file", field="solution")
            text = solution_file.read_text()
            try:
                solution: Any = json.loads(text)
            except json.JSONDecodeError:
                solution = text
            verdict = puzzle.verify(loaded, solution)
            if as_json:
                out.print_json(json.dumps(verdict.to_dict(), default=str), indent=None)
            else:
                word = "valid" if verdict.ok else "INVALID"
                out.print(f"{word}: {puzzle.value_name} {verdict.value}  {verdict.message}", markup=False)
            raise typer.Exit(EXIT_OK if verdict.ok else EXIT_NO_ANSWER)

    @group.command("catalog", help=f"List the named instances.\n\nExample: puzzlelab {puzzle.name} catalog")
    def catalog(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
        entries = puzzle.catalog()
        if as_json:
            out.print_json(json.dumps(entries), indent=None)
            return
        table = Table("instance", "description", title=f"{puzzle.name} catalog")
        for name, description in entries.items():
            table.add_row(name, description)
        out.print(table)

    for name, command in puzzle.commands.items():
        group.command(name)(command)
    return group




# --------------------------------------------------------------------------- binding commands


def records(
    puzzle: Annotated[Optional[str], typer.Option(help="Only this puzzle.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Best known result per instance from the records store, beside the published value.

    Example: puzzlelab records --puzzle tiling
    """
    with user_errors():
        if puzzle is not None and puzzle not in REGISTRY:
            from puzzlelab.puzzles import get

            get(puzzle)
        best = Store().best(puzzle)
        rows = []
        for record in best:
            published = REGISTRY[record.puzzle].published(record.instance) if record.puzzle in REGISTRY else None
            rows.append((record, published))
        if as_json:
            payload = [dict(r.to_dict(), published=p) for r, p in rows]
            out.print_json(json.dumps(payload, default=str), indent=None)
            return
        table = Table("puzzle", "instance", "value", "status", "bound", "method", "seconds", "published", title="records")
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
        out.print(table if rows else "no records yet: solve something, e.g. puzzlelab tour")


def tour(
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the pictures.")] = Path("puzzlelab-out/tour"),
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
    out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    for puzzle in REGISTRY.values():
        try:
            with user_errors():
                instance = puzzle.load(puzzle.tour_instance)
                seconds = puzzle.tour_budget if budget is None else budget
                result = puzzle.solve(instance, budget=seconds)
                picture = out_dir / f"{puzzle.name}.svg"
                picture.write_text(puzzle.render_svg(instance, result))
                if store and result.verified:
                    store_result(puzzle, instance, result)
                check = "verified" if result.verified else f"NOT verified: {result.verdict.message if result.verdict else ''}"
                out.print(
                    f"{puzzle.name:<12} {puzzle.tour_instance:<16} {puzzle.value_name} {result.value} "
                    f"[{result.status.value}] by {result.method} in {result.stats.get('seconds', 0):.2f} s, {check} -> {picture}",
                    markup=False,
                )
                failures += not result.verified
        except typer.Exit:
            failures += 1
        if warm_up:
            started = time.perf_counter()
            puzzle.warm_up()
            out.print(f"{puzzle.name:<12} kernels compiled in {time.perf_counter() - started:.1f} s")
    if failures:
        raise typer.Exit(EXIT_NO_ANSWER)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback unless told otherwise).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.", min=1, max=65535)] = 8000,
    workers: Annotated[Optional[int], typer.Option(help="Jobs run at once (default: CPU count).", min=1)] = None,
) -> None:
    """Start the web workbench: the REST API, its OpenAPI page at /docs, and the page at /.

    Example: puzzlelab serve --port 8000 --workers 2
    """
    import socket

    import uvicorn

    from puzzlelab.core.parallel import default_workers
    from puzzlelab.service.app import create_app

    with user_errors():
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            try:
                probe.bind((host, port))
            except OSError as exc:
                raise InvalidInstance(f"--port: cannot listen on {host}:{port} ({exc.strerror}); pick another port", "port") from None
        application = create_app(workers=workers or default_workers())
        shown = f"[{host}]" if ":" in host else host
        out.print(f"puzzlelab workbench: http://{shown}:{port}/   (API docs: http://{shown}:{port}/docs; Ctrl-C stops it)", markup=False)
        # Keep idle connections 60 s (uvicorn's 5 s default races with clients that
        # poll a job every few seconds on a loaded machine: "connection reset by peer").
        uvicorn.run(application, host=host, port=port, log_level="warning", timeout_keep_alive=60)


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
        code = subprocess.call([sys.executable, str(script)])
        if code:
            raise typer.Exit(code)


def build_app(registry: dict[str, Puzzle] | None = None) -> typer.Typer:
    """The whole command tree; a sub-command group per puzzle of `registry` (default:
    the registered puzzles; tests pass their own)."""
    registry = REGISTRY if registry is None else registry
    root = typer.Typer(
        name="puzzlelab",
        help="A workbench for combinatorial puzzle records: solve, reproduce, beat, prove, draw.\n\n"
        "Example: puzzlelab tour",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    root.callback()(_root)
    for puzzle in registry.values():
        root.add_typer(_puzzle_group(puzzle), name=puzzle.name)
    for command in (records, tour, serve, bench):
        root.command()(command)
    return root


app = build_app()


def main() -> None:
    """Console-script entry point."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `puzzlelab ... | head` ends quietly
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
