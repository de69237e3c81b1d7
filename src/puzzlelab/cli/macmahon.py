"""Extra CLI verbs of the MacMahon puzzle: `count` and `facts` (typer functions; the
CLI mounts them under `puzzlelab macmahon`). Every figure they print comes from a
verified result: `count` runs the `enumerate` method through `Puzzle.solve` (the checker
tests its certificate) and checks every class representative it writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from puzzlelab.core.interrupt import run_in_thread
from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer
from puzzlelab.core.result import Budget

__all__ = ["count_command", "facts_command"]

EXIT_OK, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_WRONG_ANSWER = 0, 1, 2, 3


def _interruptible(work: Callable[[], Any], budget: Budget) -> Any:
    """Run `work` in a thread; Ctrl-C cancels the budget (the search stops and keeps
    its partial count), a second Ctrl-C quits."""

    def on_interrupt(count: int) -> None:
        if count > 1:
            raise typer.Exit(130)
        print("\ninterrupted: stopping, keeping the partial count (Ctrl-C again to quit)", file=sys.stderr)
        budget.cancel()

    return run_in_thread(work, on_interrupt)


def _fail(exc: Exception) -> None:
    if isinstance(exc, InvalidInstance):
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT)
    print(f"internal error (please report): {exc}", file=sys.stderr)
    raise typer.Exit(EXIT_WRONG_ANSWER)


def count_command(
    instance: Annotated[str, typer.Argument(help="Catalog name (4x6, 3x8, hex2 ...), instance text, a file, or -.")],
    border: Annotated[Optional[str], typer.Option(help="Border colour (name, letter or index), or 'free'.")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (subtrees in parallel).", min=1)] = 1,
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
) -> None:
    """Count every solution, and the classes up to each symmetry group.

    Example: puzzlelab macmahon count 4x6 --border white --json
    (--workers 2 splits the search into subtrees; --backend ray --address HOST:PORT
    runs them on a Ray cluster.)
    """
    from puzzlelab.puzzles.macmahon import PUZZLE
    from puzzlelab.puzzles.macmahon.methods import run_enumerate
    from puzzlelab.puzzles.macmahon.model import format_instance, parse_instance
    from puzzlelab.puzzles.macmahon.verify import check_placement

    try:
        inst = PUZZLE.load(instance)
        if border is not None:
            fields = format_instance(inst)
            fields["border"] = None if border.lower() in ("free", "none") else border
            inst = parse_instance(fields)
        run_budget = Budget(budget)
        collected: list = []
        collect = list_group if list_file is not None else None
        if collect is not None and collect not in ("full", "board", "rotations", "colours", "custom"):
            raise InvalidInstance(f"--list-group: expected full, board, rotations, colours or custom, got {list_group!r}", "list_group")
        if not symmetry and (group or list_file is not None):
            raise InvalidInstance("--no-symmetry counts the total only; drop --group / --list", "symmetry")
        for name, value in (("order", order), ("backend", backend)):
            PUZZLE.method("enumerate").parse_options({name: value})

        def work():
            result = run_enumerate(
                inst, budget=run_budget, progress=lambda e: None, seed=0, workers=workers, order=order,
                symmetry=symmetry, split_depth=split_depth, backend=backend, address=address or "", group=group, checkpoint=checkpoint, collect=collect, collect_into=collected,
            )
            return PUZZLE.check(inst, result)

        result = _interruptible(work, run_budget)
        written = 0
        if list_file is not None:
            with open(list_file, "w") as fh:
                for grid in collected:
                    colours, why = check_placement(inst, grid)
                    if colours is None:
                        raise WrongAnswer(f"class representative rejected by the checker: {why}")
                    fh.write(json.dumps(grid) + "\n")
                    written += 1
        if store and result.verified:
            from puzzlelab.core.store import Store

            Store().add(PUZZLE.name, PUZZLE.instance_key(inst), result, PUZZLE.sense)
    except (InvalidInstance, WrongAnswer) as exc:
        _fail(exc)
        return
    cert = result.solution
    groups = cert["groups"] if symmetry else {}  # --no-symmetry: the trivial group only, not worth reporting
    report = {
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
    if list_file is not None:
        report["listed"] = {"file": str(list_file), "group": list_group, "classes": written}
    if as_json:
        print(json.dumps(report, default=str))
    else:
        print(f"{report['instance']}: {cert['total']:,} solutions (board fixed){'' if cert['complete'] else ' so far (search stopped: a lower bound)'}")
        for g, n in report["classes"].items():
            sizes = ", ".join(f"{v:,} of size {s}" for s, v in report["orbit_sizes"][g].items())
            print(f"  up to {g:<9} (order {report['group_orders'][g]:>3}): {n:>10,} classes   orbits: {sizes}")
        print(f"  {result.stats.get('seconds', 0):.2f} s, {result.stats.get('nodes', 0):,} nodes; checker: {report['verdict']}")
        if list_file is not None:
            print(f"  wrote {written:,} representatives (up to {list_group}) to {list_file}")
    if not cert["complete"]:
        raise typer.Exit(EXIT_NO_ANSWER)


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
    try:
        facts = _interruptible(lambda: all_facts(run_budget, workers), run_budget)
    except (InvalidInstance, WrongAnswer) as exc:
        _fail(exc)
        return
    if as_json:
        print(json.dumps(facts, default=str))
        return
    print("Pieces with c colours, up to rotation (generated / Burnside (c^4+c^2+2c)/4 / MacMahon c(c+1)(c^2-c+2)/4):")
    for row in facts["tile_counts"]:
        print(
            f"  c={row['colours']}: squares {row['squares_generated']} / {row['squares_burnside']} / {row['squares_macmahon_formula']}"
            f" ({row['square_orientations']} distinct orientations);  triangles {row['triangles_generated']} / (c^3+2c)/3 = {row['triangles_formula']}"
        )
    w = facts["white_inside"]
    print(f"All-white square on 4x6: inside the board in {w['solutions_with_white_inside']} of {w['solutions']:,} solutions; cells it occupies: {w['white_square_cells']}")
    print(f"  HiGHS with it forced into one of the {w['inner_cells']} inner cells: {w['highs_white_forced_inside']} ({w['highs_seconds']} s)")
    print(f"  why: {w['argument']}")
    print("Solution counts (board fixed; classes up to each group):")
    for name, c in facts["counts"].items():
        classes = ", ".join(f"{g} {n:,}" for g, n in c["classes"].items())
        print(f"  {name}: {c['total']:,} solutions; classes: {classes}{'' if c['complete'] else ' (incomplete)'}")
    for line in facts.get("relation_to_published", []):
        print(f"  {line}")


COMMANDS = {"count": count_command, "facts": facts_command}
