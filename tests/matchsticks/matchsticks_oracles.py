"""Oracles shared by the matchsticks tests: the published table and drawings, and a
brute force over every placement of every square (no symmetry breaking, no pruning)."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "src" / "puzzlelab" / "puzzles" / "matchsticks" / "data"


def published_rows() -> dict[int, dict[str, int]]:
    lines = [line for line in (DATA / "a294249.tsv").read_text().splitlines() if line and not line.startswith("#")]
    return {int(r["n"]): {k: int(v) for k, v in r.items() if k != "status"} for r in csv.DictReader(lines, delimiter="\t")}


def published_drawings() -> list[list[str]]:
    """The drawings of data/drawings.txt, each as its lines (comments dropped)."""
    blocks, current = [], []
    for line in (DATA / "drawings.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                blocks.append(current)
                current = []
            continue
        current.append(line)
    if current:
        blocks.append(current)
    return blocks


def brute_force_minimum(n: int, roam: int = 0) -> int:
    """Fewest matches over every placement of squares 1..n with the largest at (0, 0) and
    the others anywhere within `roam` of it: a plain product over all positions."""
    if n == 0:
        return 0
    lo, hi = -roam, n + roam

    def sides(s, x, y):
        return frozenset(
            [("h", x + i, y) for i in range(s)]
            + [("h", x + i, y + s) for i in range(s)]
            + [("v", x, y + i) for i in range(s)]
            + [("v", x + s, y + i) for i in range(s)]
        )

    per_size = [[sides(s, x, y) for y in range(lo, hi - s + 1) for x in range(lo, hi - s + 1)] for s in range(n - 1, 0, -1)]
    start = sides(n, 0, 0)
    best = None
    for combo in itertools.product(*per_size):
        total = len(start.union(*combo))
        if best is None or total < best:
            best = total
    return best
