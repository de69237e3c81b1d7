"""The verbs every puzzle answers the same way (DESIGN.md, "CLI contract"): solve,
verify, catalog; one typer group per registered puzzle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from puzzlelab.cli.common import method_help, parse_method_options, print_result, progress_printer, run_interruptibly, store_result
from puzzlelab.cli.errors import EXIT_NO_ANSWER, EXIT_OK, err, out, user_errors
from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Budget

__all__ = ["puzzle_group"]


def puzzle_group(puzzle: Puzzle, extra_verbs: dict[str, Any] | None = None) -> typer.Typer:
    """The contract verbs for `puzzle`, plus its own (`extra_verbs`: name -> function)."""
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

    for name, command in (extra_verbs or {}).items():
        group.command(name)(command)
    return group
