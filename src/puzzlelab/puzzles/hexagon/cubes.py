"""Cube-and-conquer proofs of lower bounds: "no level-k grid of order n has at most B
penalty edges", split into many small SAT calls that worker processes (or a Ray
cluster) refute side by side, with a checkpoint so a proof of hours survives a stop.

Why: a proof is one UNSAT call, and one CaDiCaL call neither uses a second core nor
survives an interruption (n = 8 at level 3, "at most 19": 4 million conflicts in
3356 s with no answer). The write-up proved n <= 11 with single calls of up to hours
(seed write-up, "Breaking Symmetry" and "Level by Level"); cube-and-conquer (Heule,
Kullmann, Wieringa and Biere, "Cube and Conquer", HVC 2011) is the standard way to
spread such a call.

The cubes: every assignment of "holds a 1" to the `depth` cells nearest the centre
(centre first, ring by ring) that unit propagation of the whole formula (rule,
penalty count <= B, lex-leader symmetry breaking) does not refute at once. A pruned
branch has no model, so the cubes cover every model: when every cube is UNSAT, so is
the formula, and the level-k penalty (hence the final one) is at least B + 1.

Each task refutes a run of cubes on one incremental solver (what it learns carries
from cube to cube: n = 7 at level 3, 449 cubes of depth 12, took 101 s against 115 s
for the single call), in rounds of conflicts so that a budget stops it between rounds,
and reports every refuted cube as it goes. A cube still open after SPLIT_CONFLICTS is
handed back split three cells deeper, and the next round shares the pieces out, so no
worker is left alone on one hard cube at the end. The checkpoint (JSON) holds the formula's
digest, the cube list and the refuted cubes; a later run with the same question
resumes where the last one stopped, and refuses a checkpoint of another formula.
A cube found satisfiable ends the proof with a counterexample grid, which the caller
checks with the independent scorer.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.model import hexagon
from puzzlelab.puzzles.hexagon.sat_encoding import HexEncoding
from puzzlelab.puzzles.hexagon.sat_solver import solve_in_rounds

__all__ = ["proof_formula", "split_cells", "enumerate_cubes", "guided_runs", "refute_cubes", "screen_cubes", "uncovered_pattern", "resplit_open", "prove_below", "Checkpoint", "CHECKPOINT_VERSION"]

CHECKPOINT_VERSION = 1
ROUND_CONFLICTS = 20_000  # per round of one cube's call: the budget is checked between rounds
SPLIT_CONFLICTS = 100_000  # a cube still open after this many conflicts is split deeper: the
# last cubes of n = 8 at level 3 took minutes each, one worker alone while the other idled
SCREEN_CONFLICTS = 20_000  # per cube and lower level: n = 9's open cubes at level 3 took
# minutes each, while 149 of the first 242 fell at level 1 within this many conflicts
REFUTE_METHODS = ("sat", "maxsat")  # how a cube is refuted: CaDiCaL, or a core-guided lower bound (maxsat.py)
GUIDED_FACTOR = 3  # each run takes 1/(factor x workers) of the cubes left: long runs first, short last


def proof_formula(n: int, level: int, bound: int, symmetry: str = "lex", encoding: str = "totalizer"):
    """(HexEncoding, clauses): the rule at `level`, symmetry breaking, and 'at most
    `bound` penalty edges' as a fixed cardinality constraint."""
    from pysat.card import CardEnc, EncType

    enc = HexEncoding(hexagon(n), top=level, symmetry=symmetry)
    card = CardEnc.atmost(enc.count_lits, bound=bound, top_id=enc.n_vars, encoding=getattr(EncType, encoding))
    return enc, enc.clauses + card.clauses


def formula_digest(clauses) -> str:
    """A short fingerprint of the clause list: a checkpoint only resumes its own formula."""
    h = hashlib.sha256()
    for clause in clauses:
        h.update((" ".join(map(str, clause)) + "\n").encode())
    return h.hexdigest()[:16]


def split_cells(n: int, depth: int | None = None) -> list[int]:
    """The cells the cubes decide, in order: centre first, then ring by ring outwards
    (all of them when depth is None; a pattern of length d decides the first d)."""
    g = hexagon(n)
    order = sorted(range(g.cells), key=lambda c: (-int(g.ring[c]), c))
    if depth is None:
        return order
    if not 1 <= depth <= g.cells:
        raise ValueError(f"depth: expected 1..{g.cells} cells, got {depth}")
    return order[:depth]


def check_method(what: str, method: str) -> None:
    """Refuse a refute method outside REFUTE_METHODS, naming the option (`what`)."""
    if method not in REFUTE_METHODS:
        raise ValueError(f"{what} method: expected one of {REFUTE_METHODS}, got {method!r}")


def _maxsat_bound(free: HexEncoding, order: list[int], pattern: str, bound: int, budget: Budget):
    """(least, exact, model) of maxsat.penalty_lower_bound for `free` (a formula with no
    cardinality bound) under the cube `pattern`, stopped once it passes `bound`."""
    from puzzlelab.puzzles.hexagon.maxsat import penalty_lower_bound

    return penalty_lower_bound(free, [[lit] for lit in _assumptions(free, order, pattern)], target=bound + 1, budget=budget)


def _assumptions(enc: HexEncoding, order: list[int], pattern: str) -> list[int]:
    return [enc.x(c, 1) if bit == "1" else -enc.x(c, 1) for c, bit in zip(order, pattern)]


def extend_cube(solver, enc: HexEncoding, order: list[int], pattern: str, depth: int) -> list[str]:
    """The extensions of `pattern` to `depth` cells that unit propagation does not
    refute (depth first, '1' before '0'); they cover every model of the pattern."""
    found: list[str] = []
    stack = [pattern]
    while stack:
        cube = stack.pop()
        ok, _ = solver.propagate(assumptions=_assumptions(enc, order, cube))
        if not ok:
            continue
        if len(cube) >= depth:
            found.append(cube)
            continue
        stack.append(cube + "0")  # popped second: '1' branches come first
        stack.append(cube + "1")
    return found


def enumerate_cubes(n: int, level: int, bound: int, depth: int, symmetry: str = "lex") -> list[str]:
    """Every pattern ('1' = holds a 1, '0' = does not, over the first `depth` cells of
    `split_cells`) that unit propagation does not refute."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    if not 1 <= depth <= len(order):
        raise ValueError(f"depth: expected 1..{len(order)} cells, got {depth}")
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return extend_cube(solver, enc, order, "", depth)


def refute_cubes(
    n: int,
    level: int,
    bound: int,
    symmetry: str,
    patterns: list[str],
    *,
    split_conflicts: int | None = None,
    split_extra: int = 3,
    method: str = "sat",
    budget: Budget | None = None,
    interim: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """One task: try the cubes in turn on one incremental solver. Returns the refuted
    patterns, the ones left open (budget over), a counterexample (pattern and level
    grid) if a cube is satisfiable, and `split`: a cube that took more than
    `split_conflicts` conflicts is handed back as its extensions by `split_extra` more
    cells (the task stops there, so the caller can share them among idle workers).
    Each refutation is also sent through `interim`. `method` "maxsat": each cube gets
    a core-guided lower bound on the same formula without its cardinality constraint
    (maxsat.penalty_lower_bound), run until it passes `bound` (refuted) or meets the
    cube's minimum (a counterexample); no splits."""
    from pysat.solvers import Solver

    budget = budget or Budget()
    check_method("cube", method)
    order = split_cells(n)
    out: dict[str, Any] = {"refuted": [], "open": [], "grid": None, "pattern": None, "split": {}, "conflicts": 0}
    if method == "maxsat":
        free = HexEncoding(hexagon(n), top=level, symmetry=symmetry)
        for i, pattern in enumerate(patterns):
            if budget.expired():
                out["open"] = patterns[i:]
                break
            t0 = time.perf_counter()
            least, exact, model = _maxsat_bound(free, order, pattern, bound, budget)
            if least <= bound:
                if exact and model is not None:
                    out["pattern"], out["grid"] = pattern, free.decode(model)
                    out["open"] = patterns[i + 1 :]
                else:  # the budget ran out
                    out["open"] = patterns[i:]
                break
            out["refuted"].append(pattern)
            if interim is not None:
                interim({"refuted": pattern, "seconds": round(time.perf_counter() - t0, 3)})
        return out
    enc, clauses = proof_formula(n, level, bound, symmetry)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:

        def conflicts() -> int:
            return int((solver.accum_stats() or {}).get("conflicts", 0))

        for i, pattern in enumerate(patterns):
            if budget.expired():
                out["open"] = patterns[i:]
                break
            t0, c0 = time.perf_counter(), conflicts()
            assumptions = _assumptions(enc, order, pattern)
            too_hard = False

            def stop() -> bool:
                nonlocal too_hard
                if budget.expired():
                    return True
                too_hard = split_conflicts is not None and conflicts() - c0 >= split_conflicts and len(pattern) + split_extra <= len(order)
                return too_hard

            answer = solve_in_rounds(solver, assumptions, stop, ROUND_CONFLICTS)
            if too_hard:
                out["split"][pattern] = extend_cube(solver, enc, order, pattern, len(pattern) + split_extra)
                out["open"] = patterns[i + 1 :]
                break
            if answer is None:
                out["open"] = patterns[i:]
                break
            if answer:
                out["pattern"], out["grid"] = pattern, enc.decode(solver.get_model())
                out["open"] = patterns[i + 1 :]
                break
            out["refuted"].append(pattern)
            if interim is not None:
                interim({"refuted": pattern, "seconds": round(time.perf_counter() - t0, 3)})
        out["conflicts"] = conflicts()
    return out


def screen_cubes(
    n: int,
    level: int,
    bound: int,
    patterns: list[str],
    *,
    conflicts: int = SCREEN_CONFLICTS,
    method: str = "sat",
    seconds: float | None = None,
    budget: Budget | None = None,
    interim: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """One task: refute cubes at a lower level than the proof's. The penalties charged
    at levels 1..`level` are part of a grid's total (the write-up's "Level by Level":
    most of them come from the 1s and 2s), so a cube in which every level-`level` grid
    has more than `bound` penalties holds no full grid within `bound` either. The
    formula has no symmetry breaking (the proof's lex-leader grids need not project to
    lex leaders). Each cube gets CaDiCaL with `conflicts` conflicts at most; with
    `method` "maxsat" a cube that this leaves unsettled gets a core-guided lower bound
    (maxsat.penalty_lower_bound), run until it exceeds `bound`, meets the cube's
    minimum or has run `seconds` (None: no cap). The cubes left open go on to the
    proof's own level. Returns the refuted and the open patterns."""
    from pysat.solvers import Solver

    budget = budget or Budget()
    check_method("screen", method)
    enc, clauses = proof_formula(n, level, bound, symmetry="none")
    order = split_cells(n)
    out: dict[str, Any] = {"refuted": [], "open": []}
    maxsat_refutes: Callable[[str], bool] | None = None
    if method == "maxsat":
        free = HexEncoding(hexagon(n), top=level, symmetry="none")  # no cardinality bound: RC2 counts

        def maxsat_refutes(pattern: str) -> bool:
            least, _, _ = _maxsat_bound(free, order, pattern, bound, budget if seconds is None else budget.sub(seconds))
            return least > bound

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for i, pattern in enumerate(patterns):
            if budget.expired():
                out["open"].extend(patterns[i:])
                break
            solver.conf_budget(conflicts)
            answer = solver.solve_limited(assumptions=_assumptions(enc, order, pattern))
            # satisfiable: a level grid within the bound, the cube stays open; not settled
            # within `conflicts`: the MaxSAT bound decides, when asked for
            if answer is False or (answer is None and maxsat_refutes is not None and maxsat_refutes(pattern)):
                out["refuted"].append(pattern)
                if interim is not None:
                    interim({"refuted": pattern})
            else:
                out["open"].append(pattern)
    return out


def guided_runs(cubes: list[str], workers: int) -> list[list[str]]:
    """Consecutive runs of cubes, each a 1/(GUIDED_FACTOR x workers) share of those
    left (OpenMP's 'guided' schedule): neighbouring cubes share what a solver learns,
    and the short runs at the end keep every worker busy until the last cube (n = 8 in
    even runs of 80 cubes: one worker spent its last 300 s alone on a hard run)."""
    runs, start = [], 0
    while start < len(cubes):
        size = max(1, -(-(len(cubes) - start) // (GUIDED_FACTOR * workers)))
        runs.append(cubes[start : start + size])
        start += size
    return runs


def _refute_task(n, level, bound, symmetry, patterns, split_conflicts, method, *, budget, interim):
    return refute_cubes(n, level, bound, symmetry, patterns, split_conflicts=split_conflicts, method=method, budget=budget, interim=interim)


def _screen_task(n, level, bound, patterns, conflicts, method, seconds, *, budget, interim):
    return screen_cubes(n, level, bound, patterns, conflicts=conflicts, method=method, seconds=seconds, budget=budget, interim=interim)


class Checkpoint:
    """The proof's state on disk: question, digest, cubes, refuted cubes, time spent, and
    the screening passes done, as [level, conflicts per cube] (0: a MaxSAT pass, then
    its cap in seconds per cube if it had one); a resumed run skips a pass that an
    earlier one at the same level covers."""

    def __init__(self, path: str | os.PathLike | None, question: dict[str, Any]):
        self.path = None if path is None else Path(path)
        self.question = question
        self.cubes: list[str] | None = None
        self.refuted: set[str] = set()
        self.seconds = 0.0
        self.screened: list[list[float]] = []
        if self.path is not None and self.path.exists():
            self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"checkpoint {self.path}: not a readable proof checkpoint ({exc})") from exc
        theirs = {k: data.get(k) for k in self.question}
        if data.get("version") != CHECKPOINT_VERSION or theirs != self.question:
            raise ValueError(f"checkpoint {self.path}: it belongs to another question {theirs}, not {self.question}")
        self.cubes = list(data["cubes"])
        self.refuted = set(data["refuted"]) & set(self.cubes)
        self.seconds = float(data.get("seconds", 0.0))
        self.screened = [[int(done[0]), int(done[1]), *map(float, done[2:])] for done in data.get("screened", [])]

    def save(self, spent: float = 0.0) -> None:
        """Write the state; `spent` = seconds of the run in progress, added to the total."""
        if self.path is None:
            return
        data = dict(self.question, version=CHECKPOINT_VERSION, seconds=round(self.seconds + spent, 1))
        data.update(cubes=self.cubes, refuted=sorted(self.refuted), screened=self.screened, proven=self.proven)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self.path)

    def split(self, parent: str, children: list[str]) -> None:
        """Replace a cube by its extensions (which cover it), in place."""
        if self.cubes is None or parent not in self.cubes or parent in self.refuted:
            return
        at = self.cubes.index(parent)
        self.cubes[at : at + 1] = children

    @property
    def proven(self) -> bool:
        return self.cubes is not None and len(self.refuted) == len(self.cubes)


def uncovered_pattern(n: int, level: int, bound: int, symmetry: str, cubes: list[str], conflicts: int = 1_000_000) -> str | None:
    """A check of a proof's bookkeeping, independent of how its cubes were made (enumerated,
    split, resplit, resumed): walk the tree of 1-patterns from the root; a node is covered
    when it is a cube, when plain unit propagation (MiniSat) of the proof formula refutes
    it, when both its children are covered, or, for a node outside every cube, when a
    CaDiCaL call (at most `conflicts`) finds it unsatisfiable. (The cubes were cut with
    CaDiCaL's propagation, which also uses clauses it learned on the way, so plain
    propagation misses a few of its cuts: n = 9, 29 nodes, each UNSAT in well under a
    second.) Returns the first uncovered pattern, or None when the cubes cover every
    model, so that refuting them all refutes the formula."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    leaves = set(cubes)
    prefixes = {c[:i] for c in leaves for i in range(len(c))}
    outside: list[str] = []
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        stack = [""]
        while stack:
            node = stack.pop()
            if node in leaves:
                continue
            ok, _ = solver.propagate(assumptions=_assumptions(enc, order, node))
            if not ok:
                continue
            if node in prefixes:
                stack.extend((node + "0", node + "1"))
            else:
                outside.append(node)
    if outside:
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for node in outside:
                solver.conf_budget(conflicts)
                if solver.solve_limited(assumptions=_assumptions(enc, order, node)) is not False:
                    return node
    return None


def resplit_open(state: "Checkpoint", n: int, level: int, bound: int, symmetry: str, extra: int) -> int:
    """Split every open cube `extra` cells deeper (its extensions that unit propagation
    keeps, which cover it), and forget the screening passes: the pieces have not been
    screened. Why: a cube left open by every screen holds lower-level grids within the
    bound, but most of its pieces do not (n = 9: 30 of the 36 pieces of the cube
    "centre 1, no other 1 among the 13 next cells" fell at level 1 in about 3 s each).
    Returns the number of cubes split."""
    from pysat.solvers import Solver

    enc, clauses = proof_formula(n, level, bound, symmetry)
    order = split_cells(n)
    todo = [c for c in state.cubes if c not in state.refuted and len(c) + extra <= len(order)]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for parent in todo:
            state.split(parent, extend_cube(solver, enc, order, parent, len(parent) + extra))
    if todo:
        state.screened = []
    return len(todo)


def prove_below(
    n: int,
    level: int,
    bound: int,
    *,
    depth: int = 14,
    symmetry: str = "lex",
    workers: int | None = None,
    budget: Budget | None = None,
    checkpoint: str | os.PathLike | None = None,
    backend: str = "local",
    address: str | None = None,
    split_conflicts: int | None = SPLIT_CONFLICTS,
    screen_levels: tuple[int, ...] = (),
    screen_conflicts: int = SCREEN_CONFLICTS,
    screen_method: str = "sat",
    cube_method: str = "sat",
    resplit: int = 0,
    resplit_rounds: int = 1,
    screen_seconds: float | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Try to prove 'no level-`level` grid has at most `bound` penalties' by cubes
    (a cube taking more than `split_conflicts` conflicts is split three cells deeper).
    First each of `screen_levels` (lower levels) gets a pass over the open cubes
    (`screen_cubes`, `screen_conflicts` per cube: a later run with more conflicts
    screens again what is left; `screen_method` "maxsat" bounds each cube exactly by
    core-guided MaxSAT instead); a finished pass is noted in the checkpoint as
    [level, conflicts], conflicts 0 for a MaxSAT pass (then its cap, if any: `covers`).
    `cube_method` "maxsat" refutes the cubes at `level` by MaxSAT bounds too.
    `resplit` > 0 first splits every open cube that many cells deeper (`resplit_open`)
    and screens the pieces, `resplit_rounds` times at most;
    `screen_seconds` caps each cube's MaxSAT bound in a screening pass.

    Returns a summary: proven (bool), cubes, refuted, open, screened (refuted by the
    lower levels in this run), counterexample (a level grid with at most `bound`
    penalties, unchecked: the caller verifies it), seconds (this run) and total_seconds
    (all runs of the checkpoint)."""
    from puzzlelab.core.parallel import Task, default_workers, run_tasks

    budget = budget or Budget()
    started = time.perf_counter()
    check_method("screen", screen_method)
    check_method("cube", cube_method)
    if bound < 0:  # a count is never negative: nothing to refute
        return {"n": n, "level": level, "bound": bound, "depth": depth, "cubes": 0, "refuted": 0, "open": 0, "screened": 0, "proven": True, "counterexample": None, "seconds": 0.0, "total_seconds": 0.0}
    _, clauses = proof_formula(n, level, bound, symmetry)
    question = {"n": n, "level": level, "bound": bound, "depth": depth, "symmetry": symmetry, "digest": formula_digest(clauses)}
    del clauses
    state = Checkpoint(checkpoint, question)
    if state.cubes is None:
        state.cubes = enumerate_cubes(n, level, bound, depth, symmetry)
        state.save()
    summary: dict[str, Any] = {"n": n, "level": level, "bound": bound, "depth": depth, "cubes": len(state.cubes), "counterexample": None}

    def report() -> None:
        summary.update(cubes=len(state.cubes), refuted=len(state.refuted), open=len(state.cubes) - len(state.refuted), proven=state.proven)
        summary["seconds"] = round(time.perf_counter() - started, 1)
        summary["total_seconds"] = round(state.seconds + summary["seconds"], 1)
        if progress is not None:
            progress(dict(summary))

    n_workers = max(1, workers or default_workers())
    last_save = [time.perf_counter()]

    def record(patterns) -> None:
        state.refuted.update(patterns)
        if time.perf_counter() - last_save[0] > 5.0:
            state.save(time.perf_counter() - started)
            last_save[0] = time.perf_counter()
        report()

    def on_interim(_index: int, value: Any) -> None:
        record([value["refuted"]])

    summary["screened"] = 0  # cubes the lower levels refuted in this run

    def covers(entry: list[float]) -> bool:
        """Whether a recorded pass did at least what this run asks of its level: a MaxSAT
        pass covers any CaDiCaL pass and a MaxSAT pass with no larger cap."""
        conflicts, cap = entry[1], (entry[2] if len(entry) > 2 else None)
        if conflicts != 0:
            return screen_method == "sat" and conflicts >= screen_conflicts
        return cap is None or (screen_method == "maxsat" and screen_seconds is not None and cap >= screen_seconds)

    def screen(screen_level: int) -> None:
        todo = [c for c in state.cubes if c not in state.refuted]
        before = len(state.refuted)
        runs = guided_runs(todo, n_workers)
        tasks = [Task(_screen_task, (n, screen_level, bound, run, screen_conflicts, screen_method, screen_seconds), name=f"screen {screen_level}.{i}", context=True) for i, run in enumerate(runs)]
        complete = True
        for outcome in run_tasks(tasks, workers=n_workers, budget=budget, grace=2.0, on_interim=on_interim if backend == "local" else None, backend=backend, address=address):
            value = outcome.value if outcome.ok and not outcome.interim else None
            if not isinstance(value, dict):
                complete = False
                continue
            record(value["refuted"])
        summary["screened"] += len(state.refuted) - before
        if complete and not budget.expired():
            if screen_method == "sat":
                state.screened.append([screen_level, screen_conflicts])
            else:  # a capped MaxSAT pass notes its cap
                state.screened.append([screen_level, 0] + ([] if screen_seconds is None else [screen_seconds]))

    report()
    try:
        if any(not 1 <= at < level for at in screen_levels):
            raise ValueError(f"screen levels must lie in 1..{level - 1}, got {screen_levels}")
        # With `resplit`: up to `resplit_rounds` rounds of "split the open cubes deeper,
        # screen the pieces" (n = 9's last cubes took seven such rounds by hand).
        for _ in range(max(1, resplit_rounds) if resplit else 1):
            if resplit:
                if state.proven or budget.expired() or not resplit_open(state, n, level, bound, symmetry, resplit):
                    break
                state.save(time.perf_counter() - started)
                report()
            for screen_level in screen_levels:
                done = any(screen_level == entry[0] and covers(entry) for entry in state.screened)
                if not done and not state.proven and not budget.expired():
                    screen(screen_level)
        # Rounds: a cube that proves hard comes back split, and the next round shares
        # its pieces among the workers; a round with no progress (budget over, workers
        # failing) ends the run.
        while not state.proven and summary["counterexample"] is None and not budget.expired():
            before = (len(state.refuted), len(state.cubes))
            todo = [c for c in state.cubes if c not in state.refuted]
            runs = guided_runs(todo, n_workers)
            tasks = [Task(_refute_task, (n, level, bound, symmetry, run, split_conflicts, cube_method), name=f"cubes {i}", context=True) for i, run in enumerate(runs)]
            for outcome in run_tasks(
                tasks,
                workers=n_workers,
                budget=budget,
                grace=2.0,
                stop_when=lambda o: bool(o.value and o.value.get("grid")),
                on_interim=on_interim if backend == "local" else None,
                backend=backend,
                address=address,
            ):
                value = outcome.value if outcome.ok and not outcome.interim else None
                if not isinstance(value, dict):
                    continue
                for parent, children in value["split"].items():
                    state.split(parent, children)
                record(value["refuted"])
                if value.get("grid") is not None and summary["counterexample"] is None:
                    summary["counterexample"] = {"pattern": value["pattern"], "grid": value["grid"]}
            if (len(state.refuted), len(state.cubes)) == before:
                break
    finally:
        state.save(time.perf_counter() - started)
    if state.proven:  # every cube refuted: check that the cubes cover every model
        gap = uncovered_pattern(n, level, bound, symmetry, state.cubes)
        if gap is not None:
            raise ValueError(f"checkpoint {checkpoint}: its cubes leave the pattern {gap} uncovered, so refuting them proves nothing")
        summary["cover_checked"] = True
    report()
    return summary
