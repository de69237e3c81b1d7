"""Matchsticks: where the nodes of a proof go. The proof of each n (counting, from the
published optimum, so every subtree searches with the same limit and the figures do
not depend on the order the subtrees finish in) runs with the kernel's per-depth trace
(`measure.trace_search`, subtrees in worker processes), and prints per depth (= per
square size): nodes, how the lookahead killed them (by the parent before placing, by
the node's own word test, else by a scan), free placements, live nodes none of whose
children lived ("barren") and their children, complete boards, nodes with no slack
left; then the slack of the live and of the killed nodes, and a summary.

Run: python benchmarks/profile_matchsticks_nodes.py [--n 28 29 30] [--workers 2]
"""

from __future__ import annotations

import argparse
import time

from common import write_json

from puzzlelab.puzzles.matchsticks.measure import format_slack, format_trace, trace_search
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.search import make_descriptor


def summary(found: dict) -> str:
    rows = found["rows"]
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k not in ("depth", "size")}
    nodes = max(1, found["nodes"])
    expanded = max(1, total["expanded"])
    dead = max(1, total["lookahead_dead"])
    live = total["expanded"] - total["lookahead_dead"] - total["no_candidate"]
    heavy = sorted(rows, key=lambda r: -r["expanded"])[:4]
    band = ", ".join(f"size {r['size']} ({r['expanded'] / expanded:.0%})" for r in sorted(heavy, key=lambda r: r["depth"]))
    return "\n".join(
        [
            f"nodes {found['nodes']:,}; the four heaviest depths: {band}",
            f"killed by the lookahead: {total['lookahead_dead'] / expanded:.1%} of the nodes "
            f"(by the parent before placing {total['prekilled'] / dead:.0%}, by the node's word test {total['word_dead'] / dead:.0%}, "
            f"by a scan {(dead - total['prekilled'] - total['word_dead']) / dead:.0%}); mean gap to the size that failed "
            f"{total['dead_gap'] / dead:.2f}",
            f"live (not killed, with a candidate): {live:,} ({live / expanded:.1%}); barren (no live child): {total['barren']:,} "
            f"({total['barren'] / max(1, live):.0%} of the live), their children {total['barren_children']:,} ({total['barren_children'] / nodes:.0%} of the nodes)",
            f"free placements taken: {total['free']:,} ({total['free'] / expanded:.2%} of the nodes); candidates over the limit: {total['over_limit']:,}; "
            f"nodes with no slack left: {total['no_slack']:,} ({total['no_slack'] / expanded:.1%}); complete boards at the bound: {total['leaves']:,}",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="*", default=[28, 29, 30])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--split-depth", type=int, default=4)
    args = parser.parse_args()
    table = published_table()
    out = []
    for n in args.n:
        descriptor = make_descriptor(n, count=True, bound=table[n]["best_known"])
        started = time.perf_counter()
        found = trace_search(descriptor, workers=args.workers, split_depth=args.split_depth)
        print(f"\n== n = {n}: proof from the published optimum {table[n]['best_known']} (counting): "
              f"best {found['best']}, {found['count']} optimal solutions, {time.perf_counter() - started:.1f} s wall, {args.workers} workers", flush=True)
        print(format_trace(found))
        print(format_slack(found))
        print(summary(found), flush=True)
        out.append({"n": n, **{k: found[k] for k in ("rows", "nodes", "best", "count", "seconds", "complete")}})
    write_json("profile_matchsticks_nodes", {"benchmark": "profile_matchsticks_nodes", "args": vars(args), "runs": out})


if __name__ == "__main__":
    main()
