"""Matchsticks: this tree's kernel against an earlier commit's, same searches, side by
side in one run: CPU seconds (medians of --repeats; CPU time, since the machine is
shared), nodes and the answer, and the ratio. The earlier commit's `src/` is exported
with `git archive` into benchmarks/out/ref-<commit>/ and run in a subprocess.

Run: python benchmarks/bench_matchsticks_versus.py [--ref f15e650] [--full 22 24] [--greedy 30 35] [--repeats 3]
(f15e650: the code before the first round of kernel work; f3ffa0c: before the second, the word test.) Each search: `full` = the proof of n from
its published optimum counting ties (one core, no bound phases); `greedy` = the greedy
search bounded by the diagonal1 value (inclusive), as the greedy method runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from common import export_ref as export
from common import write_json

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search
from puzzlelab.puzzles.matchsticks.reference import published_table
kind, n, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
row = published_table()[n]
run_search(make_descriptor(5, count=True))  # load or compile the kernel first
times = []
for _ in range(repeats):
    if kind == "full":
        descriptor, known = make_descriptor(n, count=True), (row["best_known"], None)
    else:
        descriptor, known = make_descriptor(n, greedy=True, bound=row["diagonal1_best"] + 1), None
    started = time.process_time()
    outcome = run_search(descriptor, known=known)
    times.append(time.process_time() - started)
print(json.dumps({"times": times, "best": outcome.best, "count": outcome.count, "nodes": outcome.nodes}))
"""


def probe(src: Path, kind: str, n: int, repeats: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", PROBE, kind, str(n), str(repeats)], env=env, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    found["cpu_median"] = statistics.median(found["times"])
    return found


def _merged(runs: list[dict]) -> dict:
    """Single runs of one search as one record: every time, their median and minimum."""
    times = [t for run in runs for t in run["times"]]
    return dict(runs[-1], times=times, cpu_median=statistics.median(times), cpu_min=min(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ref", default="f15e650")
    parser.add_argument("--full", type=int, nargs="*", default=[22, 24])
    parser.add_argument("--greedy", type=int, nargs="*", default=[30, 35])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    old_src, new_src = export(args.ref), ROOT / "src"
    rows = []
    for kind, ns in (("full", args.full), ("greedy", args.greedy)):
        for n in ns:
            # One run of each in turn, repeated: a shared machine's load then weighs on
            # both alike; the ratio is of the fastest runs (the least disturbed).
            news, olds = [], []
            for _ in range(args.repeats):
                news.append(probe(new_src, kind, n, 1))
                olds.append(probe(old_src, kind, n, 1))
            new, old = _merged(news), _merged(olds)
            same = (new["best"], new["count"]) == (old["best"], old["count"])
            ratio = old["cpu_min"] / max(new["cpu_min"], 1e-9)
            rows.append({"kind": kind, "n": n, "new": new, "old": old, "same_answer": same, "ratio": ratio})
            print(
                f"{kind:<6} n={n:>2}  best {new['best']} count {new['count']} ({'same' if same else 'DIFFERENT'})  "
                f"this tree {new['cpu_min']:7.2f} s cpu (median {new['cpu_median']:.2f}), {new['nodes']:,} nodes  |  "
                f"{args.ref} {old['cpu_min']:7.2f} s cpu (median {old['cpu_median']:.2f}), {old['nodes']:,} nodes  |  {ratio:.2f}x",
                flush=True,
            )
    write_json("matchsticks_versus", {"benchmark": "matchsticks_versus", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
