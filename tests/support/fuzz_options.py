"""Hostile options for the CLI fuzzing (tests/support/fuzz_inputs.py): the contract
options of `solve` (--method, --budget, --seed, --svg, the methods' own options as the
registry declares them) and the arguments of the puzzles' own cheap verbs (tiling
table, matchsticks table, hexagon score / table / count, coins animate, macmahon count).

Budgets stay at 1 s or less unless the instance is tiny; counts of worker processes
and threads are drawn only where the code must refuse them (or up to 2), and never
`--backend ray` or an absolute path (see fuzz_inputs' docstring)."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import Any, Callable

from support.fuzz_inputs import HUGE_DIGITS, TINY, hexagon_format, junk_payload, macmahon_format

__all__ = ["solve_options", "hostile_flag_values", "own_verb_args", "registry_methods", "registry_catalog"]

BUDGETS = ["0", "0.05", "0.2", "0.5", "1", "1e-300", "-0"]
REFUSED_BUDGETS = ["nan", "NaN", "-1", "true", "", "abc", "-inf", "-1e400", "0x1", "1,5", "²", "1e400x"]
UNBOUNDED_BUDGETS = ["1e400", "inf", "Infinity", HUGE_DIGITS, "1e308"]
HOSTILE_SEEDS = [str(2**63), str(-(2**63) - 1), str(2**64), "1" + "0" * 30, HUGE_DIGITS, "abc", "1.5", "nan", "-1", "", "٣"]
HOSTILE_INTS = ["-1", "0", "1e400", "nan", "NaN", "inf", "true", "", "abc", "1.5", "٣", "²", str(2**63), "1" + "0" * 30,
                HUGE_DIGITS, "-" + HUGE_DIGITS, "10000000", "10000001", "100000", "257", "65", "0x10", "1_0"]  # fmt: skip
PROCESS_OPTIONS = {"workers", "jobs", "threads"}  # never an accepted count above 2 (each worker is a process); 0 = the default (the CPU count)
REFUSED_COUNTS = ["-1", "257", "100000", "1" + "0" * 30, HUGE_DIGITS, "nan", "1e400", "abc", "", "1.5", "true"]
ODD_TEXT = ["", "nonsense", "²", "漢字", " ", "-", "--", "a" * 5000, "../..", "x,y", "None", "\u202e"]
# Methods that search until the budget ends whatever the instance (anytime searches):
# an unbounded budget (--budget 1e400, "no deadline") keeps them running by design.
ANYTIME = {("hexagon", "beam"), ("hexagon", "levels"), ("hexagon", "improve")}
PATHS = ["new.out", "missing/new.out", ".", "", "deep/er/x.out", "sub"]
RANGES = ["1..3", "2", "1,2", "3..4", "1..2,4", " 2 .. 3 "]
HOSTILE_RANGES = ["0..2", "3..1", "-5..-1", "1..99999999", "1..1000000000000", "٣", HUGE_DIGITS, "1..", "..", "", "1,,2",
                  "1..2..3", "1e400", "nan", "1.." + HUGE_DIGITS, "-" + HUGE_DIGITS + "..1", "²", "1..2,x"]  # fmt: skip


@lru_cache(maxsize=None)
def registry_methods(puzzle: str) -> dict[str, tuple]:
    """method name -> its declared options (core.puzzle.Option), from the registry."""
    from puzzlelab.puzzles import REGISTRY

    return {name: tuple(method.options) for name, method in REGISTRY[puzzle].methods.items()}


@lru_cache(maxsize=None)
def registry_catalog(puzzle: str) -> tuple[str, ...]:
    from puzzlelab.puzzles import REGISTRY

    return tuple(REGISTRY[puzzle].catalog())


def hostile_flag_values(rng: random.Random) -> list[str]:
    """Flags and arguments no verb declares (or malformed uses of those it does)."""
    return rng.choice([
        ["--foo"], ["--foo", "bar"], ["-x"], ["--"], ["extra"], ["--json=maybe"], ["--budget"], ["--no-such-option=1"],
        ["--" + "x" * 5000], [HUGE_DIGITS], ["--quiet=2"], ["-"], ["--json", "--json"], ["--store=nan"], ["—budget", "1"],
    ])  # fmt: skip


FOREIGN = [b"\xff\xfe\x00binary", b'{"other": "json"}', b"[1, 2, 3]", b"notes I want to keep\n", b"{" * 100_000, b'{"n": ' + b"9" * 5000 + b"}"]


def foreign_file(rng: random.Random, placer: Any) -> str:
    """A file that is no search's checkpoint, given as one: it must be refused and
    left as it was (macmahon overwrote such a file)."""
    name = placer.file(rng.choice(FOREIGN), "keep")
    placer.case.keep.append(name)
    return name


def _budget(rng: random.Random, unbounded_ok: bool) -> tuple[list[str], str]:
    roll = rng.random()
    if roll < 0.15:
        return ["--budget", rng.choice(REFUSED_BUDGETS)], "refused budget"
    if roll < 0.25 and unbounded_ok:
        return ["--budget", rng.choice(UNBOUNDED_BUDGETS)], "unbounded budget"
    return ["--budget", rng.choice(BUDGETS)], ""


def _option_value(rng: random.Random, option: Any, placer: Any) -> list[str]:
    """One declared method option, as flags: in range, at its limits or hostile."""
    flag, kind, name = option.flag, option.kind, option.name
    if kind == "bool":
        return rng.choice([[flag], ["--no-" + flag[2:]], [f"{flag}=maybe"], [f"{flag}=1"], [f"{flag}=false"], [flag, "extra"]])
    if name in PROCESS_OPTIONS:
        return [flag, rng.choice(["1", "2", "0"] if rng.random() < 0.6 else REFUSED_COUNTS)]
    if kind in ("int", "float"):
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else 10**9
        good = [str(int(low)), str(int(high)), str(int(low) + 1), str(option.default)]
        return [flag, rng.choice(good) if rng.random() < 0.45 else rng.choice(HOSTILE_INTS)]
    if kind == "ints":
        return [flag, rng.choice(["2,3", "2", "", "1,x", HUGE_DIGITS, "2," * 20001, "-1", "٣", "2,,3", "99999999"])]
    if name in ("checkpoint", "workdir"):
        return [flag, rng.choice(PATHS) if rng.random() < 0.6 else foreign_file(rng, placer)]
    if name == "backend":
        return [flag, rng.choice(["local", "nonsense", "", "LOCAL"])]
    if name == "address":
        return [flag, rng.choice(["", "nonsense:1", "auto"])]
    return [flag, rng.choice([str(option.default), *ODD_TEXT])]


def solve_options(rng: random.Random, puzzle: str, placer: Any, *, unbounded_ok: bool) -> tuple[list[str], str]:
    """Options of `solve`: a method (or a wrong name), a budget, maybe a seed, the
    method's options, --svg, --json, --quiet, --no-store, an unknown flag."""
    methods = registry_methods(puzzle)
    args, kinds = [], []
    roll = rng.random()
    method = rng.choice(sorted(methods)) if roll < 0.8 else None
    if method is not None:
        args += ["--method", method]
    elif roll < 0.9:
        args += ["--method", rng.choice(ODD_TEXT[:8] + ["AUTO", "auto ", "sat,beam"])]
        kinds.append("bad method")
    budget, why = _budget(rng, unbounded_ok and (puzzle, method) not in ANYTIME)
    args += budget
    kinds += [why] if why else []
    if rng.random() < 0.2:
        args += ["--seed", rng.choice(HOSTILE_SEEDS)]
        kinds.append("hostile seed")
    if method is not None and methods[method] and rng.random() < 0.5:
        for option in rng.sample(list(methods[method]), rng.randint(1, min(3, len(methods[method])))):
            args += _option_value(rng, option, placer)
        kinds.append("method options")
    if rng.random() < 0.1:
        args += ["--svg", rng.choice(PATHS) + rng.choice(["", ".svg"])]
        kinds.append("--svg path")
    args += ["--json"] if rng.random() < 0.3 else []
    args += ["--quiet"] if rng.random() < 0.7 else []
    args += ["--no-store"] if rng.random() < 0.8 else []
    if rng.random() < 0.08:
        args += hostile_flag_values(rng)
        kinds.append("unknown flag")
    return args, ", ".join(kinds) or "plain options"


def _pick(rng: random.Random, good: list[str], bad: list[str], p_bad: float = 0.3) -> str:
    return rng.choice(bad) if rng.random() < p_bad else rng.choice(good)


def _tiling_table(rng: random.Random, placer: Any) -> tuple[str, list[str]]:
    args = ["--m", _pick(rng, RANGES + ["15", "1..15"], HOSTILE_RANGES, 0.25), "--n", _pick(rng, RANGES + ["1..6", "1000", "1..1000"], HOSTILE_RANGES, 0.25)]
    args += ["--budget", rng.choice(BUDGETS[1:5]) if rng.random() < 0.85 else rng.choice(REFUSED_BUDGETS)]
    args += ["--workers", _pick(rng, ["1", "1", "0"], REFUSED_COUNTS, 0.2)]
    if rng.random() < 0.3:
        args += ["--max-memory-mb", _pick(rng, ["1", "100", "2000"], HOSTILE_INTS, 0.6)]
    if rng.random() < 0.1:
        args += ["--backend", rng.choice(["nonsense", "", "local"])]
    return "table", args


def _matchsticks_table(rng: random.Random, placer: Any) -> tuple[str, list[str]]:
    small = rng.random() < 0.85
    args = ["--n", rng.choice(["1..4", "2", "0..3", "5,6", "1..6"]) if small else rng.choice(HOSTILE_RANGES)]
    args += ["--method", _pick(rng, ["greedy", "diagonal", "full", "auto"], ODD_TEXT[:6], 0.15)]
    budget, _ = _budget(rng, unbounded_ok=small)
    args += budget + ["--no-store"] if rng.random() < 0.8 else budget
    for flag, good, bad in (("--workers", ["1"], REFUSED_COUNTS), ("--jobs", ["1"], REFUSED_COUNTS), ("--free-below", ["1", "5"], HOSTILE_INTS)):
        if rng.random() < 0.2:
            args += [flag, _pick(rng, good, bad, 0.6)]
    args += ["--json"] if rng.random() < 0.3 else []
    args += ["--backend", rng.choice(["nonsense", "", "local"])] if rng.random() < 0.1 else []
    return "table", args


def _hexagon_verb(rng: random.Random, placer: Any, answer: Callable) -> tuple[str, list[str]]:
    verb = rng.choice(["score", "score", "table", "count"])
    if verb == "score":
        roll = rng.random()
        if roll < 0.5:
            grids = [answer(rng).solution for _ in range(rng.randint(1, 3))]
            text = ";\n".join(g if isinstance(g, str) else ", ".join("(" + ",".join(map(str, r)) + ")" for r in g) for g in grids)
        else:
            text = hexagon_format(rng) if roll < 0.8 else junk_payload(rng, "(1,1), (1,1,1), (1,1)")  # instances double as grids
        args = [placer.put(text, "submission")] + (["--json"] if rng.random() < 0.3 else [])
        return verb, args
    if verb == "table":
        orders = rng.choice(["3", "3..3", "2..3", "1..3"]) if rng.random() < 0.85 else rng.choice(HOSTILE_RANGES + ["28", "27", "3..27"])
        budget, _ = _budget(rng, unbounded_ok=False)
        if orders in ("27", "3..27"):  # the budget is per order and level: 100 of them; only no time at all is short
            budget = ["--budget", rng.choice(["0", "-0", "1e-300"])]
        return verb, ["--orders", orders] + budget
    n = rng.choice(["2", "3", "3", "4"]) if rng.random() < 0.8 else rng.choice(HOSTILE_INTS)
    args = [n, "--levels", _pick(rng, ["1..2", "1..6", "3,4", "1"], HOSTILE_RANGES + ["0..7", "7"], 0.3)]
    budget, _ = _budget(rng, unbounded_ok=n in ("2", "3"))
    return verb, args + budget + (["--json"] if rng.random() < 0.3 else [])


def _coins_animate(rng: random.Random, placer: Any, answer: Callable) -> tuple[str, list[str], str]:
    """coins animate: a (maybe mutated) answer of our own as --solution, or solving."""
    args: list[str] = []
    expect = ""
    if rng.random() < 0.6:
        found = answer(rng)
        args = [placer.put(found.instance, "instance"), "--solution", placer.file(json.dumps(found.solution).encode(), "solution")]
        expect = found.expect
    else:
        args = [rng.choice(["font5x7:O-C", "font5x7:O-C", "font5x9:A-B", "-o-\nooo\n\nooo\n-o-"])]
        if rng.random() < 0.3:
            args += ["--solution", placer.file(junk_payload(rng, "[[4, 3, 0, 4]]"), "solution")]
        budget, _ = _budget(rng, unbounded_ok=args[0] != "font5x9:A-B")
        args += budget
    for flag in ("--html", "--svg"):
        if rng.random() < 0.5:
            args += [flag, rng.choice(PATHS) + rng.choice(["", ".svg", ".html"])]
    return "animate", args, expect


def _macmahon_count(rng: random.Random, placer: Any) -> tuple[str, list[str]]:
    tiny = rng.random() < 0.6
    args = [rng.choice(TINY["macmahon"] + ["2x3/c2"]) if tiny else macmahon_format(rng)]
    budget, _ = _budget(rng, unbounded_ok=tiny)
    args += budget
    choices = (
        ("--border", ["white", "free", "red", "W", "0"], ODD_TEXT + ["7", HUGE_DIGITS]),
        ("--workers", ["1"], REFUSED_COUNTS),
        ("--split-depth", ["0", "3", "64"], HOSTILE_INTS),
        ("--group", ["rot180,WBR", "id", "rot180"], ODD_TEXT + ["rot180," * 2000]),
        ("--order", ["mrv", "ring", "rows", "greedy"], ODD_TEXT),
        ("--list", ["list.jsonl"], PATHS),
        ("--list-group", ["full", "board", "rotations", "colours", "custom"], ODD_TEXT),
        ("--checkpoint", ["ck.json"], PATHS + ["<foreign>"] * 4),
        ("--backend", ["local"], ["nonsense", ""]),
    )
    for flag, good, bad in choices:
        if rng.random() < 0.15:
            value = _pick(rng, good, bad, 0.5)
            args += [flag, foreign_file(rng, placer) if value == "<foreign>" else value]
    for flag in ("--json", "--no-store", "--no-symmetry"):
        args += [flag] if rng.random() < 0.3 else []
    return "count", args


def own_verb_args(rng: random.Random, puzzle: str, placer: Any, answer: Callable) -> tuple[str, list[str], str, str]:
    """(verb, arguments, kind, expect) of one of the puzzle's own cheap verbs."""
    expect = ""
    if puzzle == "tiling":
        verb, args = _tiling_table(rng, placer)
    elif puzzle == "matchsticks":
        verb, args = _matchsticks_table(rng, placer)
    elif puzzle == "hexagon":
        verb, args = _hexagon_verb(rng, placer, answer)
    elif puzzle == "coins":
        verb, args, expect = _coins_animate(rng, placer, answer)
    else:
        verb, args = _macmahon_count(rng, placer)
    if rng.random() < 0.05:
        args += hostile_flag_values(rng)
    return verb, args, f"{puzzle} {verb}", expect
