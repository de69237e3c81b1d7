"""A219158 as files: the resumable `m n T` table the `table --out` verb writes, and the
rows past 15 this project computed and ships (`data/A219158_m16_20.tsv`).

The `--out` file has the layout of an OEIS b-file, one entry a line (`m n T`, '#'
lines are comments); the verb appends each row m as soon as all its entries are
verified, and on a second run skips the entries the file holds, so a stopped run
resumes at the first row it had not finished.

The shipped rows carry, beside each T, the squares of a tiling of the m x n rectangle
with T squares; `computed_rows` checks every one with the independent checker when it
loads them (the upper bound). That T is also the least (the lower bound) rests on the
exact column DP that found it (`rows.py`); see `data/SOURCES.md`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from puzzlelab.core.files import MARKER, is_stream, write_output
from puzzlelab.core.inputs import read_text_file, shown
from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Result, Status
from puzzlelab.core.tables import read_data_text, read_tsv
from puzzlelab.puzzles.tiling.model import Grid, format_solution
from puzzlelab.puzzles.tiling.verify import check_result, verify_tiling

__all__ = ["start_table_file", "append_row", "computed_rows", "computed_rows_checked", "computed_provenance", "ComputedRow", "read_table_file",
           "squares_text", "parse_squares_text"]

PACKAGE = "puzzlelab.puzzles.tiling"
COMPUTED = "A219158_m16_20.tsv"
MAX_TABLE_BYTES = 64_000_000  # a b-file of every m, n up to 1000 is about 12 MB


def read_table_file(path: str | Path) -> dict[tuple[int, int], int]:
    """The entries of an `m n T` file ({} when it does not exist yet, and for standard
    output, a device or a pipe, which hold nothing to resume from)."""
    path = Path(path)
    if is_stream(path) or not path.exists():
        return {}
    if path.is_dir():
        raise InvalidInstance(f"--out {path}: is a folder; expected a file", "out")
    if not path.is_file():
        return {}
    entries: dict[tuple[int, int], int] = {}
    for number, line in enumerate(read_text_file(path, "--out", MAX_TABLE_BYTES).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
            raise InvalidInstance(f"--out {path}, line {number}: expected 'm n T' (three numbers), got {shown(line)}; not a table file to resume (give another name)", "out")
        m, n, t = map(int, parts)
        entries[(m, n)] = t
    return entries


def start_table_file(path: str | Path) -> None:
    """Before the first row is computed: a new file (or standard output, a device)
    gets its header line, so that a file that cannot be written (/dev/full, a full
    disk) fails at once, and the file says what it is and who wrote it."""
    if is_stream(path) or not Path(path).is_file() or Path(path).stat().st_size == 0:
        header = f"# m n T: A219158, the fewest squares tiling an m x n rectangle ({MARKER})\n"
        write_output(path, header, "--out", recognise=_any_table, append=True)


def append_row(path: str | Path, rows: list[tuple[int, int, int]], note: str = "") -> None:
    """Append verified entries (m, n, T) to the file, a '#' note first (provenance);
    the file is rewritten whole and atomically (`core.files.write_output`)."""
    text = (f"# {note}\n" if note else "") + "".join(f"{m} {n} {t}\n" for m, n, t in rows)
    write_output(path, text, "--out", recognise=_any_table, append=True)


def _any_table(head: bytes) -> bool:
    """A table file is resumed and appended to, never replaced: `read_table_file`
    has checked its lines."""
    return True


def squares_text(squares: list[tuple[int, int, int]]) -> str:
    """Squares as 'x,y,size' joined by ';' (the shipped tilings' column)."""
    return ";".join(f"{x},{y},{s}" for x, y, s in squares)


def parse_squares_text(text: str) -> list[tuple[int, int, int]]:
    return [tuple(int(v) for v in part.split(",")) for part in text.split(";") if part]


@lru_cache(maxsize=None)
def computed_rows() -> dict[tuple[int, int], int]:
    """The shipped rows m = 16..20 (n = 16..100): (m, n) -> T, every tiling checked."""
    table = {}
    for row in read_tsv(PACKAGE, COMPUTED):
        m, n, t = int(row["m"]), int(row["n"]), int(row["T"])
        squares = parse_squares_text(row["squares"])
        grid = Grid.rectangle(n, m)
        check_result(grid, Result(t, format_solution(grid, squares), Status.OPTIMAL, "dp", bound=t))  # WrongAnswer if not
        table[(m, n)] = t
    return table


@dataclass(frozen=True)
class ComputedRow:
    """One shipped entry: A219158(m, n) = T, a tiling of the n x m rectangle (n along
    x) with T squares, and why it fails the checker (None: it holds)."""

    m: int
    n: int
    value: int | None
    solution: dict
    problem: str | None = None


@lru_cache(maxsize=None)
def computed_rows_checked() -> tuple[ComputedRow, ...]:
    """Every shipped row m = 16..20 with its tiling checked one by one (a row that
    fails is kept with the reason, where `computed_rows` refuses the whole file)."""
    rows = []
    for row in read_tsv(PACKAGE, COMPUTED):
        try:
            m, n, t = int(row["m"]), int(row["n"]), int(row["T"])
            grid = Grid.rectangle(n, m)
            solution = format_solution(grid, parse_squares_text(row["squares"]))
        except (KeyError, TypeError, ValueError) as exc:
            rows.append(ComputedRow(-1, -1, None, {}, f"row {row!r:.60}: unreadable ({exc})"))
            continue
        verdict = verify_tiling(grid, solution)
        problem = None if verdict.ok and verdict.value == t else (
            f"the checker rejects the tiling: {verdict.message}" if not verdict.ok else f"the tiling has {verdict.value} squares, not {t}")
        rows.append(ComputedRow(m, n, t, solution, problem))
    return tuple(rows)


@lru_cache(maxsize=None)
def computed_provenance() -> str:
    """The '#' lines heading the shipped rows: how they were computed."""
    lines = [line[1:].strip() for line in read_data_text(PACKAGE, COMPUTED).splitlines() if line.startswith("#")]
    return " ".join(lines)
