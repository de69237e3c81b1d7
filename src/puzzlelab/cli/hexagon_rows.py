"""The `puzzlelab hexagon rows ACTION` verb: the row3 store of partial solutions
(puzzles/hexagon/rowdp/row3.py; format in docs/hexagon.md).

  rows build N --level K --penalty P --out FILE [--into FILE]
        every level-K grid of order N within penalty P (row DP), cut into chunks
  rows count FILE N --penalty P      grids of order N the store rebuilds, by penalty
  rows rebuild FILE N --penalty P [--limit L]   print them (each checked)
  rows mine FILE N --penalty P [--limit L]      add the chunks of turned rebuilt grids
  rows show FILE                     entries and bytes
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Optional

import typer

from puzzlelab.cli.errors import user_errors
from puzzlelab.core.files import check_output_file, write_output
from puzzlelab.core.inputs import read_text_file
from puzzlelab.core.puzzle import InvalidInstance

__all__ = ["rows"]

ACTIONS = ("build", "count", "rebuild", "mine", "show")
STORE_BYTES = 1 << 30  # a store file is read whole


def _read(path: str):
    from puzzlelab.puzzles.hexagon.rowdp.row3 import read_store

    text = read_text_file(path, "store file", STORE_BYTES)
    try:
        return read_store(text)
    except ValueError as exc:
        raise InvalidInstance(f"store file {path}: {exc}", "file") from None


def _is_row3(head: bytes) -> bool:
    """A row3 store (its first line says so): a file `build --out` may replace."""
    return head.startswith(b"# row3 level=")


def rows(
    action: Annotated[str, typer.Argument(help="build, count, rebuild, mine or show.")],
    target: Annotated[str, typer.Argument(help="build: the order N; else the store file.")],
    n: Annotated[Optional[int], typer.Argument(help="Order of the hexagon (count, rebuild, mine).")] = None,
    level: Annotated[int, typer.Option(help="build: the level (values 1..K placed).")] = 4,
    penalty: Annotated[Optional[int], typer.Option(help="Largest level penalty.")] = None,
    out: Annotated[Optional[str], typer.Option(help="build: the store file to write.")] = None,
    into: Annotated[Optional[str], typer.Option(help="build: merge into this store (and write it to --out).")] = None,
    limit: Annotated[int, typer.Option(help="rebuild/mine: at most this many grids.")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    force: Annotated[bool, typer.Option(help="build: let --out replace a file that is not a row3 store.")] = False,
) -> None:
    """The row3 store: build it from the row DP's grids, count and rebuild grids from
    it (every grid checked), mine new chunks by turning grids, show its size.

    Example: puzzlelab hexagon rows build 5 --level 3 --penalty 9 --out n5.row3
    """
    from puzzlelab.puzzles.hexagon.model import format_grid
    from puzzlelab.puzzles.hexagon.rowdp.row3 import from_array, mine

    with user_errors():
        if action not in ACTIONS:
            raise InvalidInstance(f"action: expected one of {', '.join(ACTIONS)}, got {action!r}", "action")
        if action == "build":
            if not target.isdigit() or not 1 <= int(target) <= 13:
                raise InvalidInstance(f"N: expected an order 1..13, got {target!r}", "n")
            if not 1 <= level <= 6:
                raise InvalidInstance(f"level: expected 1..6, got {level}", "level")
            if out is None:
                raise InvalidInstance("out: expected the store file to write (--out FILE)", "out")
            check_output_file(out, "--out", force=force, recognise=_is_row3)
        elif action != "show" and (n is None or not 1 <= n <= 200):
            raise InvalidInstance("n: expected the order of the hexagon, 1..200, after the store file", "n")
        if action in ("build", "count", "rebuild", "mine") and (penalty is None or penalty < 0):
            raise InvalidInstance("penalty: expected the largest level penalty, 0 or more (--penalty P)", "penalty")
        store = None if action == "build" else _read(target)
        base = _read(into) if into else None
    t0 = time.perf_counter()
    report: dict = {"action": action}
    if action == "build":
        import numpy as np

        from puzzlelab.puzzles.hexagon.rowdp.dp import level_grids

        order = int(target)
        grids = level_grids(order, level, penalty, max_grids=5_000_000, check_every=100)
        array = np.array(grids, dtype=np.int8) if grids else np.zeros((0, 3 * order * (order - 1) + 1), dtype=np.int8)
        store = from_array(order, level, array)
        if base is not None:
            store.merge(base)
        text = store.text()
        with user_errors():
            write_output(out, text, "--out", force=force, recognise=_is_row3)
        size = len(text.encode())
        explicit = sum(len(format_grid(order, g)) + 2 for g in grids)
        report |= {"grids": len(grids), "explicit_bytes": explicit, "entries": len(store.chunks), "bytes": size}
    elif action == "show":
        report |= {"level": store.level, "entries": len(store.chunks), "bytes": len(store.text().encode())}
    elif action == "count":
        report |= {"counts": {str(p): c for p, c in store.count(n, penalty).items()}}
    elif action == "rebuild":
        grids = store.grids(n, penalty, limit)
        report |= {"grids": len(grids)}
        if not as_json:
            for g in grids:
                typer.echo(format_grid(n, g) + ";")
        else:
            report["text"] = [format_grid(n, g) for g in grids]
    else:
        report |= {"new_entries": mine(store, n, penalty, limit), "entries": len(store.chunks), "bytes": store.write(target)}
    report["seconds"] = round(time.perf_counter() - t0, 2)
    if as_json:
        typer.echo(json.dumps(report))
    elif action != "rebuild":
        typer.echo(", ".join(f"{k} {v}" for k, v in report.items() if k != "action"))
