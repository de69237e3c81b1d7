"""Hostile command lines for every puzzle's verbs, drawn from a seed: the
cases of the CLI fuzz harness (tests/support/fuzz_harness.py), shared by
tests/test_fuzz_cli.py and benchmarks/bench_fuzz_cli.py.

A `Case` is the arguments after `puzzlelab`, the files it needs (written into a fresh
folder, the working folder of its run), its standard input, and what a verify must
answer. Instances and solutions come from tests/support/fuzz_inputs.py (junk of every kind, the
fields' formats with random and huge numbers) and tests/support/fuzz_answers.py (real answers,
and mutations of them that must be invalid); options from tests/support/fuzz_options.py.

Never drawn (they would take the shared machine, not test the input layer): worker,
job and thread counts that the code accepts above 2 (each worker is a process of a few
hundred MB; 0, the default, means the CPU count), `--backend ray`, absolute paths,
budgets over 1 s on instances that are not tiny, and unbounded budgets for the
searches that use all of any budget (hexagon beam, levels, improve).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from support.fuzz_answers import ANSWERS
from support.fuzz_inputs import LARGE, PUZZLES, SHAPED, TINY, bulk_solution, instance_text, json_text, junk_payload, solution_text
from support.fuzz_options import hostile_flag_values, own_verb_args, registry_catalog, solve_options

__all__ = ["Case", "cases"]

ODD_PATHS = ["missing.json", ".", "nowhere/x.json", "", "-"]


@dataclass
class Case:
    """One command line: `args` after `puzzlelab`, `files` (relative name -> bytes) in
    the run's folder, `stdin`, and what the verb must answer: `expect` 'invalid' (a
    mutated answer: anything but valid), 'valid' (a real answer), '' (only no crash);
    `keep`: files (no search's checkpoint) that must be left as they were; `env`:
    environment variables of the run (the project reads a few)."""

    puzzle: str
    verb: str
    kind: str
    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes | None = None
    expect: str = ""
    keep: list[str] = field(default_factory=list)  # files given where the verb may write: to be left as they were
    env: dict[str, str] = field(default_factory=dict)  # environment variables set for the run

    def shown(self, limit: int = 400) -> str:
        """The command line and a preview of its inputs, cut to about `limit` characters."""

        def cut(text: str, n: int) -> str:
            return text if len(text) <= n else f"{text[: n - 25]}... ({len(text)} chars)"

        words = [cut(repr(a) if not a or not a.isprintable() or " " in a else a, 120) for a in self.args]
        parts = ["puzzlelab " + " ".join(words)]
        for name, data in self.files.items():
            parts.append(f"  file {name} ({len(data)} bytes): {cut(repr(data[:400]), limit // 2)}")
        if self.stdin is not None:
            parts.append(f"  stdin ({len(self.stdin)} bytes): {cut(repr(self.stdin[:400]), limit // 2)}")
        if self.env:
            parts.insert(0, "  environment: " + " ".join(f"{k}={cut(repr(v), 60)}" for k, v in self.env.items()))
        return "\n".join(parts)


class Placer:
    """Puts a text or bytes into a case: as the argument itself, a file, or standard
    input ('-'), and now and then a hostile path (missing, a folder, empty) instead."""

    def __init__(self, rng: random.Random, case: Case) -> None:
        self.rng, self.case = rng, case

    def file(self, data: bytes, stem: str) -> str:
        name = f"{stem}{len(self.case.files)}{self.rng.choice(['', '.json', '.txt'])}"
        self.case.files[name] = data
        return name

    def put(self, value: str | bytes, stem: str) -> str:
        data = value if isinstance(value, bytes) else value.encode()
        roll = self.rng.random()
        if roll < 0.04:
            return self.rng.choice(ODD_PATHS)
        if roll < 0.12 and self.case.stdin is None:
            self.case.stdin = data
            return "-"
        if isinstance(value, str) and "\x00" not in value and len(value) < 20_000 and not value.startswith("-") and roll < 0.55:
            return value  # an argument holds no NUL byte, is limited in length, and would be an option if it began with '-'
        return self.file(data, stem)


def _instance(rng: random.Random, case: Case) -> str:
    """An instance argument: a name, a mutated name, the field's format, or junk bytes."""
    kind, text = instance_text(rng, case.puzzle, list(registry_catalog(case.puzzle)))
    if rng.random() < 0.25:
        case.kind = "instance: junk bytes"
        return Placer(rng, case).put(junk_payload(rng, text), "instance")
    case.kind = f"instance: {kind}"
    return Placer(rng, case).put(text, "instance")


def _solve(rng: random.Random, puzzle: str) -> Case:
    case = Case(puzzle, "solve", "", [])
    roll = rng.random()
    tiny = roll < 0.35
    if roll < 0.5:
        case.kind = "instance: tiny" if tiny else "instance: large"
        instance = Placer(rng, case).put(rng.choice(TINY[puzzle] if tiny else LARGE[puzzle]), "instance")
    else:
        instance = _instance(rng, case)
    options, kind = solve_options(rng, puzzle, Placer(rng, case), unbounded_ok=tiny)
    case.args = [puzzle, "solve", instance, *options]
    case.kind += f"; {kind}"
    if rng.random() < 0.04:
        _hostile_environment(rng, case)
    return case


def _hostile_environment(rng: random.Random, case: Case) -> None:
    """One of the environment variables the project reads, set to something it cannot
    use (never a worker count it would take: each worker is a process)."""
    name = rng.choice(["PUZZLELAB_WORKERS", "PUZZLELAB_MP_START", "PUZZLELAB_DB"])
    if name == "PUZZLELAB_WORKERS":
        value = rng.choice(["abc", "-5", "0", "1e400", "1.5", "²", " ", "9" * 5000])
    elif name == "PUZZLELAB_MP_START":
        value = rng.choice(["nonsense", "", "FORK", "thread"])
    else:
        value = rng.choice([".", "missing/dir/records.sqlite", Placer(rng, case).file(rng.choice([b"junk", b"\xff" * 100, b""]), "db")])
    case.env[name] = value
    case.kind += f"; environment {name}"


def _verify(rng: random.Random, puzzle: str) -> Case:
    case = Case(puzzle, "verify", "", [])
    place = Placer(rng, case)
    roll = rng.random()
    if roll < 0.015:
        instance, solution = bulk_solution(rng, puzzle)
        case.kind, data = "solution: bulk", solution.encode()
    elif roll < 0.5:
        answer = ANSWERS[puzzle](rng, rng.random() < 0.7)
        instance = answer.instance
        if "\n" in instance or rng.random() < 0.3:
            instance = place.put(instance, "instance")
        solution = answer.solution if isinstance(answer.solution, str) else json_text(answer.solution)
        data = solution.encode()
        case.kind, case.expect = f"solution: {answer.how}", answer.expect
        if instance in ODD_PATHS:  # the instance was swapped for a hostile path: no verdict to expect
            case.expect = ""
    else:
        instance, shape = rng.choice(sorted(SHAPED[puzzle].items())) if rng.random() < 0.8 else (_instance(rng, case), None)
        if roll < 0.8:
            case.kind, data = "solution: field format", solution_text(rng, puzzle, shape).encode()
        else:
            case.kind, data = "solution: junk bytes", junk_payload(rng, solution_text(rng, puzzle, shape))
    if rng.random() < 0.03:
        solution_path, case.expect = rng.choice(ODD_PATHS), ""
    else:
        solution_path = place.file(data, "solution")
    case.args = [puzzle, "verify", instance, solution_path] + (["--json"] if rng.random() < 0.3 else [])
    if rng.random() < 0.05:
        case.args += hostile_flag_values(rng)
        case.expect = "" if case.expect == "valid" else case.expect
    return case


def _catalog(rng: random.Random, puzzle: str) -> Case:
    args = [puzzle, "catalog"] + (["--json"] if rng.random() < 0.5 else [])
    return Case(puzzle, "catalog", "catalog", args + (hostile_flag_values(rng) if rng.random() < 0.3 else []))


def _own_verb(rng: random.Random, puzzle: str) -> Case:
    case = Case(puzzle, "", "", [])
    verb, args, kind, expect = own_verb_args(rng, puzzle, Placer(rng, case), lambda r: ANSWERS[puzzle](r, r.random() < 0.5))
    case.verb, case.kind, case.args, case.expect = verb, kind, [puzzle, verb, *args], expect
    if rng.random() < 0.04:
        _hostile_environment(rng, case)
    return case


def cases(seed: int, count: int, *, solves: float = 0.2) -> list[Case]:
    """`count` cases drawn from `seed`, the puzzles in turn: about `solves` of them run
    solve, the rest verify (most), catalog and the puzzles' own verbs."""
    rng = random.Random(seed)
    drawn = []
    for i in range(count):
        puzzle = PUZZLES[i % len(PUZZLES)]
        roll = rng.random()
        if roll < solves:
            drawn.append(_solve(rng, puzzle))
        elif roll < solves + 0.55 * (1 - solves):
            drawn.append(_verify(rng, puzzle))
        elif roll < solves + 0.65 * (1 - solves):
            drawn.append(_catalog(rng, puzzle))
        else:
            drawn.append(_own_verb(rng, puzzle))
    return drawn


def as_json(case: Case) -> str:
    """A case as one JSON line (files and stdin in latin-1), to keep or replay it."""
    return json.dumps({
        "puzzle": case.puzzle, "verb": case.verb, "kind": case.kind, "args": case.args, "expect": case.expect, "keep": case.keep, "env": case.env,
        "files": {k: v.decode("latin-1") for k, v in case.files.items()},
        "stdin": None if case.stdin is None else case.stdin.decode("latin-1"),
    })  # fmt: skip
