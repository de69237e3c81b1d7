"""The font5x7 BFS campaign's results, carried between sessions (issue 23).

`puzzlelab coins batch --font font5x7 --method bfs` solves every puzzle of the font, one
start glyph at a time, and keeps each verified optimum in the records store. A store
lives on one machine; this script carries what it holds through the repository:

    python proofs/coins-font5x7/campaign.py export STORE   # store -> solved.json
    python proofs/coins-font5x7/campaign.py load STORE     # solved.json -> store

Both directions replay every move list with the independent checker (the puzzle's
`verify`): an entry that does not take its start to its target in the stated number of
moves is refused, never written. A loaded store lets a resumed batch skip the starts
already finished (the batch skips puzzles stored as optimal).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from puzzlelab.core.result import Result, Status
from puzzlelab.core.store import Store
from puzzlelab.puzzles.coins import PUZZLE

HERE = Path(__file__).resolve().parent
SOLVED = HERE / "solved.json"


def _checked(key: str, moves: list) -> int:
    verdict = PUZZLE.verify(PUZZLE.load(key), moves)
    if not verdict.ok:
        raise SystemExit(f"{key}: the checker rejects the stored moves ({verdict.message})")
    return verdict.value


def export(store_path: str) -> None:
    entries = dict(json.loads(SOLVED.read_text())["puzzles"]) if SOLVED.exists() else {}
    for record in Store(store_path).results("coins"):
        if record.status != Status.OPTIMAL.value or not record.instance.startswith("font5x7:"):
            continue
        moves = _checked(record.instance, record.solution)
        if moves != record.value:
            raise SystemExit(f"{record.instance}: stored value {record.value}, the checker counts {moves}")
        entries[record.instance] = {"moves": moves, "solution": record.solution, "method": record.method, "seconds": record.seconds}
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


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("export", "load"):
        raise SystemExit(__doc__)
    (export if sys.argv[1] == "export" else load)(sys.argv[2])
