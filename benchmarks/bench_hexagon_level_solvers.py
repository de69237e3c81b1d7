"""The level solvers side by side on the same level questions (seed write-up,
"Algorithms": beam search, SAT and dancing links compared; ILP beside them): the least
level-k penalty at levels 1 and 1-2 (from nothing) and 3 and 3-4 (on a level-2 grid),
by beam, sat, dlx and ilp (puzzles/hexagon/levels/solvers.py), each call under the same
time limit; median seconds over repeats, and each method's ratio to SAT's.

    python benchmarks/bench_hexagon_level_solvers.py [--orders 4..9] [--questions 1,1-2,3,3-4]
        [--methods beam,sat,dlx,ilp] [--limit 30] [--repeats 3] [--width 2000] [--base-width 3000]
    python benchmarks/bench_hexagon_level_solvers.py --exact-cover [--orders 4..9]

--exact-cover times the two DLX models of a penalty-free single level instead (every
solution counted): Knuth's Algorithm X on the plain exact cover (closed neighbourhoods)
and Algorithm C on the colour model `dlx` uses (levels/dlx.py), on level 1 and level 3;
and beside miniexact's Algorithm X the same exact cover by a hand-written dancing-links
search compiled by numba (`dlx_peer.py`), the peer that says whether the package should
keep a library for it (column "own/X": the hand-written one's time over miniexact's).

The level-2 grid under questions 3 and 3-4 is the best grid of one beam run (width
--base-width, seed 0, spiral order), the same for every method. A cell reads
"seconds (penalty)", `*` when the penalty is proven least; ">L" is a call stopped at the
limit (its best grid, if any, in brackets; DLX's proven lower bound after "lb"). A
method stopped at the limit is not run again on that question for larger orders
(shown "skip"). Exact methods that disagree, or a beam grid below a proven least
penalty, fail the run: every grid is checked (level_question.check_answer) as it is
returned.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_json  # noqa: E402

from puzzlelab.core.puzzle import parse_range  # noqa: E402
from puzzlelab.core.result import Budget  # noqa: E402
from puzzlelab.puzzles.hexagon.beam.search import beam_search  # noqa: E402
from puzzlelab.puzzles.hexagon.levels.question import level_question  # noqa: E402
from puzzlelab.puzzles.hexagon.levels.solvers import LEVEL_METHODS, solve_level  # noqa: E402


def measure(question, method: str, args) -> dict:
    """Median seconds over the repeats (one run when the first hits the limit)."""
    runs = []
    for _ in range(args.repeats):
        options = {"width": args.width} if method == "beam" else {}
        answer = solve_level(question, method, Budget(args.limit), **options)
        runs.append(answer)
        if not answer.proven and method != "beam":
            break
    last = runs[-1]
    timed_out = method != "beam" and not last.proven
    return {
        "seconds": round(statistics.median(a.seconds for a in runs), 3),
        "penalty": last.penalty,
        "proven": last.proven,
        "lower": last.lower,
        "timed_out": timed_out,
        "runs": len(runs),
    }


def cell(row: dict | None, limit: float) -> str:
    if row is None:
        return "skip"
    if row["timed_out"]:
        best = "" if row["penalty"] is None else f" [{row['penalty']}]"
        return f">{limit:g}{best} lb {row['lower']}"
    return f"{row['seconds']:.2f} ({row['penalty']}{'*' if row['proven'] else ''})"


def check(n: int, label: str, rows: dict) -> None:
    proven = {m: r["penalty"] for m, r in rows.items() if r and r["proven"]}
    if len(set(proven.values())) > 1:
        raise SystemExit(f"n={n} levels {label}: exact methods disagree: {proven}")
    least = next(iter(proven.values()), None)
    for m, r in rows.items():
        if r and least is not None and r["penalty"] is not None and r["penalty"] < least:
            raise SystemExit(f"n={n} levels {label}: {m} found {r['penalty']} below the proven least {least}")


def own_exact_cover_count(question) -> int:
    """The plain exact cover of `levels/dlx._exact_cover`, counted by the hand-written peer."""
    from dlx_peer import build_links, count_covers

    free = question.free()
    index = {c: i for i, c in enumerate(free)}
    options = [[index[c]] + [index[x] for x in question.geometry.neighbours_of(c) if x in index] for c in free]
    return int(count_covers(*build_links(len(free), options), len(free)))


def exact_cover_models(args) -> None:
    """Algorithm X (plain exact cover) against Algorithm C (the level model), penalty 0,
    and miniexact's Algorithm X against the hand-written one on the plain exact cover."""
    import time

    from puzzlelab.puzzles.hexagon.levels.dlx import dlx_count, exact_cover_count

    own_exact_cover_count(level_question(3, "1", None))  # numba compiles (or loads its cache) outside the timing
    print(f"penalty-free single levels, every solution counted, median of {args.repeats}, load {os.getloadavg()[0]:.1f}")
    print(f"{'n':>2} {'level':>5} {'count':>6} {'X s':>8} {'C s':>8} {'C/X':>6} {'own s':>8} {'own/X':>6}")
    rows = []
    solvers = (("x", exact_cover_count), ("c", lambda q: dlx_count(q, 0)), ("own", own_exact_cover_count))
    for n in parse_range(args.orders):
        base = beam_search(n, width=args.base_width, top=2, seed=0)[0][1]
        for label in ("1", "3"):
            question = level_question(n, label, None if label == "1" else base)
            times: dict[str, list[float]] = {name: [] for name, _ in solvers}
            counts = {}
            for _ in range(args.repeats):
                for name, fn in solvers:
                    t0 = time.perf_counter()
                    counts[name] = fn(question)
                    times[name].append(time.perf_counter() - t0)
            if len(set(counts.values())) != 1:
                raise SystemExit(f"n={n} level {label}: the models count differently: {counts}")
            x, c, own = (statistics.median(times[name]) for name in ("x", "c", "own"))
            print(f"{n:>2} {label:>5} {counts['x']:>6} {x:>8.4f} {c:>8.4f} {c / x:>6.2f} {own:>8.4f} {own / x:>6.2f}", flush=True)
            rows.append({"n": n, "level": label, "count": counts["x"], "x_seconds": x, "c_seconds": c, "own_seconds": own})
    # The level questions above end in milliseconds, where setting the problem up is most
    # of the time; a search that takes seconds compares the two searches themselves.
    packing = pentomino_race(args.repeats)
    write_json("bench_hexagon_level_exact_cover", {"args": vars(args), "rows": rows, "pentominoes_6x10": packing})


def pentomino_race(repeats: int) -> dict:
    """miniexact's Algorithm X and the hand-written one counting the 9,356 packings of the
    6 x 10 box by the 12 pentominoes (Knuth's test), alternating; medians and the ratio."""
    import time

    import miniexact
    from dlx_peer import build_links, count_covers, pentomino_cover

    from puzzlelab.puzzles.hexagon.levels.dlx import SOLUTION

    items, options = pentomino_cover(6, 10)

    def library() -> int:
        solver = miniexact.miniexacts_x()
        item = [solver.primary(f"i{i}") for i in range(items)]
        for option in options:
            for i in option:
                solver.add(item[i])
            solver.add(0)
        found = 0
        while solver.solve() == SOLUTION:
            found += 1
        return found

    def own() -> int:
        return int(count_covers(*build_links(items, options), items))

    times: dict[str, list[float]] = {"x": [], "own": []}
    for _ in range(repeats):
        for name, fn in (("x", library), ("own", own)):
            t0 = time.perf_counter()
            found = fn()
            times[name].append(time.perf_counter() - t0)
            if found != 9356:
                raise SystemExit(f"pentominoes 6 x 10: {name} counts {found} packings, not 9,356")
    x, mine = statistics.median(times["x"]), statistics.median(times["own"])
    print(f"pentominoes 6 x 10, 9,356 packings counted, median of {repeats}: miniexact X {x:.2f} s, hand-written {mine:.2f} s, own/X {mine / x:.2f}")
    return {"x_seconds": x, "own_seconds": mine, "packings": 9356}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--orders", default="4..9")
    parser.add_argument("--questions", default="1,1-2,3,3-4")
    parser.add_argument("--methods", default=",".join(LEVEL_METHODS))
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per call")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--width", type=int, default=2000, help="beam width of the beam method")
    parser.add_argument("--base-width", type=int, default=3000, help="beam width of the level-2 base grid")
    parser.add_argument("--exact-cover", action="store_true", help="time the two DLX models of a penalty-free level instead")
    args = parser.parse_args()
    if args.exact_cover:
        exact_cover_models(args)
        return
    methods = [m for m in args.methods.split(",") if m]
    unknown = [m for m in methods if m not in LEVEL_METHODS]
    if unknown:
        raise SystemExit(f"methods: expected some of {', '.join(LEVEL_METHODS)}, got {', '.join(unknown)}")
    questions = [q for q in args.questions.split(",") if q]
    stopped: set[tuple[str, str]] = set()
    results = []
    header = f"{'n':>2} {'levels':>6} {'base':>4} " + " ".join(f"{m:>22}" for m in methods) + "   " + " ".join(f"{m}/sat" for m in methods if m != "sat")
    print(f"limit {args.limit:g} s a call, median of {args.repeats}, load {os.getloadavg()[0]:.1f}")
    print(header)
    for n in parse_range(args.orders):
        found = beam_search(n, width=args.base_width, top=2, seed=0)
        base = found[0][1] if found else None
        for label in questions:
            question = level_question(n, label, None if label.startswith("1") else base)
            rows = {}
            for method in methods:
                if (method, label) in stopped:
                    rows[method] = None
                    continue
                rows[method] = measure(question, method, args)
                if rows[method]["timed_out"]:
                    stopped.add((method, label))
            check(n, label, rows)
            sat = rows.get("sat")
            ratios = []
            for m in methods:
                if m == "sat":
                    continue
                r = rows[m]
                ok = sat and r and not sat["timed_out"] and not r["timed_out"] and sat["seconds"] > 0
                ratios.append(f"{r['seconds'] / sat['seconds']:.2f}" if ok else "-")
            print(f"{n:>2} {label:>6} {question.base_penalty():>4} " + " ".join(f"{cell(rows[m], args.limit):>22}" for m in methods) + "   " + " ".join(f"{x:>7}" for x in ratios), flush=True)
            results.append({"n": n, "levels": label, "base_penalty": question.base_penalty(), **{m: rows[m] for m in methods}})
    write_json("bench_hexagon_level_solvers", {"args": vars(args), "load": os.getloadavg()[0], "rows": results})


if __name__ == "__main__":
    main()
