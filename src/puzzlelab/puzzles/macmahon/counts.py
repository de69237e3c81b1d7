"""Solution counts this project computed and ships in `data/counts.json`: for each
counted instance the enumerator's count certificate (the total, the classes up to each
symmetry group, examples and the symmetric classes; see verify/checker.py), with the
command, date, CPU seconds and commit of the run that made it
(`benchmarks/ship_macmahon_counts.py` writes the file).

On load every certificate goes through the independent checker (`verify.checker.verify`):
`verdict` is its judgement. A certificate whose total the checker can neither recount
nor compare with a published count (hex2's 11,853,792) is UNCHECKED, never valid: it is
shipped as a recorded count, with what was checked and what was not.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Verdict
from puzzlelab.core.tables import read_data_text, shipped_rows, write_shipped_json
from puzzlelab.puzzles.macmahon.model import parse_instance
from puzzlelab.puzzles.macmahon.verify.checker import verify

__all__ = ["DATA_NAME", "ShippedCount", "data_file", "shipped_counts", "write_counts", "check_count"]

PACKAGE = "puzzlelab.puzzles.macmahon"
DATA_NAME = "counts.json"
_ROW_KEYS = ("method", "command", "cpu_seconds", "wall_seconds", "recorded", "commit", "machine")


@dataclass(frozen=True)
class ShippedCount:
    """One instance's shipped count and the checker's verdict on its certificate."""

    instance: str
    total: Any
    certificate: Any
    provenance: dict[str, Any]
    verdict: Verdict


def data_file() -> Path:
    return Path(str(resources.files(PACKAGE).joinpath("data", DATA_NAME)))


def check_count(instance: str, total: Any, certificate: Any) -> Verdict:
    """The checker's verdict on the certificate, and its total equal to the row's; a
    row without a certificate is UNCHECKED (a recorded count), never valid."""
    if certificate is None:
        return Verdict(False, total, "no certificate ships with this count", unchecked="the total (a recorded count: no certificate ships)")
    try:
        verdict = verify(parse_instance(instance), certificate)
    except (InvalidInstance, ValueError) as exc:
        return Verdict(False, None, f"instance {instance!r}: {exc}")
    if verdict.value != total:
        return Verdict(False, verdict.value, f"the certificate's total is {verdict.value}, not the {total} the row claims")
    return verdict


@lru_cache(maxsize=1)
def shipped_counts() -> dict[str, ShippedCount]:
    """instance -> its shipped count, each certificate checked ({} when none ship)."""
    found = {}
    for row, provenance in shipped_rows(PACKAGE, DATA_NAME, "rows", _ROW_KEYS, read=read_data_text):
        instance, total, certificate = str(row.get("instance")), row.get("total"), row.get("certificate")
        found[instance] = ShippedCount(instance, total, certificate, provenance, check_count(instance, total, certificate))
    return found


def write_counts(path: str | os.PathLike, rows: list[dict[str, Any]]) -> None:
    """Write the file whole (temporary file, then renamed); a certificate the checker
    rejects is refused (ValueError), an unchecked one is written as recorded."""
    for row in rows:
        verdict = check_count(row["instance"], row["total"], row["certificate"])
        if verdict.rejected:
            raise ValueError(f"{DATA_NAME}: {row['instance']}: {verdict.message}")
    provenance = {
        "how": "each count by the enumerate method (the exact count with symmetry classes; "
               "benchmarks/ship_macmahon_counts.py), its certificate checked by verify/checker.py, "
               "and checked again when the file is read (counts.py)",
    }
    Path(path).parent.mkdir(exist_ok=True)
    write_shipped_json(path, provenance, "rows", rows, "instance")
