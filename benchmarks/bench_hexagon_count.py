"""The write-up's solution-count table (seed write-up, "Solution Counts"), entry by
entry, by the row-by-row DP of `hexagon count` (rowdp/dp.py), beside the SAT enumeration
it replaced (the peer, on the orders where it finishes within --peer-limit), with the
ratio. Prints each entry, its time and match/mismatch against the published figure;
an entry out of reach prints the measured reason (out of time or of the state limit,
at which cell).

    python benchmarks/bench_hexagon_count.py [--orders 3..8] [--budget 600] [--peer-orders 3..5] [--checkpoints DIR]

With --checkpoints each order keeps its DP tables and finished counts in DIR/nN
(rowdp/tables.py): an entry stopped by --budget resumes on the next run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.reference import count_table  # noqa: E402
from puzzlelab.puzzles.hexagon.rowdp.count import BudgetExceeded, count_by_dp, count_solutions  # noqa: E402


def dp_row(n: int, budget: float, checkpoints: Path | None = None) -> dict:
    published = count_table()[n]
    levels = sorted(published)
    rows: dict = {}
    t0 = time.perf_counter()

    def show(level: int, low: int, total: int, seconds: float) -> None:
        verdict = "match" if total == published[level] else f"MISMATCH (published {published[level]})"
        took = f"{seconds:.1f} s" if seconds else "counted by an earlier run (read back from --checkpoints)"
        print(f"n={n} level {level}: penalty {low}, {total:,} grids, {took}  {verdict}", flush=True)
        rows[level] = {"penalty": low, "count": total, "seconds": round(seconds, 2), "match": total == published[level]}

    # Orders past the published complete rows: each level under its own bound (a chain
    # under level 2's bound would count level 1 up to that looser bound).
    chains = [levels] if len(levels) == 6 else [[k] for k in levels]
    for chain in chains:
        try:
            folder = checkpoints / f"n{n}" / "-".join(map(str, chain)) if checkpoints else None
            count_by_dp(n, chain, budget=Budget(budget), on_level=show, checkpoint=folder)
        except BudgetExceeded as exc:
            print(f"n={n}: out of reach after {time.perf_counter() - t0:.0f} s: {exc}", flush=True)
            rows[f"stopped{chain[0]}"] = str(exc)
    rows["seconds"] = round(time.perf_counter() - t0, 2)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--orders", default="3..8")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per chain of levels (an order, or a level past n = 8) for the DP")
    ap.add_argument("--peer-orders", default="3..5", help="orders also counted by SAT enumeration")
    ap.add_argument("--peer-limit", type=float, default=300.0)
    ap.add_argument("--checkpoints", type=Path, default=None, help="folder for the DP's resumable tables, one subfolder per order")
    args = ap.parse_args()
    peers = set(parse_range(args.peer_orders, "peer-orders")) if args.peer_orders else set()
    out = {}
    for n in parse_range(args.orders, "orders"):
        out[n] = {"dp": dp_row(n, args.budget, args.checkpoints)}
        if n in peers:
            t0 = time.perf_counter()
            try:
                sat = count_solutions(n, sorted(count_table()[n]), budget=Budget(args.peer_limit), method="sat")
                seconds = time.perf_counter() - t0
                same = all(out[n]["dp"].get(k, {}).get("count") == c for k, (_, c) in sat.items())
                print(f"n={n}: SAT enumeration {seconds:.1f} s, DP {out[n]['dp']['seconds']:.1f} s, SAT/DP = {seconds / out[n]['dp']['seconds']:.1f}, counts {'equal' if same else 'DIFFER'}")
                out[n]["sat"] = {"seconds": round(seconds, 2), "equal": same}
            except BudgetExceeded as exc:
                print(f"n={n}: SAT enumeration out of reach in {args.peer_limit:.0f} s: {exc}")
    write_json("hexagon_count", {str(k): v for k, v in out.items()})


if __name__ == "__main__":
    main()
