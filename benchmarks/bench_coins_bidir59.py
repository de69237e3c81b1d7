"""`bidir` on the 60 five-by-nine sample puzzles: each in a forked child with
300 s and 8 GB, verified by replay against the published length; how many are solved,
the median time and the peak memory. And why the longer ones are out of reach: the
sizes of the forward and backward balls per level (`--balls NAME`), the time each level
took and the memory the hash table would need for them (about 14 bytes a board).

Puzzles go in order of published length (shortest first), so `--first K` runs the K
shortest. On this shared 2-core machine run only a few, with short limits:
    nice -n 10 python benchmarks/bench_coins_bidir59.py --first 3 --budget 60
    nice -n 10 python benchmarks/bench_coins_bidir59.py --balls font5x9:5-L --ball-depth 6 --ball-seconds 200
    nice -n 10 python benchmarks/bench_coins_bidir59.py --compare-threads font5x9:X-T --threads 2

The whole sample takes up to 5 hours, so `--rows FILE` keeps each finished puzzle's row
as it ends and a rerun with the same file (and the same budget, memory and threads)
skips those: the run can be stopped and resumed another day (`--rerun A,B` runs those
puzzles again, replacing their rows, after a change to the search). `--shard I/K` splits
the sample between K processes sharing one rows file (one a core):
    nice -n 5 python benchmarks/bench_coins_bidir59.py --rows R --shard 0/2 &
    nice -n 5 python benchmarks/bench_coins_bidir59.py --rows R --shard 1/2
"""

from __future__ import annotations

import argparse
import fcntl
import json
from pathlib import Path

from bench_coins_bidir import solve_in_child, summarise
from common import write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.coins import model, reference
from puzzlelab.puzzles.coins.bidir.search import ball_sizes

BYTES_A_BOARD = 14  # bidir/hashset.py: a key of 8 bytes and a mark byte at a load of about 2/3


def sample_5x9() -> list[tuple[str, int]]:
    rows = [(name, moves) for name, moves in reference.published_lengths().items() if name.startswith("font5x9:")]
    return sorted(rows, key=lambda row: (row[1], row[0]))


def balls(name: str, depth: int, seconds: float) -> dict:
    """Ball sizes forward from the start and backward from the target, level by level,
    with the wall time of each level (stopped after `seconds` a side: the level in
    progress then is not listed)."""
    inst = model.parse_instance(name)
    out = {"name": name}
    for label, board, backward in (("forward", inst.start, False), ("backward", inst.target, True)):
        times: list[float] = []
        sizes = ball_sizes(inst.width, inst.height, board, depth, backward=backward, budget=Budget(seconds), seconds=times)
        growth = [round(b / a, 1) for a, b in zip(sizes, sizes[1:]) if a]
        out[label] = {"sizes": sizes, "seconds": times, "growth": growth, "table_mb": BYTES_A_BOARD * sum(sizes) / 2**20}
        print(f"{name} {label}: sizes {sizes}, growth {growth}, levels took {[round(t, 1) for t in times]} s; "
              f"hash table for them ~{out[label]['table_mb']:.0f} MB", flush=True)
    return out


def compare_threads(names: list[str], threads: int, memory_mb: int, budget: float) -> dict:
    """Each puzzle on one thread, then on `threads`: wall and CPU time, the ratio."""
    out = {}
    for name in names:
        one = solve_in_child(name, memory_mb, "hash", budget, 1)
        many = solve_in_child(name, memory_mb, "hash", budget, threads)
        same = one.get("value") == many.get("value") and one.get("verified") and many.get("verified")
        out[name] = {"one": one, "many": many, "threads": threads, "speedup": one["seconds"] / max(many["seconds"], 1e-9), "same_answer": bool(same)}
        print(f"{name}: 1 thread {one['seconds']:.1f} s wall ({one['cpu_seconds']:.1f} cpu), {threads} threads {many['seconds']:.1f} s wall "
              f"({many['cpu_seconds']:.1f} cpu): {out[name]['speedup']:.2f}x; answers {one.get('value')} and {many.get('value')}, "
              f"both verified: {bool(same)}", flush=True)
    return out


def load_rows(path: Path | None, settings: dict) -> dict[str, dict]:
    """Rows an earlier run with the same settings finished, by puzzle name."""
    if path is None or not path.exists():
        return {}
    kept = json.loads(path.read_text())
    if kept.get("settings") != settings:
        raise SystemExit(f"--rows {path}: it was written with {kept.get('settings')}, not {settings}; use another file")
    return {row["name"]: row for row in kept["rows"]}


def save_row(path: Path | None, settings: dict, row: dict) -> None:
    """Add one finished row to the file, under a lock: several shards (`--shard`) may
    share one file, and each adds to what the others wrote."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        rows = load_rows(path, settings)
        rows[row["name"]] = row
        order = {name: i for i, (name, _) in enumerate(sample_5x9())}
        temporary = path.with_suffix(".tmp")
        ordered = sorted(rows.values(), key=lambda r: order.get(r["name"], len(order)))
        temporary.write_text(json.dumps({"settings": settings, "rows": ordered}, indent=1, default=str) + "\n")
        temporary.replace(path)


def parse_shard(text: str) -> tuple[int, int]:
    """'I/K' -> (I, K): this process runs the puzzles whose place in the sample is I mod K."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected I/K with 0 <= I < K, got {text!r}") from None
    if not 0 <= index < count:
        raise argparse.ArgumentTypeError(f"expected I/K with 0 <= I < K, got {text!r}")
    return index, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=None, help="only the K shortest puzzles")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds a puzzle")
    parser.add_argument("--memory-mb", type=int, default=8192)
    parser.add_argument("--balls", default=None, help="a puzzle whose ball sizes to measure (then no solving)")
    parser.add_argument("--threads", type=int, default=1, help="bidir threads (0: every core)")
    parser.add_argument("--compare-threads", default=None, help="puzzles (comma separated) solved on 1 thread and on --threads, side by side")
    parser.add_argument("--ball-depth", type=int, default=6)
    parser.add_argument("--ball-seconds", type=float, default=60.0)
    parser.add_argument("--rows", type=Path, default=None, help="keep finished rows here and skip them on a rerun (resumable)")
    parser.add_argument("--only", default="", help="puzzles (comma separated) to run, none else (with --rerun: those run again)")
    parser.add_argument("--rerun", default="", help="puzzles (comma separated) run again although --rows holds them; their rows are replaced")
    parser.add_argument("--shard", type=parse_shard, default=(0, 1),
                        help="I/K: run only every K-th puzzle from the I-th, so K processes sharing one --rows file split the sample")
    args = parser.parse_args()
    if args.balls:
        write_json("coins_bidir59_balls", balls(args.balls, args.ball_depth, args.ball_seconds))
        return
    if args.compare_threads:
        write_json("coins_bidir59_threads", compare_threads(args.compare_threads.split(","), args.threads, args.memory_mb, args.budget))
        return
    settings = {"budget": args.budget, "memory_mb": args.memory_mb, "threads": args.threads}
    done = load_rows(args.rows, settings)
    for name in filter(None, args.rerun.split(",")):
        done.pop(name, None)
    if done:
        print(f"resuming: {len(done)} puzzles already run, from {args.rows}", flush=True)
    index, count = args.shard
    only = set(filter(None, args.only.split(",")))
    sample = sample_5x9()[: args.first]
    for place, (name, published) in enumerate(sample):
        if name in done or place % count != index or (only and name not in only):
            continue
        row = solve_in_child(name, args.memory_mb, "auto", args.budget, args.threads)
        stats = row.get("stats") or {}
        print(f"{name}: published {published}, got {row.get('value')} ({row['status']}, bound {row.get('bound')}), "
              f"{row.get('seconds', 0):.1f} s, peak {row.get('peak_rss_mb', 0):.0f} MB (from {row.get('rss_before_mb', 0):.0f}), depths {stats.get('depth_forward')}+{stats.get('depth_backward')}",
              flush=True)
        done[name] = row
        save_row(args.rows, settings, row)
    done.update(load_rows(args.rows, settings))  # what other shards finished meanwhile
    rows = [done[name] for name, _ in sample if name in done]
    if len(rows) < len(sample):
        print(f"{len(sample) - len(rows)} of {len(sample)} puzzles not run yet (other shards, or a later run); "
              "the summary below covers the rest", flush=True)
    summary = summarise(f"5 x 9 sample ({len(rows)} puzzles, {args.budget:.0f} s and {args.memory_mb} MB each)", rows, args.budget)
    write_json("coins_bidir59", {"benchmark": "coins_bidir59", "summary": summary, "rows": rows})


if __name__ == "__main__":
    main()
