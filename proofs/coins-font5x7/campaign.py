"""The font5x7 BFS campaign's results, carried from one machine's records store to the next.

`puzzlelab coins batch --font font5x7 --method bfs` solves every puzzle of the font, one
start glyph at a time, and keeps each verified optimum in the records store. A store
lives on one machine; this script carries what it holds through the repository:

    python proofs/coins-font5x7/campaign.py export STORE   # store -> solved.json
    python proofs/coins-font5x7/campaign.py load STORE     # solved.json -> store
    python proofs/coins-font5x7/campaign.py ship           # solved.json -> the package's table

Every direction replays every move list with the independent checker (the puzzle's
`verify`): an entry that does not take its start to its target in the stated number of
moves is refused, never written. A loaded store lets a resumed batch skip the starts
already finished (the batch skips puzzles stored as optimal). `ship` writes
`src/puzzlelab/puzzles/coins/data/font5x7_optimal.json` (the table `coins solve`
answers from, `coins/optimal_table.py`) from the starts whose 36 targets are all
solved, with its provenance; it also checks every length against the published sample.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

from puzzlelab.core.git import git_output
from puzzlelab.core.result import Result, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.optimal_table import encode_moves, load_table, table_text
from puzzlelab.puzzles.coins.reference import published_lengths

HERE = Path(__file__).resolve().parent
SOLVED = HERE / "solved.json"
REPO = HERE.parents[1]
TABLE = REPO / "src" / "puzzlelab" / "puzzles" / "coins" / "data" / "font5x7_optimal.json"
FONT = "font5x7"
CAMPAIGN = "puzzlelab coins batch --font font5x7 --method bfs --workers 1"
ENGINE = [f"src/puzzlelab/puzzles/coins/{name}.py" for name in ("batch", "bfs", "kernels", "level_array", "level_store", "symmetry")]


def _checked(key: str, moves: list) -> int:
    verdict = PUZZLE.verify(PUZZLE.parse(key), moves)  # parse: the name alone (load looks through the whole catalog)
    if not verdict.ok:
        raise SystemExit(f"{key}: the checker rejects the stored moves ({verdict.message})")
    return verdict.value


def export(store_path: str) -> None:
    entries = dict(json.loads(SOLVED.read_text())["puzzles"]) if SOLVED.exists() else {}
    for record in Store(store_path).results("coins"):
        if record.status != Status.OPTIMAL.value or not record.instance.startswith("font5x7:") or record.method == "table":
            continue  # an answer served from the shipped table is no new computation
        moves = _checked(record.instance, record.solution)
        if moves != record.value:
            raise SystemExit(f"{record.instance}: stored value {record.value}, the checker counts {moves}")
        entries[record.instance] = {"moves": moves, "solution": record.solution, "method": record.method, "seconds": record.seconds}
        if record.stats.get("cpu_seconds") is not None:  # recorded by the batch since CPU time went into the table's provenance
            entries[record.instance]["cpu_seconds"] = record.stats["cpu_seconds"]
    starts = sorted({key.split(":")[1].rsplit("-", 1)[0] for key in entries})
    payload = {
        "about": "Optimal move counts of font5x7 puzzles, each found by a full BFS from its start "
        "(puzzlelab coins batch --font font5x7 --method bfs) and replayed by the checker on export.",
        "exported": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "starts_with_entries": starts,
        "puzzles": dict(sorted(entries.items())),
    }
    head = json.dumps({k: v for k, v in payload.items() if k != "puzzles"}, indent=1)[:-2]
    lines = [f"{json.dumps(key)}: {json.dumps(entry, separators=(',', ':'))}" for key, entry in payload["puzzles"].items()]
    SOLVED.write_text(head + ',\n "puzzles": {\n' + ",\n".join(lines) + "\n}}\n")  # one puzzle a line
    print(f"{len(entries)} puzzles from {len(starts)} starts -> {SOLVED}")


def load(store_path: str) -> None:
    store = Store(store_path)
    entries = json.loads(SOLVED.read_text())["puzzles"]
    for key, entry in entries.items():
        moves = _checked(key, entry["solution"])
        result = Result(moves, entry["solution"], Status.OPTIMAL, entry.get("method") or "bfs", bound=moves, stats={"seconds": entry.get("seconds") or 0})
        PUZZLE.check(PUZZLE.load(key), result)
        store.add(PUZZLE.name, key, result, PUZZLE.sense)
    print(f"{len(entries)} puzzles loaded into {store_path}")


def ship() -> None:
    """solved.json -> the package's table: the starts with all 36 targets solved, each
    move list replayed (start, target, length) and each length compared with the
    published sample, then the written file read back through the package's reader
    and every entry replayed once more."""
    solved = json.loads(SOLVED.read_text())
    order = model.fonts()[FONT]["order"]
    width = model.fonts()[FONT]["width"]
    by_start: dict[str, dict[str, dict]] = {}
    for key, entry in solved["puzzles"].items():
        start, target = key.split(":", 1)[1].split("-", 1)
        by_start.setdefault(start, {})[target] = entry
    whole = [g for g in order if len(by_start.get(g, {})) == len(order) - 1]
    for start in sorted(set(by_start) - set(whole)):
        print(f"start {start}: {len(by_start[start])} of {len(order) - 1} targets in solved.json; left out until its BFS has finished")
    published = published_lengths()
    puzzles = {}
    for start in whole:
        for target in order:
            if target == start:
                continue
            key, entry = f"{FONT}:{start}-{target}", by_start[start][target]
            moves = _checked(key, entry["solution"])
            if moves != entry["moves"] or published.get(key, moves) != moves:
                raise SystemExit(f"{key}: solved.json says {entry['moves']}, the checker counts {moves}, published {published.get(key)}")
            puzzles[f"{start}-{target}"] = [moves, encode_moves(entry["solution"], width)]
    TABLE.write_text(table_text(FONT, puzzles, _provenance(solved, by_start, whole)))
    table = load_table(path=TABLE)
    replayed = sum(1 for _ in table.entries())
    matched = sum(1 for key in published if key.startswith(FONT + ":") and tuple(key.split(":")[1].split("-")) in table)
    print(f"{replayed} puzzles from {len(whole)} starts -> {TABLE.relative_to(REPO)} ({TABLE.stat().st_size:,} bytes); "
          f"every move list replayed; {matched} of the published sample's lengths matched")


def _provenance(solved: dict, by_start: dict[str, dict[str, dict]], whole: list[str]) -> dict:
    """How the table was computed: the command, the engine, the commits, the times."""
    starts = {}
    for start in whole:
        entries = list(by_start[start].values())
        cpu = {e.get("cpu_seconds") for e in entries}
        starts[start] = {"wall_seconds": entries[0]["seconds"], "cpu_seconds": cpu.pop() if len(cpu) == 1 else None}
    first = _first_recorded(whole)
    for start in whole:
        starts[start]["first_recorded_in"] = first.get(start)
    known_cpu = [s["cpu_seconds"] for s in starts.values() if s["cpu_seconds"] is not None]
    engine = git_output(REPO, "log", "-1", "--format=%H %cs", "--", *ENGINE)
    boards = math.comb(35, 12)
    return {
        "command": CAMPAIGN,
        "method": f"a full BFS from each start over all C(35, 12) = {boards:,} boards (one byte a board, puzzlelab.puzzles.coins.bfs.byte_bfs); "
        "a target's BFS level is its optimal number of moves, its move list rebuilt from the level array",
        "results": f"proofs/coins-font5x7/solved.json, exported {solved.get('exported')}",
        "engine_commit": engine,
        "commit_note": "the campaign ran on the project's main checkout as it was developed; each start's first_recorded_in is the "
        "first commit whose solved.json holds it whole (null: not committed when this table was written); engine_commit is "
        "the last commit to change the BFS engine's files before the table was written",
        "shipped": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "shipped_from": git_output(REPO, "rev-parse", "HEAD"),
        "generator": "python proofs/coins-font5x7/campaign.py ship",
        "puzzles": sum(len(by_start[s]) for s in whole),
        "of": len(model.catalog_names(FONT)),
        "starts": starts,
        "wall_seconds_total": round(sum(s["wall_seconds"] for s in starts.values()), 3),
        "cpu_seconds_total": round(sum(known_cpu), 3),
        "cpu_seconds_known_for_starts": len(known_cpu),
        "cpu_note": "starts before the threaded BFS ran in one single-threaded worker at nice 19 (CPU time at most the wall time); "
        "the last ones (T..Z, 0..9) expanded each level on 2 threads; all on a 2-core machine shared with other jobs; "
        "the batch records CPU seconds only since the threaded BFS (null where a start was computed before)",
    }


def _first_recorded(starts: list[str]) -> dict[str, str]:
    """Start -> 'COMMIT DATE' of the first commit whose solved.json holds all its targets."""
    found: dict[str, str] = {}
    log = git_output(REPO, "log", "--reverse", "--format=%H %cs", "--", str(SOLVED.relative_to(REPO))) or ""
    for line in log.splitlines():
        text = git_output(REPO, "show", f"{line.split()[0]}:{SOLVED.relative_to(REPO)}")
        try:
            keys = json.loads(text or "")["puzzles"]
        except (ValueError, KeyError, TypeError):
            continue
        for start in starts:
            if start not in found and sum(1 for k in keys if k.startswith(f"{FONT}:{start}-")) == len(model.fonts()[FONT]["order"]) - 1:
                found[start] = line
    return found


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "ship":
        ship()
    elif len(sys.argv) == 3 and sys.argv[1] in ("export", "load"):
        (export if sys.argv[1] == "export" else load)(sys.argv[2])
    else:
        raise SystemExit(__doc__)
