"""The matchsticks rows the package ships: the proofs of a(n) for n = 0..38 with their
optimal-solution counts (`puzzles.matchsticks.proofs`), the new upper bounds below the
published values (`records`) and the restricted searches' optima (`columns`)."""

from __future__ import annotations

from typing import Any, Iterator

from puzzlelab.puzzles.matchsticks import columns, proofs, records
from puzzlelab.puzzles.matchsticks.columns import COLUMNS, column_rows
from puzzlelab.puzzles.matchsticks.proofs import shipped_proofs
from puzzlelab.puzzles.matchsticks.records import record_rows
from puzzlelab.service.shipped.claims import Claim

__all__ = ["PARTS", "PROOFS", "SHIPPED", "clear"]

PROOFS = "matchsticks proofs (data/proofs.json)"
SHIPPED = "matchsticks shipped answers (restricted columns, new records)"
PROOFS_FILE, RECORDS_FILE, COLUMNS_FILE = (f"matchsticks data/{name}" for name in ("proofs.json", records.DATA_NAME, columns.DATA_NAME))


def _proofs() -> Iterator[Claim]:
    for n, proof in sorted(shipped_proofs().items(), key=lambda item: str(item[0]).zfill(4)):
        figures = {"optimal_solutions": proof.optimal_solutions, "solution_classes": proof.solution_classes}
        yield Claim(str(n), f"n = {n}", proof.value, "optimal", "proven optimal", PROOFS_FILE, "full --count-solutions",
                    proof.provenance, {"roam": 0, "squares": proof.squares}, proof.problem, figures, "answer", PROOFS)


def _records() -> Iterator[Claim]:
    shipped = record_rows()
    for row, problem in shipped["rows"]:
        n = row.get("n")
        provenance = {"how": shipped["provenance"], "command": row.get("found_by"), "started_from": row.get("started_from"),
                      "recorded": row.get("recorded"), "commit": row.get("commit")}
        yield Claim(str(n), f"n = {n}", row.get("value"), "feasible", f"new upper bound, below the published {row.get('published')}",
                    RECORDS_FILE, "band search (new record)", provenance, {"roam": 0, "squares": row.get("squares")}, problem,
                    {"published": row.get("published")}, "record", SHIPPED)


def _columns() -> Iterator[Claim]:
    shipped = column_rows()
    shared: dict[str, Any] = shipped["provenance"] or {}
    for column, row, problem in shipped["rows"]:
        n = row.get("n")
        commands = [c for c in shared.get("commands", []) if column in c]
        provenance = {"how": shared.get("how"), "commands": commands, "seconds": row.get("seconds"), "nodes": row.get("nodes"),
                      "recorded": row.get("recorded"), "commit": row.get("commit"), "machine": shared.get("machine"),
}
        method = COLUMNS[column][0] if column in COLUMNS else column
        yield Claim(str(n), f"n = {n}, {column}", row.get("value"), "feasible", f"exact optimum of the {column} search", f"{COLUMNS_FILE} ({column})",
                    f"{method} ({column})", provenance, {"roam": 0, "squares": row.get("squares")}, problem, {"column": column}, "column",
                    SHIPPED)


PARTS = ((PROOFS_FILE, _proofs), (RECORDS_FILE, _records), (COLUMNS_FILE, _columns))  # one per shipped file: a file that cannot be read leaves the others shown


def clear() -> None:
    proofs.shipped_proofs.cache_clear()
