"""`bfs` from one 5 x 7 start: every target of the font with its optimal length, time
and peak memory, on one thread and on several side by side, then the level-expansion
variants measured on the finished array.

1. The run (in a forked child, so its peak RSS is its own): all 36 targets reached,
   each path rebuilt, verified by replay and compared with the published sample;
   wall and CPU time (target: under 10 minutes on one core) and peak memory (target:
   under 1.5 GB); the boards and time of every level. When a symmetry fixes the start
   the run stores one board per orbit (bfs/symmetry.py) unless --no-symmetry.
   `--threads 1,2` runs it once per thread count, one after the other (one
   5 x 7 start in under 6 minutes of wall time on 2 cores), checks that every run
   made the same levels and the same array (SHA-256 of its bytes) and prints wall
   time, CPU time, peak RSS and the speed-up of each against the first. Wall time is
   the figure that counts here: run it on an otherwise idle machine.
2. --compare LEVELS (on an array made with --no-symmetry): from the finished array,
   the state before each given level is restored (bytes above it cleared) and that
   level is expanded by push on RAM (huge pages) probing the seen bits directly (the
   default), with one board per orbit (`orbits`: the bytes of non-canonical boards
   cleared first) or in sorted batches, push probing each level byte directly (on RAM
   and on the file memmap), and pull with every board or one per orbit -- CPU seconds
   each, and a check that each marks exactly the level's boards.

    nice -n 10 python benchmarks/bench_coins_bfs.py [--start font5x7:A] [--threads 1,2] [--workdir DIR] [--no-symmetry] [--compare 9,14,20]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing as mp
import os
import resource
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numba
from common import write_json

from puzzlelab.core.rank import next_subset, unrank
from puzzlelab.core.result import Budget, Result, Status
from puzzlelab.puzzles.coins import PUZZLE, model, reference
from puzzlelab.puzzles.coins.bfs.symmetry import canonical


class _ThreadClock:
    """The CPU seconds each thread spends in each pass over the array's spans (a level's
    expansion, a frontier or marking pass), read with time.thread_time. The busiest
    thread of a pass is how long that pass takes on cores of its own, so the sum of
    those, plus the CPU spent outside the spans, is the wall time the run would take
    on an idle machine: a figure the other jobs on a shared machine distort far less
    than they distort wall time (they still slow the caches)."""

    def __init__(self, kernels):
        self.passes: list[dict[int, float]] = []
        self._lock = threading.Lock()
        plain = kernels.over_blocks

        def over_blocks(fn):
            spent: dict[int, float] = {}
            self.passes.append(spent)

            def timed(lo, hi):
                began = time.thread_time()
                out = fn(lo, hi)
                with self._lock:
                    key = threading.get_ident()
                    spent[key] = spent.get(key, 0.0) + time.thread_time() - began
                return out

            return plain(timed)

        kernels.over_blocks = over_blocks

    def figures(self, cpu_seconds: float) -> dict:
        spans = sum(sum(p.values()) for p in self.passes)
        busiest = sum(max(p.values(), default=0.0) for p in self.passes)
        outside = max(0.0, cpu_seconds - spans)
        return {"span_cpu_seconds": spans, "busiest_thread_seconds": busiest, "outside_spans_cpu_seconds": outside,
                "idle_machine_wall_estimate_seconds": outside + busiest}


def _run_child(conn, start: str, workdir: str, storage: str, mode: str, symmetry: bool, threads: int, max_level: int | None) -> None:
    from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun

    begin = model.parse_start(start)
    font = model.fonts()[begin.font]
    targets = {g: font["glyphs"][g] for g in font["order"] if g != begin.glyph}
    wall, cpu = time.perf_counter(), time.process_time()
    run = LevelArrayRun(begin, workdir, storage=storage, symmetry=symmetry, resume=False, threads=threads)  # timed from level 0
    clock = _ThreadClock(run.kernels)

    def progress(event):
        print(f"  {event.phase} {event.message} {100 * (event.fraction or 0):5.1f}%  {event.stats}", flush=True)

    outcome = run.run(targets, budget=Budget(), progress=progress, mode=mode, max_level=max_level)
    search_wall, search_cpu = time.perf_counter() - wall, time.process_time() - cpu
    rows = []
    for glyph, board in targets.items():
        key = f"{begin.key}-{glyph}"
        row = {"target": key, "published": reference.published_lengths().get(key)}
        if glyph in outcome.found:
            moves = run.moves(board)
            result = PUZZLE.check(PUZZLE.parse(key), Result(len(moves), moves, Status.OPTIMAL, "bfs", bound=len(moves)))
            row.update(moves=len(moves), verified=result.verified)
        rows.append(row)
    total_wall = time.perf_counter() - wall
    digest = hashlib.sha256(run.levels).hexdigest()  # not timed: the check that runs agree byte for byte
    run.close()
    conn.send(
        {
            "start": start,
            "threads": threads,
            "array_sha256": digest,
            "storage": storage,
            "mode": mode,
            "symmetry": run.symmetries,
            "levels": outcome.levels,
            "history": outcome.history,
            "targets": rows,
            "search_wall_seconds": search_wall,
            "search_cpu_seconds": search_cpu,
            "total_wall_seconds": total_wall,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "load_average": os.getloadavg(),
            **clock.figures(search_cpu),
        }
    )
    conn.close()


@numba.njit(cache=True)
def _restore_before(levels, stored):
    """Clear every byte above `stored` (but PAD): the array as it was when level
    stored - 1 was complete."""
    for i in range(levels.shape[0]):
        v = levels[i]
        if v > stored and v != 255:
            levels[i] = 0


@numba.njit(cache=True)
def _keep_canonical(levels, n, k, total, perms):
    """Clear the bytes of the boards that are not their orbit's canonical member: the
    array a run storing one board per orbit would hold."""
    mask = unrank(0, n, k)
    for r in range(total):
        if levels[r] != 0 and canonical(mask, perms) != mask:
            levels[r] = 0
        if r + 1 < total:
            mask = next_subset(mask)


VARIANTS = ("push-bits-ram", "push-orbits-ram", "push-sorted-ram", "push-direct-ram", "push-direct-memmap", "pull-ram", "pull-orbits-ram")


def compare_variants(workdir: Path, start: str, levels_to_try: list[int], counts: list[int], variants=VARIANTS) -> list[dict]:
    from puzzlelab.puzzles.coins.bfs.byte_array import CpuLevelKernels
    from puzzlelab.puzzles.coins.bfs.byte_kernels import padded_length
    from puzzlelab.puzzles.coins.bfs.byte_store import LevelStore
    from puzzlelab.puzzles.coins.bfs.symmetry import stabilizer
    from puzzlelab.puzzles.coins.kernels import geometry, max_moves

    begin = model.parse_start(start)
    _, perms = stabilizer(begin.board, begin.width, begin.height)
    n, k = begin.width * begin.height, model.popcount(begin.board)
    total = math.comb(n, k)
    nbytes = padded_length(total)
    geo, reserve = geometry(begin.width, begin.height), max_moves(n, k)
    final = LevelStore(workdir / "levels.u8", nbytes, "ram")
    scratch_dir = Path(tempfile.mkdtemp(prefix="coins-compare-", dir=workdir.parent))
    rows = []
    try:
        for level in levels_to_try:
            stored = level  # boards of level L-1 hold byte L; expanding them builds level L
            row = {"level": level, "frontier": counts[level - 1], "boards": counts[level]}
            for variant in variants:
                path = scratch_dir / "copy.u8"
                with open(path, "wb") as fh:
                    fh.write(final.array.data)
                store = LevelStore(path, nbytes, "memmap" if "memmap" in variant else "ram")
                _restore_before(store.array, stored)
                orbits = "orbits" in variant
                if orbits:
                    _keep_canonical(store.array, n, k, total, perms)
                if "memmap" in variant:
                    store.array.flush()
                probe = next((p for p in ("direct", "sorted") if p in variant), "bits")
                kern = CpuLevelKernels(store.array, store.dirty, n, k, total, geo, reserve, probe, perms if orbits else None)
                control = Budget().control
                step = kern.pull if variant.startswith("pull") else kern.push
                if orbits and step == kern.pull:  # done once per run, before its first pull
                    cpu = time.process_time()
                    kern.mark_images()
                    row[variant + "_mark_images_cpu_seconds"] = time.process_time() - cpu
                step(stored, 0, 1, control)  # compile
                wall, cpu = time.perf_counter(), time.process_time()
                step(stored, 1, kern.blocks, control)
                row[variant] = {"wall_seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu}
                row[variant + "_marks_all"] = kern.count(stored + 1) == counts[level]
                del kern
                store.close()
                os.remove(path)
                print(f"  level {level}: {variant:12s} {row[variant]['cpu_seconds']:7.2f} s cpu  exact: {row[variant + '_marks_all']}", flush=True)
            rows.append(row)
    finally:
        final.close()
        shutil.rmtree(scratch_dir, ignore_errors=True)
    return rows


def _warm_up(workdir: Path) -> None:
    """Compile (or load from numba's cache) every kernel a run calls, on a 4 x 4 board
    with a mirror, pushing and pulling: no timed run pays for compilation."""
    from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun

    start = model.rows_to_mask(["o--o", "-oo-", "-oo-", "o--o"], "start")[2]
    for mode in ("push", "pull"):
        run = LevelArrayRun(model.Start(4, 4, start), workdir / f"warm-{mode}", resume=False, threads=2)
        run.run(stop_when_found=False, mode=mode)
        run.close()
        shutil.rmtree(workdir / f"warm-{mode}")


def _timed_run(args, workdir: Path, threads: int) -> dict:
    """One run from level 0 in a forked child (its own peak RSS); prints its figures."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    process = ctx.Process(
        target=_run_child, args=(child, args.start, str(workdir / "run"), args.storage, args.mode, not args.no_symmetry, threads, args.max_level)
    )
    process.start()
    child.close()
    run = parent.recv()
    process.join()
    found = [t for t in run["targets"] if t.get("verified")]
    matched = [t for t in found if t["published"] is not None and t["moves"] == t["published"]]
    published = [t for t in run["targets"] if t["published"] is not None]
    print(
        f"bfs {args.start}, {threads} thread(s): {len(found)}/{len(run['targets'])} targets reached and verified; "
        f"{len(matched)}/{len(published)} with a published length match it; "
        f"{sum(run['levels']):,} boards in {len(run['levels']) - 1} levels; search {run['search_wall_seconds']:.0f} s wall, "
        f"{run['search_cpu_seconds']:.0f} s cpu; peak RSS {run['peak_rss_mb']:.0f} MB"
    )
    for t in run["targets"]:
        pub = "" if t["published"] is None else f" (published {t['published']})"
        print(f"   {t['target']}: {t.get('moves')}{pub}")
    for h in run["history"]:
        print(f"   level {h['level']:2d}: {h['boards']:>11,} boards  {h['mode']}  {h['seconds']:7.1f} s  cpu {h['cpu_seconds']:7.1f} s")
    return run


def _side_by_side(runs: list[dict]) -> dict:
    """The runs' wall, CPU and RSS, the speed-up of each against the first, and whether
    they made the same levels and the same array."""
    base = runs[0]
    same = all(r["levels"] == base["levels"] and r["array_sha256"] == base["array_sha256"] for r in runs)
    same = same and all([t.get("moves") for t in r["targets"]] == [t.get("moves") for t in base["targets"]] for r in runs)
    print(f"{'threads':>7} {'wall s':>8} {'cpu s':>8} {'peak RSS MB':>11} {'speed-up':>8}   {'busiest thread s':>16} {'outside spans s':>15} {'idle estimate s':>15} {'speed-up':>8}  load")
    rows = []
    for r in runs:
        speedup = base["search_wall_seconds"] / r["search_wall_seconds"]
        estimate = base["idle_machine_wall_estimate_seconds"] / r["idle_machine_wall_estimate_seconds"]
        rows.append({"threads": r["threads"], "wall_seconds": r["search_wall_seconds"], "cpu_seconds": r["search_cpu_seconds"],
                     "peak_rss_mb": r["peak_rss_mb"], "speedup": speedup, "idle_estimate_speedup": estimate})
        print(
            f"{r['threads']:>7} {r['search_wall_seconds']:8.1f} {r['search_cpu_seconds']:8.1f} {r['peak_rss_mb']:11.0f} {speedup:7.2f}x"
            f"   {r['busiest_thread_seconds']:16.1f} {r['outside_spans_cpu_seconds']:15.1f} {r['idle_machine_wall_estimate_seconds']:15.1f}"
            f" {estimate:7.2f}x  {' '.join(f'{x:.1f}' for x in r['load_average'])}"
        )
    print(f"same levels, same array (SHA-256 {base['array_sha256'][:16]}...) and same move counts in every run: {same}")
    return {"rows": rows, "identical": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="font5x7:A")
    parser.add_argument("--workdir", default=None, help="folder for the level array (default: a temporary one, removed)")
    parser.add_argument("--storage", default="ram", choices=("ram", "memmap"))
    parser.add_argument("--mode", default="auto", choices=("auto", "push", "pull"))
    parser.add_argument("--compare", default="", help="levels to re-expand with each variant, e.g. 9,14,20")
    parser.add_argument("--variants", default=",".join(VARIANTS), help=f"for --compare, among {', '.join(VARIANTS)}")
    parser.add_argument("--skip-run", action="store_true", help="reuse the finished array in --workdir")
    parser.add_argument("--threads", default="1", help="thread counts to run one after the other, e.g. 1,2 (0: every core)")
    parser.add_argument("--max-level", type=int, default=None, help="stop after this level (a short run, for development)")
    parser.add_argument(
        "--no-symmetry", action="store_true",
        help="store every board even when a symmetry fixes the start (--compare needs such an array)",
    )
    args = parser.parse_args()
    temporary = args.workdir is None
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="coins-bench-bfs-"))
    report: dict = {"benchmark": "coins_bfs", "note": "shared 2-core machine: with several threads, wall seconds on an idle machine are the figure"}
    try:
        if not args.skip_run:
            _warm_up(workdir)
            runs = [_timed_run(args, workdir, int(t)) for t in args.threads.split(",")]
            report["run"] = runs[0]
            report["runs"] = runs[1:]
            if len(runs) > 1:
                report["side_by_side"] = _side_by_side(runs)
        if args.compare:
            state = json.loads((workdir / "run" / "state.json").read_text())
            if state.get("symmetry"):
                parser.error("--compare needs an array with every board: run with --no-symmetry first")
            levels = [int(x) for x in args.compare.split(",")]
            report["compare"] = compare_variants(workdir / "run", args.start, levels, state["counts"], args.variants.split(","))
        write_json("coins_bfs", report)
    finally:
        if temporary:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
