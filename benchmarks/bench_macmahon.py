"""MacMahon squares: the numba enumerator beside CP-SAT enumerating every solution of the
write-up's model, and HiGHS (the write-up's MIP) beside the enumerator's `first` for one
solution. All in one process run, peers side by side, ratios printed.

Parts (pick with --parts, default all):
- `small`: instances CP-SAT finishes (counts must agree): enumerator vs CP-SAT
  enumerate_all_solutions, medians of --repeats runs.
- `count`: the full 4x6 count (106,624) by the enumerator (median of --repeats runs, wall
  and CPU seconds) beside CP-SAT enumerating the same model for --cpsat-seconds: its
  solutions per second, and the time it would need for all at that rate (a projection).
- `first`: time to one solution of 4x6: HiGHS on the MIP, CP-SAT (one worker), the
  enumerator's `first`.

HiGHS and OR-tools cannot share a process (isolation.py): CP-SAT runs in a child process
once HiGHS is loaded; its seconds are measured inside the child around Solve.

Run: nice -n 10 python benchmarks/bench_macmahon.py [--parts small,count,first] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.macmahon.enumerator import count_solutions, first_solution
from puzzlelab.puzzles.macmahon.model import parse_instance

SMALL = (
    "2x3/free",
    "hex1/c2/free/tiles=WWW,WWR,WRR,RRR,WWR,WRR",
    "3x3/c3/border=white/tiles=WWWR*4,WWWB*2,WWRR,WWRB,WRWB",
    "3x4/c3/border=white/tiles=WWWR*4,WWWB*2,WWBR,WRWR,WRRR*2,WRRB,WBRB",
)


def enumerate_timed(inst, repeats: int, symmetry: bool = True) -> dict:
    walls, cpus, total = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        stats = count_solutions(inst, budget=Budget(), symmetry=symmetry)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        assert stats["complete"]
        total, nodes, classes = stats["total"], stats["nodes"], dict(zip(stats["groups"], stats["classes"]))
    return {"total": total, "nodes": nodes, "classes": classes, "wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus), "runs": repeats}


def cpsat_timed(inst, seconds: float | None, repeats: int, limit: int | None = None) -> dict:
    from puzzlelab.puzzles.macmahon.cpsat import cpsat_solutions

    times, count, outcome = [], 0, ""
    for _ in range(repeats):
        count, outcome, stats, _ = cpsat_solutions(inst, Budget(seconds), limit, 0)
        times.append(stats["seconds"])
    return {"count": count, "outcome": outcome, "seconds": statistics.median(times), "runs": repeats}


def part_small(repeats: int) -> list[dict]:
    rows = []
    for name in SMALL:
        inst = parse_instance(name)
        ours = enumerate_timed(inst, repeats, symmetry=False)
        peer = cpsat_timed(inst, 300.0, repeats)
        assert peer["outcome"] in ("all", "infeasible") and peer["count"] == ours["total"], (name, peer, ours)
        ratio = peer["seconds"] / ours["wall_s"]
        print(f"{name}: {ours['total']:,} solutions   enumerator {ours['wall_s']:.4f} s   CP-SAT all {peer['seconds']:.3f} s   ratio {ratio:,.0f}x")
        rows.append({"instance": name, "enumerator": ours, "cpsat": peer, "ratio_cpsat_over_enumerator": ratio})
    return rows


def part_count(repeats: int, cpsat_seconds: float) -> dict:
    inst = parse_instance("4x6")
    ours = enumerate_timed(inst, repeats, symmetry=True)
    print(f"4x6 enumerator: {ours['total']:,} solutions, classes {ours['classes']}, {ours['nodes']:,} nodes, "
          f"median wall {ours['wall_s']:.2f} s, CPU {ours['cpu_s']:.2f} s ({repeats} runs)")
    peer = cpsat_timed(inst, cpsat_seconds, 1)
    rate = peer["count"] / peer["seconds"] if peer["seconds"] else 0.0
    projected = ours["total"] / rate if rate else float("inf")
    print(f"4x6 CP-SAT: {peer['count']:,} solutions in {peer['seconds']:.1f} s ({rate:,.0f}/s); all 106,624 at that rate: "
          f"{projected:,.0f} s; ratio (projected CP-SAT / enumerator wall) {projected / ours['wall_s']:,.0f}x")
    return {"instance": "4x6", "enumerator": ours, "cpsat": dict(peer, solutions_per_s=rate, projected_all_s=projected),
            "ratio_projected": projected / ours["wall_s"], "target_s": 10.0}


def part_first(repeats: int) -> dict:
    from puzzlelab.puzzles.macmahon.mip import model_feasible

    inst = parse_instance("4x6")
    ours = []
    for _ in range(repeats):
        w = time.perf_counter()
        codes, what, nodes = first_solution(inst, Budget(60))
        ours.append(time.perf_counter() - w)
        assert codes is not None
    highs = []
    for _ in range(repeats):
        outcome, codes, seconds = model_feasible(inst, None, 300.0)
        assert outcome == "found"
        highs.append(seconds)
    peer = cpsat_timed(inst, 300.0, repeats, limit=1)
    row = {"enumerator_first_s": statistics.median(ours), "highs_first_s": statistics.median(highs), "cpsat_first_s": peer["seconds"], "runs": repeats}
    print(f"4x6 first solution: enumerator {row['enumerator_first_s']:.4f} s   HiGHS {row['highs_first_s']:.2f} s   CP-SAT {row['cpsat_first_s']:.2f} s   "
          f"ratios HiGHS/enumerator {row['highs_first_s'] / row['enumerator_first_s']:,.0f}x, CP-SAT/enumerator {row['cpsat_first_s'] / row['enumerator_first_s']:,.0f}x")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="small,count,first")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cpsat-seconds", type=float, default=30.0)
    args = parser.parse_args()
    parts = args.parts.split(",")
    count_solutions(parse_instance("2x3/free"), budget=Budget())  # compile / load the kernels first
    first_solution(parse_instance("2x3/free"), Budget())
    payload: dict = {"benchmark": "macmahon", "repeats": args.repeats}
    if "small" in parts:
        payload["small"] = part_small(args.repeats)
    if "first" in parts:
        payload["first"] = part_first(args.repeats)
    if "count" in parts:
        payload["count"] = part_count(args.repeats, args.cpsat_seconds)
    write_json("macmahon" + ("" if parts == ["small", "count", "first"] else "_" + "_".join(parts)), payload)


if __name__ == "__main__":
    main()
