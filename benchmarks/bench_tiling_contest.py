"""The contest loop on loopback: our client (`auto` under the 10-second deadline less the
margin) against the practice server, beside CP-SAT given a long budget on the same
puzzles (its optimum where it proves one, else its best and bound).

Prints per puzzle: squares posted, seconds to post, CP-SAT's value/bound; then the mean
squares of each and their ratio.

Run: python benchmarks/bench_tiling_contest.py [--count 10] [--cpsat-seconds 60]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile

from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.tiling.contest import PracticeContest
from puzzlelab.puzzles.tiling.contest_client import run_contest
from puzzlelab.puzzles.tiling.model import parse_grid
from puzzlelab.puzzles.tiling.puzzle import TilingPuzzle
from puzzlelab.service.contest_server import serve_in_thread


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--cpsat-seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=2015)
    args = parser.parse_args()

    url, server = serve_in_thread(PracticeContest(seed=args.seed))
    with tempfile.TemporaryDirectory() as folder:
        try:
            logs = run_contest(url, "bench", args.count, save_dir=folder)
        finally:
            server.should_exit = True
        puzzle = TilingPuzzle()
        rows = []
        for entry in logs:
            grid = parse_grid(json.loads(open(entry.saved).read()))
            peer = puzzle.solve(grid, method="cpsat", budget=Budget(args.cpsat_seconds))
            rows.append(
                {
                    "id": entry.id,
                    "size": f"{entry.width}x{entry.height}",
                    "ours": entry.squares,
                    "posted_s": entry.seconds_to_post,
                    "score": entry.answer["score"],
                    "cpsat": peer.value,
                    "cpsat_bound": peer.bound,
                    "cpsat_status": str(peer.status),
                }
            )
            print(
                f"{entry.width:>2}x{entry.height:<2}  ours {entry.squares:4d} posted {entry.seconds_to_post:5.2f} s   "
                f"CP-SAT {peer.value} ({peer.status}, bound {peer.bound}) in {args.cpsat_seconds:g} s"
            )
    ours = statistics.mean(r["ours"] for r in rows)
    peer_mean = statistics.mean(r["cpsat"] for r in rows)
    posted = statistics.median(r["posted_s"] for r in rows)
    print(f"mean squares: ours {ours:.2f} (median post {posted:.2f} s)  CP-SAT {peer_mean:.2f}  ratio {ours / peer_mean:.4f}")
    write_json("tiling_contest", {"benchmark": "tiling_contest", "rows": rows, "mean_ours": ours, "mean_cpsat": peer_mean})


if __name__ == "__main__":
    main()
