"""Matchsticks, the search for new bounds by frame moves (`frames.py`): for each n and
each start (the shipped new record, each restricted column's answer, greedy's two
ladder shapes with sizes 12..1 placed exactly), the large squares
moved one at a time or swapped two at a time, the sizes `--tail`..1 re-solved exactly
by the full search's kernel after each move, improvements kept.

A resumable campaign: `--state FILE` keeps every (n, start)'s state (its answer, the
next move, the passes, the improvements), rewritten as it goes; the same command
resumes. Every improvement is verified by the checker; one below the published value is
printed as a new bound and, with `--record`, written to the shipped
`data/new_records.json` (`records.record_improvement`, with this command as its
provenance).

Run: python benchmarks/bench_matchsticks_frames.py [--n 47 63] [--starts record diagonal1 diagonal20 greedy ladder-pairs ladder-triples]
     [--tail 34] [--reach 2] [--seconds-per-move 10] [--budget-per-start 60]
     [--state proofs/matchsticks-frames.json] [--record]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from common import git_commit, write_json

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.matchsticks.columns import shipped_rows
from puzzlelab.puzzles.matchsticks.frames import FrameState, frame_search
from puzzlelab.puzzles.matchsticks.ladder import ladder_answer
from puzzlelab.puzzles.matchsticks.model import Instance
from puzzlelab.puzzles.matchsticks.records import record_improvement, records_file, shipped_records
from puzzlelab.puzzles.matchsticks.reference import published_table
from puzzlelab.puzzles.matchsticks.verify import verify_solution

STARTS = ("record", "diagonal1", "diagonal20", "greedy", "ladder-pairs", "ladder-triples")
LADDER_TAIL = 12  # a ladder start: sizes 12..1 placed exactly under the shape (ladder.py)


def start_answer(n: int, start: str) -> list[list[int]] | None:
    """The shipped answer a campaign starts from (each checked on load), or None."""
    if start == "record":
        row = shipped_records().get(n)
        return None if row is None else row["squares"]
    if start.startswith("ladder-"):
        squares, _ = ladder_answer(n, LADDER_TAIL, start.split("-", 1)[1], Budget(120))
        return squares
    row = shipped_rows(n).get(start)
    return None if row is None else row["squares"]


def _save(path: Path | None, states: dict) -> None:
    if path is None:
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"how": __doc__.split("\n\n")[0], "states": states}, separators=(",", ":")) + "\n")
    tmp.replace(path)


def _improved(state: FrameState, command: str, record: bool) -> None:
    """Verify the state's answer; report (and record) it when below the published value."""
    verdict = verify_solution(Instance(state.n), {"roam": 0, "squares": state.squares})
    if not verdict.ok or verdict.value != state.value:
        raise SystemExit(f"n={state.n}: the checker rejects the frame search's answer ({verdict.message})")
    published = published_table()[state.n]["best_known"]
    mark = "NEW BOUND" if state.value < published else "improved"
    print(f"  n={state.n} from {state.start}: {mark} {state.value} (published {published}) by {state.history[-1]['move']}", flush=True)
    if state.value < published and record:
        row = record_improvement(records_file(), state.n, state.squares, command, f"{state.start} answer, frame moves (tail {state.tail})", git_commit())
        if row is not None:
            print(f"  recorded a({state.n}) <= {row['value']} in {records_file()}", flush=True)


def run(args: argparse.Namespace, command: str) -> list[dict]:
    path = Path(args.state) if args.state else None
    states = json.loads(path.read_text())["states"] if path and path.exists() else {}
    rows = []
    for n in range(args.n[0], args.n[1] + 1):
        for start in args.starts:
            key = f"{n}/{start}/tail{args.tail}/reach{args.reach}"
            if key in states:
                state = FrameState.from_json(states[key])
            else:
                squares = start_answer(n, start)
                if squares is None:
                    continue
                state = FrameState.begin(n, start, squares, args.tail, args.reach)
            begun, before = time.perf_counter(), state.value
            if not state.done:
                frame_search(
                    state,
                    args.seconds_per_move,
                    Budget(args.budget_per_start),
                    on_improve=lambda s: _improved(s, command, args.record),
                    on_progress=lambda s, k=key: (states.__setitem__(k, s.to_json()), _save(path, states)),
                )
            states[key] = state.to_json()
            _save(path, states)
            published = published_table()[n]["best_known"]
            status = "done" if state.done else f"at move {state.next_move}"
            print(
                f"n={n} {start:<10} {before} -> {state.value} (published {published})  moves {state.moves:,}  nodes {state.nodes:,}  "
                f"pass {state.passes} {status}  {time.perf_counter() - begun:.1f} s",
                flush=True,
            )
            rows.append({"n": n, "start": start, "before": before, "value": state.value, "published": published, "done": state.done, "moves": state.moves})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs=2, default=[47, 63], metavar=("FROM", "TO"))
    parser.add_argument("--starts", nargs="*", default=list(STARTS[:4]), choices=STARTS)
    parser.add_argument("--tail", type=int, default=34, help="sizes tail..1 re-solved exactly after each move")
    parser.add_argument("--reach", type=int, default=2, help="shifts of a frame square by up to this much")
    parser.add_argument("--seconds-per-move", type=float, default=10.0)
    parser.add_argument("--budget-per-start", type=float, default=60.0, help="seconds per (n, start) this run")
    parser.add_argument("--state", default=None, help="JSON file keeping each (n, start)'s state: the command resumes it")
    parser.add_argument("--record", action="store_true", help="write new bounds to the shipped data/new_records.json")
    args = parser.parse_args()
    command = "python benchmarks/bench_matchsticks_frames.py " + " ".join(sys.argv[1:])
    rows = run(args, command)
    write_json("matchsticks_frames", {"benchmark": "matchsticks_frames", "args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
