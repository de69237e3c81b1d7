"""`bidir`'s level kernel with and without its prefetch, side by side in one process on
the same 5 x 9 ball: each board's children's table slots asked for before any is probed
(`hashset.prefetch_slots`), against probing them one after another.

The ball: every board within DEPTH moves of a glyph (forward), grown level by level in a
fresh table as `bidir` grows one side (`search.ball_sizes`); rounds alternate the two
kernels (this machine is shared). Printed: the ball's sizes, each kernel's median
seconds and children a second, and the ratio.

    python benchmarks/bench_coins_bidir_prefetch.py [--start font5x9:X] [--depth 5] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import write_json

from puzzlelab.core.result import NODES, Budget
from puzzlelab.puzzles.coins import model
from puzzlelab.puzzles.coins.bidir.search import ball_sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="font5x9:X", help="a glyph: the ball's centre")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--backward", action="store_true", help="the boards that reach the glyph (a backward side: about four times the moves a board)")
    args = parser.parse_args()
    font, glyph = args.start.split(":")
    start = model.glyph_mask(font, glyph)
    width, height = model.fonts()[font]["width"], model.fonts()[font]["height"]
    ball_sizes(width, height, start, 2)  # compile both variants outside the timing
    ball_sizes(width, height, start, 2, ahead=False)
    times: dict[bool, list[float]] = {True: [], False: []}
    generated: dict[bool, int] = {}
    sizes: dict[bool, list[int]] = {}
    for _ in range(args.rounds):
        for ahead in (False, True):
            budget = Budget()
            t0 = time.perf_counter()
            sizes[ahead] = ball_sizes(width, height, start, args.depth, budget=budget, ahead=ahead, backward=args.backward)
            times[ahead].append(time.perf_counter() - t0)
            generated[ahead] = int(budget.control[NODES])
    if sizes[True] != sizes[False]:
        raise SystemExit(f"the two kernels grew different balls: {sizes[False]} and {sizes[True]}")
    before, after = statistics.median(times[False]), statistics.median(times[True])
    print(f"{args.start}, {'backward' if args.backward else 'forward'}, depth {args.depth}: ball sizes {sizes[True]} ({sum(sizes[True]):,} boards)")
    for label, ahead, seconds in (("probes one by one", False, before), ("slots prefetched", True, after)):
        print(f"  {label:18} {seconds:7.2f} s  {generated[ahead] / seconds / 1e6:6.1f} M children a second")
    print(f"  ratio (before / after): {before / after:.2f}, medians of {args.rounds} alternating rounds")
    write_json("coins_bidir_prefetch", {"args": vars(args), "sizes": sizes[True], "seconds_before": times[False], "seconds_after": times[True],
                                        "generated": generated[True]})


if __name__ == "__main__":
    main()
