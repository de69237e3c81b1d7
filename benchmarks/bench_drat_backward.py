"""The DRAT checker forward and backward on the same certificate (issue 25): a slice of a
hexagon proof checkpoint's cubes is refuted once by `refute_cubes(certified=True)` with
DRAT certificates (certify.PROOF_FORMAT = "drat"),
which hands its proof to the checker piece by piece (every certify.CHUNK_SECONDS of
solving); the pieces and goals are recorded, then checked again by a fresh checker in
each mode, side by side: CPU seconds (median of --repeats), lemmas checked of the
lemmas in the proof, and the ratio forward / backward. The same bytes for both, so
the solver's own variance is out of the comparison.

    python benchmarks/bench_drat_backward.py --checkpoint proofs/hexagon-n8-level3-raw442.json --cubes 1100:12 [--budget S] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core import drat  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon import certify  # noqa: E402
from puzzlelab.puzzles.hexagon.refute import refute_cubes  # noqa: E402


def record(path: str, where: str, budget: float | None) -> tuple[list, list, int]:
    """(formula, pieces [(bytes, goals, final)], cubes refuted) of a certified run of the slice."""
    saved = json.loads(Path(path).read_text())
    start, count = (int(part) for part in where.split(":"))
    formula, pieces = [], []
    make, feed = drat.DratChecker.__init__, drat.DratChecker.feed

    def recording_init(self, clauses, **options):
        clauses = [list(c) for c in clauses]
        formula.append(clauses)
        make(self, clauses, **options)

    def recording_feed(self, proof, goals=(), *, final=False):
        pieces.append((bytes(proof), list(goals), final))
        return feed(self, proof, goals, final=final)

    drat.DratChecker.__init__, drat.DratChecker.feed = recording_init, recording_feed
    certify.PROOF_FORMAT = "drat"
    try:
        out = refute_cubes(saved["n"], saved["level"], saved["bound"], saved["symmetry"], saved["cubes"][start : start + count], certified=True, budget=Budget(budget))
    finally:
        drat.DratChecker.__init__, drat.DratChecker.feed = make, feed
    if len(formula) != 1:
        raise SystemExit(f"expected one checker for the slice, got {len(formula)}")
    return formula[0], pieces, len(out.refuted)


def check(formula: list, pieces: list, backward: bool) -> tuple[float, drat.DratProgress]:
    t0 = time.process_time()
    checker = drat.DratChecker(formula, binary=True, rat=False, backward=backward)
    for data, goals, final in pieces:
        progress = checker.feed(data, goals, final=final)
    if progress.error is not None:
        raise SystemExit(f"backward={backward}: {progress.error}")
    return time.process_time() - t0, progress


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--cubes", default="1100:12", help="START:COUNT of the checkpoint's cubes")
    parser.add_argument("--budget", type=float, help="wall seconds for the certified run (default: none)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for backward in (False, True):  # compile the kernels outside the timing
        drat.check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2]], b"a\x02\x00d\x02\x04\x00a\x00", backward=backward)
    formula, pieces, refuted = record(args.checkpoint, args.cubes, args.budget)
    size = sum(len(data) for data, _, _ in pieces)
    rows = {}
    for _ in range(args.repeats):
        for backward in (False, True):  # interleaved, so that both see the same load
            seconds, progress = check(formula, pieces, backward)
            rows.setdefault(backward, []).append((seconds, progress))
    forward, backward = (statistics.median(s for s, _ in rows[mode]) for mode in (False, True))
    done = {mode: rows[mode][0][1] for mode in (False, True)}
    print(
        f"cubes {args.cubes}: {refuted} refuted, {len(pieces)} pieces, DRAT {size:,} bytes, {done[False].lemmas:,} lemmas; "
        f"forward {forward:.1f} s CPU ({done[False].checked:,} checked), backward {backward:.1f} s CPU ({done[True].checked:,} checked), "
        f"ratio {forward / max(backward, 1e-9):.2f} (median of {args.repeats})"
    )
    write_json("bench_drat_backward", {"cubes": args.cubes, "refuted": refuted, "pieces": len(pieces), "proof_bytes": size, "lemmas": done[False].lemmas,
                                       "forward_cpu": forward, "backward_cpu": backward, "forward_checked": done[False].checked, "backward_checked": done[True].checked})


if __name__ == "__main__":
    main()
