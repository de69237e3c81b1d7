"""The hexagon rows the package ships (`puzzles.hexagon.shipped`): a grid of the
published best raw score for each order, proven optimal where a proof record of its
order adds up; the proof records of orders 3..12; the solution counts the row DP
reproduced, as recorded figures."""

from __future__ import annotations

from typing import Iterator

from puzzlelab.puzzles.hexagon import shipped as files
from puzzlelab.puzzles.hexagon.model import edge_count
from puzzlelab.service.shipped.claims import Claim

__all__ = ["PARTS", "GRIDS", "PROOFS", "COUNTS", "clear"]

GRIDS = "hexagon best grids (data/best_grids.json)"
PROOFS = "hexagon proofs (data/proofs.json)"
COUNTS = "hexagon solution counts (data/counts.json)"


def _grids() -> Iterator[Claim]:
    proofs = files.proof_records()
    for n, grid in sorted(files.best_grids().items(), key=lambda item: str(item[0]).zfill(4)):
        proof = proofs.get(n)
        proven = proof is not None and proof.problem is None and proof.optimum == grid.raw
        provenance = dict(grid.provenance)
        if proven:
            provenance["proof"] = f"{proof.claim}: {proof.provenance.get('method', '')} ({proof.provenance.get('command', '')})"
        penalty = edge_count(n) - grid.raw if isinstance(n, int) and isinstance(grid.raw, int) else None
        options = " ".join(f"{k}={v}" for k, v in (grid.provenance.get("options") or {}).items())
        yield Claim(str(n), f"n = {n}", grid.raw, "optimal" if proven else "feasible",
                    "proven optimal" if proven else "reaches the published best score", GRIDS,
                    f"sat {options}".strip(), provenance, grid.grid, grid.problem, {"penalty": penalty}, "answer", GRIDS)


def _proofs() -> Iterator[Claim]:
    for n, proof in sorted(files.proof_records().items(), key=lambda item: str(item[0]).zfill(4)):
        yield Claim(str(n), f"n = {n}: proof", proof.optimum, "optimal", proof.claim, PROOFS, str(proof.provenance.get("method", "")),
                    proof.provenance, None, proof.problem, {"level": proof.level, "bound": proof.bound}, "proof")


def _counts() -> Iterator[Claim]:
    for row in files.recorded_counts():
        figures = {"level": row.level, "penalty": row.penalty, "published": row.published}
        yield Claim(str(row.n), f"n = {row.n}, level {row.level}", row.count, "optimal",
                    "level-k grids with the lowest level-k penalty, counted", COUNTS, str(row.provenance.get("method", "")),
                    row.provenance, None, row.problem, figures, "count")


PARTS = (("data/best_grids.json", _grids), ("data/proofs.json", _proofs), ("data/counts.json", _counts))  # one per shipped file: a file that cannot be read leaves the others shown


def clear() -> None:
    files.clear_cache()
