"""Matchsticks: how many nodes a running greedy campaign n will take, from n - 1's.

Greedy n and n - 1 are cut into the same root prefixes (the same squares, every size
one less), so each root subtree that n has finished can be set beside the same root of
n - 1. The ratio of their nodes over the finished roots, applied to n - 1's nodes on
the roots n has not finished, gives the estimate (a root counts only where both have finished every subtree of it). n - 1's checkpoint is removed when its
row is recorded, so its last version is read from git (`--previous-rev`); the nodes its
checkpoint lacks (the last subtrees before the row) count as unfinished roots.

Run: python benchmarks/estimate_matchsticks_greedy.py --n 63 --previous-rev 134b3d3
     [--rev REV] [--checkpoints proofs] [--workers 2] [--block 500]
n's checkpoint is read from the working tree, or from git at `--rev` (so a figure quoted
for a committed checkpoint can be had again once the campaign has moved on). Prints the ratio per block of finished roots, the estimate of n's nodes, and the hours
left at the rate n's finished subtrees ran at (their own seconds) on --workers workers.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from puzzlelab.puzzles.matchsticks.columns import shipped_columns

ROOT_SQUARES = 7  # squares in a first cut's prefix (the campaign's 7,455 roots)


def _roots(checkpoint: dict, n: int) -> tuple[dict[tuple, int], set[tuple]]:
    """Nodes of the finished subtrees summed by root prefix (sizes written as n - size),
    and the roots with a subtree still to search."""
    nodes: dict[tuple, int] = defaultdict(int)
    open_roots: set[tuple] = set()
    for index, prefix in enumerate(checkpoint["prefixes"]):
        root = tuple((n - size, x, y) for size, x, y in prefix[:ROOT_SQUARES])
        result = checkpoint["done"].get(str(index))
        if result is None:
            open_roots.add(root)
        else:
            nodes[root] += result["nodes"]
    return nodes, open_roots


def _checkpoint_at(rev: str, path: str, option: str) -> dict:
    """A checkpoint as committed at git revision `rev`; a bad revision is a one-line exit."""
    shown = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"{option}: {shown.stderr.strip()}")
    return json.loads(shown.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--previous-rev", required=True, help="git revision holding n - 1's last checkpoint")
    parser.add_argument("--rev", help="git revision holding n's checkpoint (default: the working tree)")
    parser.add_argument("--checkpoints", default="proofs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--block", type=int, default=500)
    args = parser.parse_args()
    previous_n = args.n - 1
    rows = shipped_columns()["columns"]["greedy"]
    if previous_n not in rows:
        sys.exit(f"--n: greedy n = {previous_n} is not in the shipped rows; estimate from a finished n - 1")
    previous_file = _checkpoint_at(args.previous_rev, f"{args.checkpoints}/matchsticks-greedy-n{previous_n}.json", "--previous-rev")
    previous, previous_open = _roots(previous_file, previous_n)
    current_path = f"{args.checkpoints}/matchsticks-greedy-n{args.n}.json"
    if args.rev:
        current_file = _checkpoint_at(args.rev, current_path, "--rev")
    else:
        current_file = json.loads(Path(current_path).read_text())
    current, current_open = _roots(current_file, args.n)
    previous_total = rows[previous_n]["nodes"]
    finished = [r for r in current if r in previous and r not in current_open and r not in previous_open]
    print(f"greedy n = {args.n}: {len(current_file['done'])} subtrees finished, beside n = {previous_n} ({previous_total / 1e9:.2f} billion nodes in all)")
    for start in range(0, len(finished), args.block):
        block = finished[start : start + args.block]
        ours, theirs = sum(current[r] for r in block), sum(previous[r] for r in block)
        print(f"  roots {start}..{start + len(block) - 1}: {ours / 1e9:.2f} vs {theirs / 1e9:.2f} billion, ratio {ours / theirs:.2f}")
    ours, theirs = sum(current[r] for r in finished), sum(previous[r] for r in finished)
    ratio = ours / theirs
    done_nodes = sum(current.values())
    estimate = ours + ratio * (previous_total - theirs)
    left = estimate - done_nodes
    seconds = sum(r["seconds"] for r in current_file["done"].values())
    rate = done_nodes / seconds if seconds else float("nan")
    print(
        f"ratio {ratio:.3f} over {len(finished)} roots: n = {args.n} about {estimate / 1e9:.0f} billion nodes, "
        f"{done_nodes / 1e9:.1f} done; {left / 1e9:.0f} billion left, about {left / rate / args.workers / 3600:.1f} h "
        f"on {args.workers} workers at {rate / 1e6:.2f} million nodes a second each"
    )


if __name__ == "__main__":
    main()
