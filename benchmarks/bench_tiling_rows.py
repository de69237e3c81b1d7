"""A219158 rows past 15: the pruned sweep of `rows.py` per row m,
its time and peak memory, beside the plain sweep that keeps every frontier shape (the
peer: what `table` did before) on the narrower widths where that one still runs.

Each row runs in a fresh process, so its peak memory (max resident set) is its own.
Every entry is checked against the published table where one exists (the shipped
part of A219158 stops at m = 10, so rows past 15 have no published value here) and
against the plain sweep where it ran; every tiling is verified by the checker.
`--data PATH` writes the rows with their tilings (the shipped
`data/A219158_m16_20.tsv`).

Run: nice -n 5 .venv/bin/python benchmarks/bench_tiling_rows.py [--m 16..20] [--n-max 100]
     [--peer-width 40] [--peer-m 16..18] [--data PATH]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import resource
import time

import numpy as np
from common import write_json

from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles.tiling.a219158 import squares_text
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.reference import a219158_table
from puzzlelab.puzzles.tiling.verify import check_result


def span(text: str) -> list[int]:
    lo, _, hi = text.partition("..")
    return list(range(int(lo), int(hi or lo) + 1))


def pruned_row(m: int, n_max: int):
    from puzzlelab.puzzles.tiling.rows import row_tilings, short_table

    short_table(max(n_max, m))  # the bounds' small rectangles, outside the clock
    row_tilings(m, [m])  # load (or compile) the kernel outside the clock
    started = time.process_time()
    answers, stats = row_tilings(m, list(range(1, n_max + 1)))
    seconds = time.process_time() - started
    return answers, stats, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def plain_row(m: int, width: int):
    from puzzlelab.puzzles.tiling.dp import ColumnDP

    ColumnDP(np.ones((m, 2), dtype=bool)).run()  # load (or compile) the kernel outside the clock
    started = time.process_time()
    dp = ColumnDP(np.ones((m, width), dtype=bool), record_flush=True, max_memory_mb=16000)
    dp.run()
    seconds = time.process_time() - started
    counts = {n: int(c) for n, (_, c) in enumerate(dp.flush, 1)}
    return counts, dp.peak_states, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def in_fresh_process(fn, *args):
    with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", default="16..20")
    parser.add_argument("--n-max", type=int, default=100)
    parser.add_argument("--peer-width", type=int, default=40)
    parser.add_argument("--peer-m", default="16..18")
    parser.add_argument("--data", default=None)
    args = parser.parse_args()

    published = a219158_table()
    report, lines = [], []
    for m in span(args.m):
        answers, stats, seconds, rss = in_fresh_process(pruned_row, m, args.n_max)
        for n, (count, squares) in answers.items():
            grid = Grid.rectangle(n, m)
            check_result(grid, Result(count, format_solution(grid, squares), Status.OPTIMAL, "dp", bound=count))
            key = (min(m, n), max(m, n))
            assert key not in published or published[key] == count, (m, n, count, published[key])
            if n >= 16:
                lines.append(f"{m}\t{n}\t{count}\t{squares_text(squares)}")
        row = {"m": m, "seconds_cpu": seconds, "peak_rss_mb": rss, **stats, "T": [answers[n][0] for n in sorted(answers)]}
        line = f"m = {m:2d}, n = 1..{args.n_max}: {seconds:7.2f} s CPU, peak {rss:7.0f} MB resident, {stats['peak_states']} states at most"
        if m in span(args.peer_m):
            counts, peak, peer_s, peer_rss = in_fresh_process(plain_row, m, args.peer_width)
            same = all(counts[n] == answers[n][0] for n in range(1, args.peer_width + 1))
            _, _, small_s, _ = in_fresh_process(pruned_row, m, args.peer_width)
            row["peer"] = {"width": args.peer_width, "seconds_cpu": peer_s, "peak_rss_mb": peer_rss, "peak_states": peak,
                           "pruned_seconds_cpu": small_s, "agree": same}  # fmt: skip
            line += (f"   | n <= {args.peer_width}: plain sweep {peer_s:.2f} s, {peer_rss:.0f} MB, {peak} states;"
                     f" pruned {small_s:.2f} s: {peer_s / small_s:.1f}x, {'same values' if same else 'VALUES DIFFER'}")  # fmt: skip
        print(line, flush=True)
        report.append(row)
    for row in report:
        print(f"T({row['m']}, 16..{args.n_max}):", " ".join(map(str, row["T"][15:])))
    if args.data:
        with open(args.data, "w", encoding="utf-8") as out:
            out.write("# OEIS A219158 rows m = 16..20, n = 16..100, computed for puzzlelab by the exact\n")
            out.write("# column DP with width pruning (src/puzzlelab/puzzles/tiling/rows.py; every state that could\n")
            out.write("# still end in an optimum of some width is kept, so T is the least); squares: x,y,size of a\n")
            out.write("# tiling with T squares, re-verified on load. Reproduce: benchmarks/bench_tiling_rows.py --data\n")
            out.write("m\tn\tT\tsquares\n")
            out.write("\n".join(lines) + "\n")
        print(f"wrote {args.data}")
    write_json("tiling_rows", {"benchmark": "A219158 rows past 15", "rows": report})


if __name__ == "__main__":
    main()
