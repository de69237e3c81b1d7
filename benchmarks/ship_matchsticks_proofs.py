"""Gather the matchsticks proofs recorded by `bench_matchsticks_proofs.py --record`
(one or more record files, later files first) into the package's `data/proofs.json`
(rows already shipped stay for the n no record file has):
for each n its optimum, optimal-solution count and classes, one optimal solution, and
how it was run (command, date, seconds, commit). Every row is checked on the way
(`proofs.check_proof`).

    python benchmarks/ship_matchsticks_proofs.py proofs/matchsticks-proofs.json MORE.json ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from puzzlelab.puzzles.matchsticks.proofs import data_file, write_proofs

PROVENANCE = {
    "how": "each n proven optimal by the full method's exhaustive search with --count-solutions (bound searches "
           "included), its optimal solutions counted up to the symmetry the search breaks and classified as the write-up "
           "does (squares on the main diagonal, first square off it); the run's answer verified by verify.py; checked "
           "again when the file is read (proofs.py). cpu_seconds: the process's own CPU time (one worker); "
           "subtree_cpu_seconds: the kernel seconds summed over the subtrees of a resumed run",
    "method": "full --count-solutions",
}
KEYS = ("n", "value", "optimal_solutions", "solution_classes", "nodes", "workers", "wall_seconds", "cpu_seconds",
        "subtree_cpu_seconds", "recorded", "commit", "machine", "note")


def row_of(entry: dict) -> dict:
    row = {k: entry[k] for k in KEYS if entry.get(k) is not None}
    row["squares"] = entry["solution"]["squares"]
    if "note" in row:  # the campaign's notes, in the words a reader of the data needs
        row["note"] = row["note"].replace("ran in the session of ", "ran on ").replace("beside helpers and a test run", "beside other jobs")
    row["command"] = (f"python benchmarks/bench_matchsticks_proofs.py --n {entry['n']} --workers {entry['workers']} --record FILE"
                      f" (puzzlelab matchsticks solve {entry['n']} --method full --count-solutions --workers {entry['workers']})")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("records", nargs="+", help="record files of bench_matchsticks_proofs.py --record")
    args = parser.parse_args()
    rows: dict[int, dict] = {}
    for path in args.records:
        for key, entry in json.loads(Path(path).read_text())["proofs"].items():
            if entry.get("status") == "optimal" and entry.get("verified") and int(key) not in rows:
                rows[int(key)] = row_of(entry)
    if data_file().exists():
        for row in json.loads(data_file().read_text())["proofs"]:
            rows.setdefault(int(row["n"]), row)
    write_proofs(data_file(), [rows[n] for n in sorted(rows)], PROVENANCE)
    print(f"wrote {data_file()}: n = {', '.join(map(str, sorted(rows)))}")


if __name__ == "__main__":
    main()
