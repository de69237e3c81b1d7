"""The tiling rows the package ships: a tiling of each contest puzzle with its proven
optimum (`puzzles.tiling.contest_tilings`), and A219158 for m = 16..20, n = 16..100
with a tiling for each entry (`puzzles.tiling.a219158`), all computed here."""

from __future__ import annotations

from typing import Iterator

from puzzlelab.puzzles.tiling import a219158, contest_tilings
from puzzlelab.service.shipped.claims import Claim

__all__ = ["PARTS", "CONTESTS", "ROWS", "clear"]

CONTESTS = "tiling contest tilings (data/contest_tilings.json)"
ROWS = "A219158 rows m = 16..20 (data/A219158_m16_20.tsv)"


def _contests() -> Iterator[Claim]:
    for number, row in sorted(contest_tilings.contest_tilings().items(), key=lambda item: str(item[0]).zfill(4)):
        yield Claim(f"contest_{number}", f"contest {number}", row.value, "optimal", "proven optimal", CONTESTS, "prove",
                    row.provenance, row.solution, row.problem, {}, "answer", CONTESTS)


def _rows() -> Iterator[Claim]:
    provenance = {"how": a219158.computed_provenance(), "command": "python benchmarks/bench_tiling_rows.py --data", "method": "exact column DP with width pruning (rows.py)"}
    for row in a219158.computed_rows_checked():
        yield Claim(f"{row.n}x{row.m}", f"{row.m} x {row.n}", row.value, "optimal", "A219158(m, n): the least number of squares",
                    ROWS, "column DP (rows.py)", provenance, row.solution, row.problem, {"m": row.m, "n": row.n}, "answer", ROWS)


PARTS = (("data/contest_tilings.json", _contests), ("data/A219158_m16_20.tsv", _rows))  # one per shipped file: a file that cannot be read leaves the others shown


def clear() -> None:
    contest_tilings.contest_tilings.cache_clear()
    a219158.computed_rows_checked.cache_clear()
    a219158.computed_provenance.cache_clear()
