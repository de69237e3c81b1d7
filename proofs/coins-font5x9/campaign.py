"""The font5x9 BFS campaign's results: whole starts, from `coins bfs --json`, into the
package's table of optima (`src/puzzlelab/puzzles/coins/data/font5x9_optimal.json`).

One 5 x 9 start is one run of the two-bit engine (C(45, 13) boards, 18.5 GB of memory,
its level files on disk), each on a machine of its own:

    puzzlelab coins bfs font5x9:X --workdir /big/X --json --quiet > X.json
    python proofs/coins-font5x9/campaign.py add X.json     # a start's 36 optima -> solved.json
    python proofs/coins-font5x9/campaign.py ship           # solved.json -> the package's table

`add` takes a start only when all 36 of its targets are reached, each move list replayed
by the independent checker (the puzzle's `verify`) to exactly its stated length and each
length equal to the published sample where the sample has the puzzle; it keeps the
run's figures (wall and CPU seconds, peak memory, levels, threads, symmetries) for the
table's provenance. `ship` writes the table from every start solved.json holds (the
format of the font5x7 table, optimal_table.py, which replays each entry again before it
is served), reads it back through the package's reader and replays every entry.
Both functions take the font and the paths, so the tests run them on a 5 x 7 start.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from puzzlelab.core.files import write_atomic
from puzzlelab.core.git import git_output
from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.optimal_table import encode_moves, load_table, table_text
from puzzlelab.puzzles.coins.reference import published_lengths

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SOLVED = HERE / "solved.json"
TABLE = REPO / "src" / "puzzlelab" / "puzzles" / "coins" / "data" / "font5x9_optimal.json"
FONT = "font5x9"
ENGINE = [f"src/puzzlelab/puzzles/coins/bfs/{name}.py" for name in ("two_bit", "two_bit_orbits", "two_bit_bfs", "level_file", "symmetry")]
RUN_FIGURES = ("seconds", "level_wall_seconds", "cpu_seconds", "peak_memory_bytes", "levels", "threads", "symmetry", "engine", "finished")


class Refused(SystemExit):
    """A run or a file that cannot go into the table: one line saying why."""


def checked_start(summary: dict[str, Any], font: str = FONT) -> tuple[str, dict[str, Any]]:
    """(start glyph, its solved.json entry) from one `coins bfs --json` summary, or
    Refused: a start of another font, a target missing or not reached, a move list the
    checker rejects or of another length, a length other than the published one."""
    key = str(summary.get("start", ""))
    if not key.startswith(f"{font}:") or len(key) != len(font) + 2:
        raise Refused(f"start {key[:40]!r}: expected a glyph of {font} like {font}:X")
    start = key.split(":")[1]
    rows = {row.get("target"): row for row in summary.get("targets", []) if isinstance(row, dict)}
    published = published_lengths()
    targets = {}
    for target in model.fonts()[font]["order"]:
        if target == start:
            continue
        name = f"{font}:{start}-{target}"
        row = rows.get(target)
        if not row or row.get("moves") is None:
            raise Refused(f"{name}: not reached in the run; a start is added only with all its targets")
        verdict = PUZZLE.verify(PUZZLE.parse(name), row.get("solution"))
        if not verdict.ok or verdict.value != row["moves"]:
            raise Refused(f"{name}: the run says {row['moves']} moves, the checker: {verdict.message or verdict.value}")
        if published.get(name, row["moves"]) != row["moves"]:
            raise Refused(f"{name}: {row['moves']} moves, the published sample says {published[name]}")
        targets[target] = {"moves": row["moves"], "solution": row["solution"]}
    run = {field: summary.get(field) for field in RUN_FIGURES}
    return start, {"targets": targets, "run": run, "added": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def add(paths: list[str], solved_path: Path = SOLVED, font: str = FONT) -> None:
    """Each summary's start into solved.json (a start already there is replaced)."""
    solved = json.loads(solved_path.read_text()) if solved_path.exists() else {"font": font, "starts": {}}
    for path in paths:
        start, entry = checked_start(json.loads(Path(path).read_text()), font)
        solved["starts"][start] = entry
        run = entry["run"]
        print(f"{font}:{start}: 36 targets replayed, up to {max(t['moves'] for t in entry['targets'].values())} moves "
              f"({run.get('seconds')} s wall, {run.get('cpu_seconds')} CPU s) -> {solved_path.name}")
    write_atomic(solved_path, json.dumps(solved, indent=1) + "\n", "campaign results", "solved")


def ship(solved_path: Path = SOLVED, table_path: Path = TABLE, font: str = FONT) -> int:
    """solved.json -> the table: every start replayed again, then the written file read
    back by the package's reader and every entry replayed once more. Returns the entries."""
    solved = json.loads(solved_path.read_text())
    width = model.fonts()[font]["width"]
    puzzles: dict[str, list] = {}
    for start, entry in solved["starts"].items():
        summary = {"start": f"{font}:{start}", "targets": [{"target": t, **v} for t, v in entry["targets"].items()]}
        checked_start(summary, font)
        for target, row in entry["targets"].items():
            puzzles[f"{start}-{target}"] = [row["moves"], encode_moves(row["solution"], width)]
    write_atomic(table_path, table_text(font, puzzles, _provenance(solved, font, len(puzzles))), "coin table", "table")
    table = load_table(path=table_path)
    replayed = sum(1 for _ in table.entries())
    print(f"{replayed} puzzles from {len(solved['starts'])} start(s) -> {table_path} ({table_path.stat().st_size:,} bytes); every move list replayed")
    return replayed


def _provenance(solved: dict, font: str, puzzles: int) -> dict[str, Any]:
    starts = {start: entry["run"] for start, entry in solved["starts"].items()}
    return {
        "command": f"puzzlelab coins bfs {font}:START --workdir DIR --json (one start a run, every board of the start's orbit array)",
        "method": "a full BFS from each start over all C(45, 13) = 73,006,209,045 boards (two bits a board, levels on disk as "
        "Elias-Fano level files, one board per orbit when a symmetry fixes the start: puzzlelab.puzzles.coins.bfs.two_bit_bfs); "
        "a target's BFS level is its optimal number of moves, its move list rebuilt from the level files",
        "results": f"proofs/{HERE.name}/{SOLVED.name}",
        "engine_commit": git_output(REPO, "log", "-1", "--format=%H %cs", "--", *ENGINE),
        "shipped": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "shipped_from": git_output(REPO, "rev-parse", "HEAD"),
        "generator": f"python proofs/{HERE.name}/campaign.py ship",
        "puzzles": puzzles,
        "of": len(model.catalog_names(font)),
        "starts": {s: {"wall_seconds": run.get("seconds"), "level_wall_seconds": run.get("level_wall_seconds"), "cpu_seconds": run.get("cpu_seconds"),
                       "peak_memory_bytes": run.get("peak_memory_bytes"), "levels": run.get("levels"), "threads": run.get("threads"),
                       "symmetry": run.get("symmetry")} for s, run in starts.items()},
        "wall_seconds_total": round(sum(run.get("seconds") or 0 for run in starts.values()), 3),
        "cpu_seconds_total": round(sum(run.get("cpu_seconds") or 0 for run in starts.values()), 3),
        "figures_note": "wall_seconds and peak_memory_bytes are the run's last process's (a resumed run: its last process's); "
        "level_wall_seconds and cpu_seconds add up every level, over every process of a resumed run",
    }


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "ship":
        ship()
    elif len(sys.argv) >= 3 and sys.argv[1] == "add":
        add(sys.argv[2:])
    else:
        raise SystemExit(__doc__)
