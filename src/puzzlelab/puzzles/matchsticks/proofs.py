"""The proofs of A294249's values this project ran and ships in `data/proofs.json`: for
each n = 0..38 the optimum, proven by the `full` method's exhaustive search with
`--count-solutions` (the bound searches included), the number of optimal solutions
it counted (up to the symmetry the search breaks) with their classes, and one optimal
solution; each row names the command, date, CPU or wall seconds and commit of its run
(`benchmarks/bench_matchsticks_proofs.py --record`, gathered by
`benchmarks/ship_matchsticks_proofs.py`).

On load each row is checked (`check_proof`): its squares are one square of each size
1..n inside the largest and recount to its value (`verify.verify_solution`, which shares
no code with the searches); the value equals A294249's proven a(n) in the shipped
table; the classes add up to the count. The proof itself (hours for n = 36) is not run
again: that no arrangement has fewer matches rests on the recorded run. A row that
fails keeps its figures and gets a `problem`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.core.inputs import is_whole
from puzzlelab.core.tables import read_data_text, shipped_rows, write_shipped_json
from puzzlelab.puzzles.matchsticks.model import MAX_N, Instance
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.verify import verify_solution

__all__ = ["DATA_NAME", "ShippedProof", "data_file", "check_proof", "shipped_proofs", "write_proofs"]

PACKAGE = "puzzlelab.puzzles.matchsticks"
DATA_NAME = "proofs.json"
_ROW_KEYS = ("method", "command", "nodes", "workers", "wall_seconds", "cpu_seconds", "subtree_cpu_seconds", "recorded",
             "commit", "machine", "note")


@dataclass(frozen=True)
class ShippedProof:
    """A proven a(n): the optimum, the optimal solutions counted, one of them."""

    n: int
    value: Any
    optimal_solutions: Any
    solution_classes: list[dict[str, Any]]
    squares: list[list[int]]
    provenance: dict[str, Any]
    problem: str | None = None


def data_file() -> Path:
    return Path(str(resources.files(PACKAGE).joinpath("data", DATA_NAME)))


def check_proof(row: dict[str, Any]) -> str | None:
    """None when the row adds up (see the module docstring), else why not."""
    n, value, squares = row.get("n"), row.get("value"), row.get("squares")
    if not is_whole(n) or not 0 <= n <= MAX_N or not is_whole(value):
        return f"n and value: expected integers with 0 <= n <= {MAX_N}, got n={n!r}, value={value!r}"
    if not isinstance(squares, list):
        return "squares: expected a list of [size, x, y]"
    verdict = verify_solution(Instance(n), {"roam": 0, "squares": squares})
    if not verdict.ok:
        return f"the checker rejects its squares: {verdict.message}"
    if verdict.value != value:
        return f"its squares give {verdict.value} matches, not the {value} it claims"
    published = published_table().get(n)
    if published is None or not published["proven"] or published["best_known"] != value:
        return f"{value} matches is not A294249's proven a({n}) in the shipped table"
    classes, count = row.get("solution_classes") or [], row.get("optimal_solutions")
    if classes and sum(c.get("solutions", 0) for c in classes) != count:
        return f"its solution classes add up to {sum(c.get('solutions', 0) for c in classes)}, not the {count} optimal solutions claimed"
    if any(c.get("matches") != value for c in classes):
        return f"a solution class has another number of matches than {value}"
    return None


@lru_cache(maxsize=1)
def shipped_proofs() -> dict[int, ShippedProof]:
    """n -> its shipped proof, each row checked ({} when the file does not ship)."""
    found = {}
    for row, provenance in shipped_rows(PACKAGE, DATA_NAME, "proofs", _ROW_KEYS, read=read_data_text):
        found[row.get("n")] = ShippedProof(row.get("n"), row.get("value"), row.get("optimal_solutions"),
                                           list(row.get("solution_classes") or []), list(row.get("squares") or []),
                                           provenance, check_proof(row))
    return found


def write_proofs(path: str | os.PathLike, rows: list[dict[str, Any]], provenance: dict[str, Any]) -> None:
    """Write the file whole (temporary file, then renamed); a row that does not check
    is refused (ValueError naming n)."""
    for row in rows:
        problem = check_proof(row)
        if problem:
            raise ValueError(f"{DATA_NAME}: n={row.get('n')}: {problem}")
    write_shipped_json(path, provenance, "proofs", rows, "n")
