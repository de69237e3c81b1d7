"""Extra CLI verbs of the tiling puzzle (typer-compatible functions; the CLI mounts them
under `puzzlelab tiling`)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

__all__ = ["table_command"]


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
) -> None:
    """Print OEIS A219158, the fewest squares tiling an m x n rectangle, as `m n T`
    lines computed by the exact column DP (one run per short side serves every long
    side; the runs are spread over worker processes, or a Ray cluster with --backend
    ray); every tiling is rebuilt and verified before its line is printed.

    Example: puzzlelab tiling table --m 1..15 --n 1..100
    """
    from rich.console import Console

    from puzzlelab.core.parallel import BACKENDS
    from puzzlelab.core.puzzle import InvalidInstance, WrongAnswer, parse_range
    from puzzlelab.puzzles.tiling.dp import DPStopped
    from puzzlelab.puzzles.tiling.rectangles import table_rows

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False)
    try:
        ms = parse_range(m, "m")
        ns = parse_range(n, "n")
        for value, name in ((ms, "m"), (ns, "n")):
            if min(value) < 1:
                raise InvalidInstance(f"{name}: sides must be at least 1", name)
        if backend not in BACKENDS:
            raise InvalidInstance(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}", "backend")
        rows = table_rows(
            ms, ns, budget=budget, max_memory_mb=max_memory_mb, workers=workers or None, backend=backend, address=address
        )
        out.print("m\tn\tT", markup=False)
        for row in rows:
            out.print(f"{row.m}\t{row.n}\t{row.squares}", markup=False)
    except InvalidInstance as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
    except WrongAnswer as exc:
        err.print(f"internal error (please report): {exc}")
        raise typer.Exit(3) from None
    except DPStopped as stop:
        err.print(f"stopped ({stop.reason}) before the table was complete")
        raise typer.Exit(1) from None
    except RuntimeError as exc:  # the ray backend is not installed or not reachable
        err.print(f"error: {exc}")
        raise typer.Exit(2) from None
