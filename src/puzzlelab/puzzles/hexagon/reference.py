"""The published hexagon tables shipped in `data/`, loaded once: the contest's best
scores with the SAT arguments that reached them (best_scores.tsv), and the lowest
penalties through each level (level_penalties.tsv) and the solution counts
(solution_counts.tsv), all from Al Zimmermann's
Programming Contest "Hexagonal Neighbors" (2018-2019) and a competitor's write-up (see
the files' attribution lines). Imports nothing of the package: the puzzle object, the
solvers and the proof driver all read the tables from here."""

from __future__ import annotations

import functools
from typing import Any

from puzzlelab.core.tables import read_tsv

__all__ = ["published_table", "level_table", "count_table", "published_arguments", "published_raw", "published_penalty"]

PACKAGE = "puzzlelab.puzzles.hexagon"


@functools.lru_cache(maxsize=None)
def published_table() -> dict[int, dict[str, str]]:
    """best_scores.tsv: n -> its row (column -> text)."""
    return {int(row["n"]): row for row in read_tsv(PACKAGE, "best_scores.tsv")}


@functools.lru_cache(maxsize=None)
def level_table() -> dict[int, tuple[int, int, int, int]]:
    """level_penalties.tsv: n -> lowest penalty through levels 1, 2, 3 and 4-6."""
    return {
        int(r["n"]): (int(r["level1"]), int(r["level2"]), int(r["level3"]), int(r["level4_5_6"]))
        for r in read_tsv(PACKAGE, "level_penalties.tsv")
    }


@functools.lru_cache(maxsize=None)
def count_table() -> dict[int, dict[int, int]]:
    """solution_counts.tsv: n -> {level: number of optimal level grids} (the entries given)."""
    return {
        int(r["n"]): {k: int(r[f"level{k}"]) for k in range(1, 7) if r.get(f"level{k}")}
        for r in read_tsv(PACKAGE, "solution_counts.tsv")
    }


def published_raw(n: int) -> int | None:
    """The published best raw score of order n, None where the table has no row."""
    row = published_table().get(n)
    return None if row is None else int(row["best_raw_score"])


def published_penalty(n: int) -> int | None:
    """The penalty edges of the published best grid of order n, None where unknown."""
    row = published_table().get(n)
    return None if row is None else int(row["penalty_edges"])


def published_arguments(n: int) -> dict[str, Any]:
    """The published SAT program's arguments for n as `sat` method options
    ('-r 4 -I 1 -b 2 -O 4,5' -> {'ring': 4, 'inner': 1, 'break': 2, 'allow_at': (4, 5)}).
    An -I without -r (n = 6) bounds nothing and is dropped."""
    row = published_table().get(n)
    if row is None:
        return {}
    words = row["published_sat_arguments"].split()
    names = {"-r": "ring", "-I": "inner", "-b": "break", "-O": "allow_at"}
    options: dict[str, Any] = {}
    for flag, value in zip(words[::2], words[1::2]):
        if flag in names:
            options[names[flag]] = tuple(int(v) for v in value.split(",")) if flag == "-O" else int(value)
    if "inner" in options and "ring" not in options:
        del options["inner"]  # n=6 lists '-I 4' without '-r': no ring, so no inner part to bound
    return options
