"""Extra CLI verbs of the MacMahon puzzle: `count` and `facts` (typer functions; the
CLI mounts them under `puzzlelab macmahon`). Every figure they print comes from a
verified result: `count` runs the `enumerate` method and `Puzzle.check` (the checker
tests its certificate) and checks every class representative it writes. Errors, exit
codes and Ctrl-C go through `cli.errors` and `cli.common`, as for every verb."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from puzzlelab.cli.errors import EXIT_NO_ANSWER, out, user_errors
from puzzlelab.cli.running import read_back_note, run_interruptibly, store_result
from puzzlelab.core.files import check_output_file, write_output
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Budget, Result
from puzzlelab.puzzles.macmahon import PUZZLE
from puzzlelab.puzzles.macmahon.model import Instance, format_instance, parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import check_placement

__all__ = ["count_command", "facts_command", "COMMANDS"]

LIST_GROUPS = ("full", "board", "rotations", "colours", "custom")


def count_command(
    instance: Annotated[str, typer.Argument(help="Catalog name (4x6, 3x8, hex2 ...), instance text, a file, or -.")],
    border: Annotated[Optional[str], typer.Option(help="Border colour (name, letter or index), or 'free'.")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (subtrees in parallel), 1 to 256.", min=1)] = 1,
    symmetry: Annotated[bool, typer.Option(help="Classify the solutions up to the symmetry groups (--no-symmetry: the total only).")] = True,
    split_depth: Annotated[int, typer.Option(help="Extra cells fixed per subtree when split for workers.", min=0)] = 3,
    backend: Annotated[str, typer.Option(help="Where subtrees run: local (worker processes) or ray.")] = "local",
    address: Annotated[Optional[str], typer.Option(help="Ray cluster address (default: $RAY_ADDRESS).")] = None,
    group: Annotated[str, typer.Option(help="Also count up to the subgroup these elements generate, e.g. rot180,WBR.")] = "",
    order: Annotated[str, typer.Option(help="Cell order: mrv (fewest candidates first), ring, rows or greedy.")] = "mrv",
    list_file: Annotated[Optional[Path], typer.Option("--list", help="Write one checked representative per class as JSON lines.")] = None,
    list_group: Annotated[str, typer.Option(help="Group whose classes --list writes (full, board, rotations, colours, custom).")] = "full",
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed (a partial count is a lower bound).", min=0)] = None,
    checkpoint: Annotated[str, typer.Option(help="File keeping finished subtrees; rerun to resume.")] = "",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    store: Annotated[bool, typer.Option(help="Keep the verified count in the records store.")] = True,
    force: Annotated[bool, typer.Option(help="Let --list replace a file that puzzlelab did not write.")] = False,
) -> None:
    """Count every solution, and the classes up to each symmetry group.

    Example: puzzlelab macmahon count 4x6 --border white --json
    (--workers 2 splits the search into subtrees; --backend ray --address HOST:PORT
    runs them on a Ray cluster.)
    """
    from puzzlelab.puzzles.macmahon.count_results import run_enumerate

    with user_errors():
        # the enumerate method's own checks (ranges, choices) for the options it shares
        options = PUZZLE.method("enumerate").parse_options(
            {"workers": workers, "split_depth": split_depth, "order": order, "group": group, "checkpoint": checkpoint, "backend": backend, "address": address or ""}
        )
        collect = list_group if list_file is not None else None
        if collect is not None and collect not in LIST_GROUPS:
            raise InvalidInstance(f"--list-group: expected full, board, rotations, colours or custom, got {list_group!r}", "list_group")
        if not symmetry and (group or list_file is not None):
            raise InvalidInstance("--no-symmetry counts the total only; drop --group / --list", "symmetry")
        protect = [(instance, "the instance file"), (checkpoint, "the --checkpoint file")]
        if list_file is not None:
            check_output_file(list_file, "--list", force=force, protect=protect, recognise=_is_representatives)
        inst = _with_border(PUZZLE.load(instance), border)
        run_budget = Budget(budget)
        collected: list = []
        options.pop("symmetry")

        def work() -> Result:
            result = run_enumerate(inst, budget=run_budget, progress=lambda e: None, seed=0, symmetry=symmetry, collect=collect, collect_into=collected, **options)
            return PUZZLE.check(inst, result)

        result = run_interruptibly(work, run_budget)
        lines = None if list_file is None else _representative_lines(inst, collected)
        report = _count_report(inst, result, symmetry)
        if list_file is not None:
            report["listed"] = {"file": str(list_file), "group": list_group, "classes": len(lines)}
        # The verified count is printed first: a list or a store that cannot be written
        # afterwards costs its own error line, not the count.
        if as_json:
            out.print_json(json.dumps(report, default=str), indent=None)
        else:
            _print_count(report, result)
        if list_file is not None:
            write_output(list_file, "".join(lines), "--list", force=force, protect=protect, recognise=_is_representatives)
        if store:
            store_result(PUZZLE, inst, result)
    if not report["complete"]:
        raise typer.Exit(EXIT_NO_ANSWER)


def _with_border(inst: Instance, border: Optional[str]) -> Instance:
    """The instance with its border colour replaced (`free` or `none`: no border rule)."""
    if border is None:
        return inst
    fields = format_instance(inst)
    fields["border"] = None if border.lower() in ("free", "none") else border
    return parse_instance(fields)


def _representative_lines(inst: Instance, grids: list) -> list[str]:
    """One class representative a JSON line, each checked by the checker first."""
    lines = []
    for grid in grids:
        colours, why = check_placement(inst, grid)
        if colours is None:
            raise WrongAnswer(f"class representative rejected by the checker: {why}")
        lines.append(json.dumps(grid) + "\n")
    return lines


def _is_representatives(head: bytes) -> bool:
    """A file of `--list` lines (each a grid: a JSON list of lists of numbers), as this
    verb writes them: one it may replace."""
    first = head.split(b"\n", 1)[0]
    return bool(re.fullmatch(rb"\[\[[0-9, \[\]]*\]\]", first))


def _count_report(inst: Instance, result: Result, symmetry: bool) -> dict[str, Any]:
    """The `count --json` object, from the verified count certificate."""
    cert = result.solution
    groups = cert["groups"] if symmetry else {}  # --no-symmetry: the trivial group only, not worth reporting
    return {
        "puzzle": PUZZLE.name,
        "instance": PUZZLE.instance_key(inst),
        "total": cert["total"],
        "complete": cert["complete"],
        "status": result.status.value,
        "classes": {g: v["classes"] for g, v in groups.items()},
        "group_orders": {g: len(v["members"]) for g, v in groups.items()},
        "group_elements": {g: v["members"] for g, v in groups.items()},
        "orbit_sizes": {g: v["orbit_sizes"] for g, v in groups.items()},
        "fixed_points": cert["fixed_points"],
        "symmetric_classes": len(cert["symmetric"]),
        "stats": result.stats,
        "verified": result.verified,
        "verdict": result.verdict.message if result.verdict else None,
    }


def _print_count(report: dict[str, Any], result: Result) -> None:
    stopped = "" if report["complete"] else " so far (search stopped: a lower bound)"
    out.print(f"{report['instance']}: {report['total']:,} solutions (board fixed){stopped}", markup=False)
    for g, n in report["classes"].items():
        sizes = ", ".join(f"{v:,} of size {s}" for s, v in report["orbit_sizes"][g].items())
        out.print(f"  up to {g:<9} (order {report['group_orders'][g]:>3}): {n:>10,} classes   orbits: {sizes}", markup=False)
    read_back = read_back_note(result, "counted")
    out.print(f"  {result.stats.get('seconds', 0):.2f} s, {result.stats.get('nodes', 0):,} nodes{read_back}; checker: {report['verdict']}", markup=False)
    if "listed" in report:
        listed = report["listed"]
        out.print(f"  wrote {listed['classes']:,} representatives (up to {listed['group']}) to {listed['file']}", markup=False)


def facts_command(
    workers: Annotated[int, typer.Option(help="Worker processes.", min=1)] = 1,
    budget: Annotated[Optional[float], typer.Option(help="Seconds allowed in all.", min=0)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The write-up's questions answered: the piece-count formula, where the all-white
    square can go, the solution counts and how they relate to 106,624 and 12,261.

    Example: puzzlelab macmahon facts
    """
    from puzzlelab.puzzles.macmahon.facts import all_facts

    run_budget = Budget(budget)
    with user_errors():
        facts = run_interruptibly(lambda: all_facts(run_budget, workers), run_budget)
    if as_json:
        out.print_json(json.dumps(facts, default=str), indent=None)
        return
    lines = ["Pieces with c colours, up to rotation (generated / Burnside (c^4+c^2+2c)/4 / MacMahon c(c+1)(c^2-c+2)/4):"]
    for row in facts["tile_counts"]:
        lines.append(
            f"  c={row['colours']}: squares {row['squares_generated']} / {row['squares_burnside']} / {row['squares_macmahon_formula']}"
            f" ({row['square_orientations']} distinct orientations);  triangles {row['triangles_generated']} / (c^3+2c)/3 = {row['triangles_formula']}"
        )
    w = facts["white_inside"]
    lines.append(f"All-white square on 4x6: inside the board in {w['solutions_with_white_inside']} of {w['solutions']:,} solutions; cells it occupies: {w['white_square_cells']}")
    lines.append(f"  HiGHS with it forced into one of the {w['inner_cells']} inner cells: {w['highs_white_forced_inside']} ({w['highs_seconds']} s)")
    lines.append(f"  why: {w['argument']}")
    lines.append("Solution counts (board fixed; classes up to each group):")
    for name, c in facts["counts"].items():
        classes = ", ".join(f"{g} {n:,}" for g, n in c["classes"].items())
        lines.append(f"  {name}: {c['total']:,} solutions; classes: {classes}{'' if c['complete'] else ' (incomplete)'}")
    lines += [f"  {line}" for line in facts.get("relation_to_published", [])]
    for line in lines:
        out.print(line, markup=False)


COMMANDS = {"count": count_command, "facts": facts_command}
