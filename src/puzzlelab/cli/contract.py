"""The verbs every puzzle answers the same way (docs/architecture.md, "Formats"): solve,
verify, catalog; one typer group per registered puzzle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer
from rich.table import Table

from puzzlelab.cli.errors import EXIT_NO_ANSWER, EXIT_OK, err, out, user_errors
from puzzlelab.cli.running import method_help, parse_method_options, print_result, progress_printer, run_interruptibly, store_result
from puzzlelab.core.files import check_output_file, write_output
from puzzlelab.core.inputs import decode_input, read_text_file
from puzzlelab.core.puzzle import Puzzle
from puzzlelab.core.result import Budget

__all__ = ["puzzle_group", "read_solution", "read_paths"]


def read_solution(path: Path, limit: int) -> Any:
    """A solution file: JSON when it is JSON, else the field's own text format."""
    text = read_text_file(path, "solution file", limit)
    return decode_input(text, f"solution file {path}", limit)


def read_paths(instance: str, options: dict[str, Any]) -> list[tuple[str, str]]:
    """The files a run reads (its instance, the files its method options name): an
    output file never replaces one of them."""
    paths = [(instance, "the instance file")] if instance != "-" else []
    return paths + [(value, f"the --{name.replace('_', '-')} file") for name, value in options.items() if isinstance(value, str) and value]


def _solve_verb(puzzle: Puzzle) -> Callable[..., None]:
    def solve(
        ctx: typer.Context,
        instance: Annotated[str, typer.Argument(help="Catalog name, file, or - for standard input.")],
        method: Annotated[str, typer.Option(help="Solving method (listed below).")] = puzzle.default_method,
        budget: Annotated[Optional[float], typer.Option(help="Seconds allowed.", min=0)] = None,
        seed: Annotated[int, typer.Option(help="Random seed (0 to 2147483647).")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        svg: Annotated[Optional[Path], typer.Option(help="Write the picture to this SVG file (- for standard output).")] = None,
        force: Annotated[bool, typer.Option(help="Let --svg replace a file that puzzlelab did not write.")] = False,
        memory_mb: Annotated[Optional[float], typer.Option(help="Memory this run may take, MB (default: half of this machine's); settings that need more are refused up front.", min=1)] = None,
        store: Annotated[bool, typer.Option(help="Keep the verified result in the records store.")] = True,
        quiet: Annotated[bool, typer.Option(help="No progress on stderr.")] = False,
    ) -> None:
        with user_errors():
            chosen = puzzle.method(method)
            options = parse_method_options(chosen, list(ctx.args))
            protect = read_paths(instance, options)
            if svg is not None:
                check_output_file(svg, "--svg", force=force, protect=protect)
            loaded = puzzle.load(instance)
            run_budget = Budget(puzzle.default_budget if budget is None else budget, memory_bytes=None if memory_mb is None else memory_mb * 1e6)
            result = run_interruptibly(
                lambda: puzzle.solve(loaded, method, budget=run_budget, progress=progress_printer(quiet), seed=seed, **options),
                run_budget,
            )
            if not quiet and err.is_terminal:
                err.print(" " * 60, end="\r")
            # The verified answer is printed first: a store or a file that cannot be
            # written afterwards costs its own error line, not the answer.
            print_result(puzzle, loaded, result, as_json)
            if store and result.verified:
                store_result(puzzle, loaded, result)
            if svg is not None:
                write_output(svg, puzzle.render_svg(loaded, result), "--svg", force=force, protect=protect, kind="svg")
            if result.solution is None or not result.verified:
                if not as_json:
                    unchecked = result.verdict.unchecked if result.verdict is not None else ""
                    none = result.stats.get("no_answer") or f"no answer found within the budget ({result.status.value})"
                    err.print(f"an answer was found but not independently checked: {unchecked}" if unchecked else none)
                raise typer.Exit(EXIT_NO_ANSWER)

    return solve


def _verify_verb(puzzle: Puzzle) -> Callable[..., None]:
    def verify(
        instance: Annotated[str, typer.Argument(help="Catalog name, file, or - for standard input.")],
        solution_file: Annotated[Path, typer.Argument(help="The solution (JSON, or the field's text format).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    ) -> None:
        with user_errors():
            loaded = puzzle.load(instance)
            solution = read_solution(solution_file, puzzle.max_input_bytes)
            verdict = puzzle.verify(loaded, solution)
            if as_json:
                out.print_json(json.dumps(verdict.to_dict(), default=str), indent=None)
            else:
                line = f"{verdict.word}: {puzzle.value_name} {verdict.value}  {verdict.message}"
                if verdict.unchecked and verdict.unchecked not in verdict.message:
                    line += f"; NOT checked: {verdict.unchecked}"
                out.print(line, markup=False)
            raise typer.Exit(EXIT_OK if verdict.ok else EXIT_NO_ANSWER)

    return verify


def _catalog_verb(puzzle: Puzzle) -> Callable[..., None]:
    def catalog(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
        entries = puzzle.catalog()
        if as_json:
            out.print_json(json.dumps(entries), indent=None)
            return
        table = Table("instance", "description", title=f"{puzzle.name} catalog")
        for name, description in entries.items():
            table.add_row(name, description)
        out.print(table)

    return catalog


def puzzle_group(puzzle: Puzzle, extra_verbs: dict[str, Any] | None = None) -> typer.Typer:
    """The contract verbs for `puzzle`, plus its own (`extra_verbs`: name -> function)."""
    example = f"puzzlelab {puzzle.name} solve {puzzle.tour_instance}"
    group = typer.Typer(help=f"{puzzle.title}\n\nExample: {example}", no_args_is_help=True, rich_markup_mode=None)
    group.command(
        "solve",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        help=f"Solve an instance (a catalog name, a file, or - for standard input), verify the "
        f"answer independently, print it and keep it in the records store.\n\nExample: {example} --budget 10 --json\n\n"
        + method_help(puzzle),
    )(_solve_verb(puzzle))
    group.command(
        "verify",
        help=f"Check a solution with the independent checker and print what it recomputes: valid, INVALID, "
        f"or UNCHECKED with what it could not check. Exit status 0 only for valid.\n\n"
        f"Example: puzzlelab {puzzle.name} verify {puzzle.tour_instance} solution.json",
    )(_verify_verb(puzzle))
    group.command("catalog", help=f"List the named instances.\n\nExample: puzzlelab {puzzle.name} catalog")(_catalog_verb(puzzle))
    for name, command in (extra_verbs or {}).items():
        group.command(name)(command)
    return group
