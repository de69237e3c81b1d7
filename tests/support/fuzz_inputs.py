"""Hostile input atoms for the CLI fuzzing (tests/support/fuzz_cases.py builds the
command lines; tests/support/fuzz_harness.py runs them; tests/test_fuzz_cli.py and
benchmarks/bench_fuzz_cli.py use both).

Instances come as catalog names, mutated names, bytes that are not UTF-8 or not text,
JSON nested deep, 5,000-digit integers, NaN and Infinity, and each field's own formats
(tiling `WxH`, grids and contest JSON; matchsticks `n=`; hexagon orders and submission
grids; coins font names and glyph rows; macmahon board specs) filled with random and
huge numbers and odd characters; solutions in each field's form, the same way.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

__all__ = [
    "PUZZLES", "TINY", "LARGE", "CATALOG_SAMPLE", "HUGE_DIGITS", "ODD", "Raw", "json_text", "json_number", "hostile_number",
    "deep_json", "mutated", "junk_payload", "bulk_solution", "instance_text", "solution_text", "hexagon_format", "macmahon_format",
]  # fmt: skip

PUZZLES = ("tiling", "matchsticks", "hexagon", "coins", "macmahon")

# Instances every method solves (or gives up on) at once: the only ones run with a
# budget that may be unbounded (--budget 1e400) or long.
TINY = {
    "tiling": ["3x3", "2x5", "1x1", "..\n.#"],
    "matchsticks": ["2", "3", "n=4", "0"],
    "hexagon": ["2", "3"],
    "coins": ["font5x7:O-C", "-o-\nooo\n\nooo\n-o-"],
    "macmahon": ["2x3/free", "1x1/c1", "2x2/c2/free/tiles=WWWR,WWRR,WRWR,RRRR"],
}
# The largest instances each puzzle takes (or a little past): solved with a budget of
# 1 s or less, they must stop in time and within the memory bound, or be refused up
# front with the figure.
LARGE = {
    "tiling": ["1000x1000", "1000x999", "15x1000", "1001x1001", "contest_5"],
    "matchsticks": ["63", "62", "46", "64"],
    "hexagon": ["27", "26", "20", "28"],
    "coins": ["font5x9:/-Z", "font5x9:A-B", "font5x7:/-I", "font9:/-Z"],
    "macmahon": ["7x10", "10x7", "29x36/c8/free", "hex3", "12x12/c5/free"],
}
CATALOG_SAMPLE = {  # a few catalog names each (the whole catalogs are read at run time too)
    "tiling": ["contest_1", "contest_8", "rect_13x11", "rect_15x100"],
    "matchsticks": ["5", "16", "46", "63"],
    "hexagon": ["3", "11", "27"],
    "coins": ["font5x7:O-C", "font5x9:A-B", "font9:/-Z"],
    "macmahon": ["4x6", "3x8", "hex2", "7x10", "2x3/free"],
}

HUGE_DIGITS = "9" * 5000
ODD = "²٣é漢\u2028\u202e\ufeff \t/\\:-x.,;=*#o()[]{}\"'\U0001f600\x7f"
HOSTILE_NUMBERS = [
    "0", "-1", "1", "2", "3", "7", "8", "63", "64", "65", "1000", "1001", "99999", "1000000000", str(2**31),
    str(2**63), str(-(2**63) - 1), "1e400", "-1e400", "1e-300", "NaN", "nan", "Infinity", "-Infinity", "inf",
    "0.5", "-0", "1_000", "0x10", "٣", "²", "", " ", "true", "null", HUGE_DIGITS, "-" + HUGE_DIGITS,
]  # fmt: skip
RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", HUGE_DIGITS, "-" + HUGE_DIGITS, "1e-400", "-0.0"]
JSON_VALUES: list[Any] = [0, -1, 1, 2, 3, 7, 8, 63, 64, 1000, 10**9, 2**63, -(2**63), 10**29, 10**30, 10**100, 0.5, 1e308,
                          True, False, None, "3", "", "٣", [], {}, [1], {"n": 3}]  # fmt: skip


# ---------------------------------------------------------------------------- atoms


def hostile_number(rng: random.Random) -> str:
    return rng.choice(HOSTILE_NUMBERS) if rng.random() < 0.7 else str(rng.randint(-5, 200))


class Raw(str):
    """A token written into JSON text as it is (NaN, 1e400, a 5,000-digit integer)."""


def json_text(value: Any) -> str:
    """JSON text of `value`, Raw tokens written verbatim."""
    raws: list[str] = []

    def swap(v: Any) -> Any:
        if isinstance(v, Raw):
            raws.append(str(v))
            return f"@@RAW{len(raws) - 1}@@"
        if isinstance(v, dict):
            return {str(k): swap(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [swap(x) for x in v]
        return v

    text = json.dumps(swap(value), ensure_ascii=False)
    for i, raw in enumerate(raws):
        text = text.replace(f'"@@RAW{i}@@"', raw)
    return text


def json_number(rng: random.Random) -> Any:
    """A number (or not quite) for a JSON field: plain, huge, NaN, of the wrong type."""
    roll = rng.random()
    if roll < 0.35:
        return rng.randint(-3, 12)
    if roll < 0.6:
        return Raw(rng.choice(RAW_NUMBERS))
    return rng.choice(JSON_VALUES)


def deep_json(rng: random.Random) -> str:
    depth = rng.choice([65, 1000, 100_000])
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def mutated(rng: random.Random, name: str) -> str:
    """A name with a few edits: odd characters, deletions, doubled parts, case, spaces."""
    text = name
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(text))
        edit = rng.randrange(7)
        if edit == 0:
            text = text[:i] + rng.choice(ODD) + text[i:]
        elif edit == 1 and text:
            text = text[: max(i - 1, 0)] + text[i:]
        elif edit == 2:
            text = text + text[i:]
        elif edit == 3:
            text = text.swapcase()
        elif edit == 4:
            text = f" {text}\t"
        elif edit == 5 and text:
            text = text[:i] + rng.choice(HOSTILE_NUMBERS[:20]) + text[i + 1 :]
        else:
            text = text[:i]
    return text


def junk_payload(rng: random.Random, good: str = "") -> bytes:
    """Bytes no parser should take: arbitrary, not UTF-8, deep JSON, huge numbers,
    empty, NUL, UTF-16, a 4 MB file, JSON of the wrong type; `good` (a valid text) is
    the base of the near misses."""
    kind = rng.randrange(12)
    base = (good or "3").encode()
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
    if kind == 1:
        i = rng.randint(0, len(base))
        return base[:i] + rng.choice([b"\xff", b"\xc3", b"\xe9", b"\x80\x80", b"\xed\xa0\x80"]) + base[i:]
    if kind == 2:
        return deep_json(rng).encode()
    if kind == 3:
        return rng.choice(RAW_NUMBERS + [HUGE_DIGITS + "x" + HUGE_DIGITS, "[" + HUGE_DIGITS + "]"]).encode()
    if kind == 4:
        return rng.choice([b"", b" ", b"\n\n", b"\xef\xbb\xbf", b"\x00", base + b"\x00", b"\t\r\n\x0b\x0c"])
    if kind == 5:
        return good.encode(rng.choice(["utf-16", "utf-32", "utf-16-le"])) if good else "é".encode("latin-1")
    if kind == 6 and rng.random() < 0.15:
        return b"[" + b"1," * 2_100_000 + b"1]"  # over the 4 MB limit
    if kind == 7:
        return json_text(rng.choice([[], {}, "text", None, True, 3.5, [[[]]], {"": {}}, [None] * 50])).encode()
    if kind == 8:
        return (good * rng.randint(2, 50)).encode()
    if kind == 9:
        return ("x" * rng.randint(1000, 200_000)).encode()
    if kind == 10:
        return "".join(rng.choice(ODD) for _ in range(rng.randint(1, 60))).encode()
    return base[: rng.randint(0, len(base))]


# ---------------------------------------------------------------------------- instances


def _rows(rng: random.Random, alphabet: str) -> str:
    width = rng.randint(0, 9)
    rows = ["".join(rng.choice(alphabet) for _ in range(width + (rng.random() < 0.1))) for _ in range(rng.randint(0, 9))]
    return "\n".join(rows)


def _tiling_format(rng: random.Random) -> str:
    roll = rng.randrange(4)
    if roll == 0:
        return f"{hostile_number(rng)}{rng.choice('xX*×')}{hostile_number(rng)}"
    if roll == 1:
        return _rows(rng, "..........####" + ODD[:6])
    height, width = rng.randint(0, 5), rng.randint(0, 5)
    rows = [[rng.random() < 0.8 if rng.random() < 0.95 else json_number(rng) for _ in range(width)] for _ in range(height)]
    if roll == 2:
        return json_text(rows)
    spec = {"id": rng.choice(["", "x", 3, None, Raw("NaN"), [1]]), "width": json_number(rng) if rng.random() < 0.5 else width}
    spec.update({"height": json_number(rng) if rng.random() < 0.5 else height, "puzzle": rows})
    if rng.random() < 0.2:
        del spec[rng.choice(list(spec))]
    return json_text(spec)


def _matchsticks_format(rng: random.Random) -> str:
    roll = rng.randrange(3)
    if roll == 0:
        return hostile_number(rng)
    if roll == 1:
        return f"n{rng.choice(['=', ' = ', ':', ''])}{hostile_number(rng)}"
    return json_text(rng.choice([{"n": json_number(rng)}, [json_number(rng)], {"m": 3}, {"n": json_number(rng), "x": 1}]))


def hexagon_format(rng: random.Random) -> str:
    roll = rng.randrange(4)
    if roll == 0:
        return hostile_number(rng)
    n = rng.randint(1, 4)
    lengths = [2 * n - 1 - abs(r - (n - 1)) for r in range(2 * n - 1)]
    if rng.random() < 0.3:
        lengths = [max(0, k + rng.randint(-1, 1)) for k in lengths]
    rows = [[rng.randint(1, 7) for _ in range(k)] for k in lengths]
    for _ in range(rng.randint(0, 2)):
        if rows and rows[0]:
            r = rng.randrange(len(rows))
            if rows[r]:
                rows[r][rng.randrange(len(rows[r]))] = rng.choice(HOSTILE_NUMBERS)
    text = ", ".join("(" + ",".join(map(str, row)) + ")" for row in rows)
    if roll == 1:
        return text + rng.choice(["", ";", "; " + text, ";;", ")"])
    if roll == 2:
        return json_text({"n": json_number(rng) if rng.random() < 0.5 else n, "grid": text})
    return json_text(rows)


def _coins_format(rng: random.Random) -> str:
    roll = rng.randrange(4)
    glyphs = "AZ09/-:²é o" + ODD[:4]
    if roll == 0:
        font = rng.choice(["font5x7", "font5x9", "font9", "font", "", "FONT5X7", "font5x7 ", "font5x7:A"])
        return f"{font}:{''.join(rng.choice(glyphs) for _ in range(rng.randint(0, 2)))}-{''.join(rng.choice(glyphs) for _ in range(rng.randint(0, 2)))}"
    if roll == 1:
        return _rows(rng, "oo--" + ODD[:3]) + rng.choice(["\n\n", "\n->\n", "\nstart:\n", ""]) + _rows(rng, "oo--")
    value = {"start": rng.choice(["A", _rows(rng, "o-").split("\n"), json_number(rng)]), "target": rng.choice(["B", "o-o", json_number(rng)])}
    if roll == 2:
        value["font"] = rng.choice(["font5x7", "font10", json_number(rng)])
    else:
        value.update({"width": json_number(rng), "height": json_number(rng)})
    return json_text(value)


def macmahon_format(rng: random.Random) -> str:
    board = rng.choice(["4x6", "2x3", "1x1", "0x0", "hex2", "hex0", "hex9", "4x6x2", "x", "hex", "3x8"])
    if rng.random() < 0.4:
        board = f"{hostile_number(rng)}x{hostile_number(rng)}" if rng.random() < 0.7 else f"hex{hostile_number(rng)}"
    if rng.random() < 0.25:
        spec = {"board": board if rng.random() < 0.8 else json_number(rng), "colours": json_number(rng)}
        spec.update({"border": rng.choice(["white", "free", None, json_number(rng), "²"]), "tiles": rng.choice(["all", [], ["WWWR"], json_number(rng)])})
        return json_text(spec)
    parts = [board]
    for _ in range(rng.randint(0, 3)):
        parts.append(rng.choice([
            f"c{hostile_number(rng)}", "free", f"border={rng.choice(['white', 'red', 'W', '7', '', '²', hostile_number(rng)])}",
            "tiles=" + ",".join("".join(rng.choice("WRBG*²0123" + ODD[:3]) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(0, 8))),
            "colours=" + rng.choice(["red,white", "", "a,a", ",".join(["x"] * 40)]), "=", "", "/",
        ]))  # fmt: skip
    return "/".join(parts)


FORMATS: dict[str, Callable[[random.Random], str]] = {
    "tiling": _tiling_format,
    "matchsticks": _matchsticks_format,
    "hexagon": hexagon_format,
    "coins": _coins_format,
    "macmahon": macmahon_format,
}


def instance_text(rng: random.Random, puzzle: str, catalog: list[str]) -> tuple[str, str]:
    """(kind, text) of an instance: a name, a mutated name, or the field's format."""
    roll = rng.random()
    if roll < 0.2:
        return "catalog name", rng.choice(catalog or CATALOG_SAMPLE[puzzle])
    if roll < 0.4:
        return "mutated name", mutated(rng, rng.choice(CATALOG_SAMPLE[puzzle] + TINY[puzzle]))
    return "field format", FORMATS[puzzle](rng)


# Instances whose shape the solution formats follow (so that hostile numbers reach the
# checkers' inner loops, not only their first shape check): puzzle -> name -> shape.
SHAPED = {
    "tiling": {"3x3": (3, 3), "2x5": (2, 5), "rect_13x11": (13, 11), "contest_8": (31, 21)},
    "matchsticks": {"2": 2, "5": 5, "46": 46, "63": 63},
    "hexagon": {"2": 2, "3": 3, "11": 11, "27": 27},
    "coins": {"font5x7:O-C": (5, 7), "font5x9:A-B": (5, 9)},
    "macmahon": {"2x3/free": (2, 3), "4x6": (4, 6), "1x1/c1": (1, 1)},
}
HUGE_FIELDS = [10**9, 10**18, 2**63, 10**29, -(10**9), Raw("1e400"), Raw(HUGE_DIGITS), Raw("NaN"), 0, -1, 0.5, True, None, "7"]


def solution_text(rng: random.Random, puzzle: str, shape: Any = None) -> str:
    """The field's solution form, sized for `shape` (see SHAPED) when given, with a few
    fields random, huge or of the wrong type."""

    def v(good: int) -> Any:  # a right-looking value, now and then a hostile one
        return rng.choice(HUGE_FIELDS) if rng.random() < 0.12 else (json_number(rng) if rng.random() < 0.1 else good)

    if puzzle == "tiling":
        w, h = shape or (rng.randint(1, 9), rng.randint(1, 9))
        squares = []
        for _ in range(rng.randint(0, 8)):
            size = rng.randint(1, min(w, h))
            x, y, s = v(rng.randint(0, w - size)), v(rng.randint(0, h - size)), v(size)
            squares.append({"X": x, "Y": y, "Size": s} if rng.random() < 0.85 else [x, y, s])
        return json_text(rng.choice([{"id": rng.choice(["", v(0)]), "squares": squares}, {"squares": squares}, squares, {"squares": v(1)}]))
    if puzzle == "matchsticks":
        n = shape if shape is not None else rng.randint(1, 8)
        squares = [[v(s), v(rng.randint(0, n - s)), v(rng.randint(0, n - s))] for s in range(n, 0, -1)]
        if squares and rng.random() < 0.3:
            squares.pop(rng.randrange(len(squares)))
        if rng.random() < 0.25:
            return " ".join(f"({a},{b},{c})" for a, b, c in (map(str, sq) for sq in squares))
        return json_text({"roam": v(0), "squares": squares} if rng.random() < 0.7 else squares)
    if puzzle == "hexagon":
        if shape is None:
            return hexagon_format(rng)
        rows = [[v(rng.randint(1, 3)) for _ in range(2 * shape - 1 - abs(r - (shape - 1)))] for r in range(2 * shape - 1)]
        if rng.random() < 0.3:
            return json_text(rows)
        return ", ".join("(" + ",".join(str(c) if not isinstance(c, (bool, type(None))) else json.dumps(c) for c in row) + ")" for row in rows)
    if puzzle == "coins":
        w, h = shape or (5, 7)
        moves = [[v(rng.randrange(w)), v(rng.randrange(h)), v(rng.randrange(w)), v(rng.randrange(h))] for _ in range(rng.randint(0, 6))]
        moves = [m[: rng.choice([3, 5])] if rng.random() < 0.05 else m for m in moves]
        return json_text(moves if rng.random() < 0.7 else {"moves": moves})
    rows, cols = shape or (2, 3)
    grid = [[[v(rng.randrange(rows * cols)), v(rng.randrange(4))] if rng.random() < 0.95 else v(0) for _ in range(cols)] for _ in range(rows)]
    if rng.random() < 0.5:
        return json_text(grid if rng.random() < 0.8 else {"grid": grid})
    certificate = {"kind": rng.choice(["count", "count", "grid", v(0)]), "total": v(rng.randint(0, 500)), "complete": rng.choice([True, False, v(1)])}
    certificate["examples"] = rng.choice([[grid], v(0), []])
    for key in rng.sample(["elements", "groups", "fixed_points", "symmetric", "symmetric_complete"], rng.randint(0, 4)):
        certificate[key] = rng.choice([
            v(0), {"full": {"members": ["id", "rot180"], "classes": v(3), "orbit_sizes": {"2": v(3), "1": v(0)}}}, {"id": v(416), "rot180": v(0)},
            ["id", "rot180"], ["id"] * rng.choice([2, 1000]), [grid] * rng.choice([1, 3]),
        ])  # fmt: skip
    return json_text(certificate)


def bulk_solution(rng: random.Random, puzzle: str) -> tuple[str, str]:
    """(instance, solution text): a solution of tens of thousands of parts (squares,
    moves, grids), within the size limit: checked in bounded time, never quadratic."""
    count = rng.choice([10_000, 30_000, 100_000])
    if puzzle == "tiling":
        squares = [{"X": rng.randrange(13), "Y": rng.randrange(11), "Size": 1} for _ in range(count)]
        return "rect_13x11", json_text({"id": "", "squares": squares})
    if puzzle == "matchsticks":
        return "5", json_text({"roam": 0, "squares": [[rng.randint(1, 5), 0, 0] for _ in range(count)]})
    if puzzle == "hexagon":
        return "2", ";\n".join(["(1,1), (1,1,1), (1,1)"] * (count // 10))
    if puzzle == "coins":
        return "font5x7:O-C", json_text([[rng.randrange(5), rng.randrange(7), rng.randrange(5), rng.randrange(7)] for _ in range(count)])
    grid = [[[0, 0], [1, 1], [2, 3]], [[4, 0], [3, 0], [5, 0]]]
    if rng.random() < 0.5:
        return "2x3/free", json_text({"solutions": [grid] * (count // 10)})
    return "2x3/free", json_text({"kind": "count", "total": 416, "complete": True, "examples": [grid] * (count // 10)})
