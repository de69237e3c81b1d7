"""The incremental DRAT checker (core/certificates/drat.py DratChecker): fed a proof in random cuts
(at any byte, inside steps and literals), it reaches check_drat's verdict on the whole
proof, over the same corpus as test_drat.py (hand-made proofs, CaDiCaL's pigeonhole
proofs, corrupted ones, random formulas against brute force); a forged piece is
refused; goals that fall across cuts wait for their steps; deleted clauses leave the
store; and the bytes PySAT's CaDiCaL has flushed end at a whole step."""

import itertools
import os
import random

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from puzzlelab.core.certificates import drat
from puzzlelab.core.certificates.drat import DratChecker, check_drat

SQUARE = [[1, 2], [-1, 2], [1, -2], [-1, -2]]


def _flushed(solver) -> bytes:
    """The bytes of the solver's binary proof so far, after PySAT flushes CaDiCaL's FILE."""
    import pysolvers  # PySAT's C extension

    pysolvers.flushpr(solver.solver.prfp)
    fd = solver.solver.prfile.fileno()
    return os.pread(fd, os.fstat(fd).st_size, 0)


def _binary_proof(clauses, calls=(None,)):
    """(binary DRAT bytes, goals) of CaDiCaL's UNSAT calls under each assumption list in
    `calls` (None: no assumptions, no goal), on one solver."""
    goals = []
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        for assumptions in calls:
            assert solver.solve(assumptions=assumptions or []) is False
            data = _flushed(solver)
            if assumptions:
                goals.append((len(data), [-lit for lit in assumptions]))
    return data, goals


def _text_proof(clauses):
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        answer = solver.solve()
        lines = solver.get_proof() if answer is False else []
    return "".join(line + "\n" for line in lines)


def _in_cuts(clauses, proof, rng, *, binary, goals=(), rat=True):
    """The incremental checker fed `proof` in random pieces, each goal handed over with
    a random piece no later than the one its offset falls in (the last piece: final);
    returns its verdict, and checks on the way that no goal is certified ahead of its
    bytes."""
    data = proof.encode() if isinstance(proof, str) else proof
    n = len(data)
    cuts = sorted(rng.sample(range(1, n), min(n - 1, rng.randint(0, 11)))) if n > 1 else []
    bounds = [0, *cuts, n]
    slices, drat.SLICE_STEPS = drat.SLICE_STEPS, rng.choice((3, drat.SLICE_STEPS))  # the kernel called on a few steps at a time, too
    try:
        checker = DratChecker(clauses, binary=binary, rat=rat)
        given = 0
        for a, b in zip(bounds, bounds[1:]):
            last = b == n
            must = len(goals) if last else sum(1 for at, _ in goals if at < b)
            upto = rng.randint(max(given, must), len(goals))
            progress = checker.feed(data[a:b], goals[given:upto], final=last)
            given = upto
            assert progress.refuted or all(at <= b for at, _ in goals[: progress.goals])
        return checker.verdict()
    finally:
        drat.SLICE_STEPS = slices


def _same(clauses, proof, rng, *, binary=None, goals=(), rat=True, rounds=6):
    """Random cuts give the one-shot verdict: ok, the failed goal, and the message
    (a malformed piece may be met before an earlier piece's bad lemma: then both refuse)."""
    whole = check_drat(clauses, proof, binary=binary, goals=goals, rat=rat)
    binary = not isinstance(proof, str) and (binary if binary is not None else True)
    for _ in range(rounds):
        cut = _in_cuts(clauses, proof, rng, binary=binary, goals=list(goals), rat=rat)
        assert cut.ok == whole.ok, (cut.message, whole.message)
        if "DRAT (" not in whole.message and "DRAT (" not in cut.message:
            assert (cut.message, cut.failed_goal) == (whole.message, whole.failed_goal)
    return whole


def test_hand_made_proofs_in_cuts():
    rng = random.Random(1)
    for clauses, proof, goals in [
        (SQUARE, "1 0\n0\n", ()),
        (SQUARE, "2 0\n", ()),
        (SQUARE + [[1, 2, 3]], "c a comment\nd 1 2 3 0\n1 0\n0\n", ()),
        (SQUARE[:3], "1 0\n0\n", ()),
        (SQUARE[:3], "-1 0\n", ()),
        (SQUARE, "d 1 2 0\n1 0\n0\n", ()),
        (SQUARE, "d 1 2 0\n", [(8, [-2])]),
        (SQUARE, "d 1 2 0\n", [(8, [1])]),
        (SQUARE, "d 1 2 0\n", [(0, [1])]),
        (SQUARE, "5 0\n1 0\n0\n", ()),
        (SQUARE, "1 0 -1 0\n2 0\n", [(0, [1, 2]), (3, [1]), (12, [])]),
        (SQUARE[:3] + [[-1, -2, 3]], "1 0\n", [(0, [1]), (4, [-3])]),
        (SQUARE, "1 2\n", ()),
        (SQUARE, "1 x 0\n", ()),
    ]:
        for rat in (True, False):
            _same(clauses, proof, rng, goals=goals, rat=rat, rounds=10)


@pytest.mark.parametrize("holes", [3, 4, 5])
def test_cadicals_pigeonhole_proofs_in_cuts(holes):
    rng = random.Random(holes)
    clauses = PHP(holes).clauses
    data, _ = _binary_proof(clauses)
    assert _same(clauses, data, rng).ok and not _same(clauses[:-1], data, rng).ok
    text = _text_proof(clauses)
    assert _same(clauses, text, rng).ok and not _same(clauses[:-1], text, rng).ok


def test_corrupted_proofs_in_cuts():
    """Every sign flip of a lemma's first literal, and bytes cut, dropped or garbled:
    the cut check agrees with the whole one each time."""
    rng = random.Random(7)
    clauses = PHP(4).clauses
    lines = _text_proof(clauses).splitlines()
    for i, line in enumerate(lines):
        tokens = line.split()
        if tokens[0] == "d" or tokens == ["0"]:
            continue
        tokens[0] = str(-int(tokens[0]))
        _same(clauses, "\n".join(lines[:i] + [" ".join(tokens)] + lines[i + 1 :]) + "\n", rng, rounds=2)
    data, _ = _binary_proof(clauses)
    for _ in range(30):
        at = rng.randrange(len(data))
        for bad in (data[:at], data[:at] + data[at + 1 :], data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]):
            _same(clauses, bad, rng, binary=True, rounds=2)


def _satisfiable(clauses, nvars):
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            return True
    return False


@pytest.mark.parametrize("seed", range(20))
def test_random_formulas_in_cuts(seed):
    """Random 3-CNFs over 6 variables: for a satisfiable one (brute force) no proof is
    accepted, whole or in cuts; for an unsatisfiable one CaDiCaL's is, both ways."""
    rng = random.Random(seed)
    clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, 7), 3)] for _ in range(28)]
    if _satisfiable(clauses, 6):
        for _ in range(5):
            junk = [[rng.choice((1, -1)) * rng.randint(1, 6) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(1, 12))]
            assert not _same(clauses, "".join(" ".join(map(str, c)) + " 0\n" for c in junk) + "0\n", rng, rounds=2).ok
        data, _ = _binary_proof(clauses + [[v] for v in range(1, 7)] + [[-v for v in range(1, 7)]])
        assert not _same(clauses, data, rng, binary=True).ok
    else:
        data, _ = _binary_proof(clauses)
        assert _same(clauses, data, rng, binary=True).ok


def test_goals_across_cuts_wait_for_their_steps():
    """PHP(5) under three assumption sets on one solver: the goals check in random cuts;
    a goal whose steps are cut short is not certified until the rest arrives."""
    rng = random.Random(3)
    clauses = PHP(5).clauses
    data, goals = _binary_proof(clauses, ([1], [-1, 2], [-1, -2]))
    assert _same(clauses, data, rng, binary=True, goals=goals, rat=False, rounds=20).ok
    checker = DratChecker(clauses, binary=True, rat=False)
    half = checker.feed(data[: goals[1][0] - 1], goals)  # the step before the second goal is cut
    assert half.error is None and half.goals == 1 and half.held_back > 0
    rest = checker.feed(data[goals[1][0] - 1 :], final=True)
    assert rest.error is None and rest.goals == 3 and rest.held_back == 0
    with pytest.raises(ValueError, match="ended"):
        checker.feed(b"")
    late = DratChecker(clauses, binary=True)
    late.feed(data)
    with pytest.raises(ValueError, match="before a step already checked"):
        late.feed(b"", [(1, [1])])


def test_a_forged_piece_is_refused_and_certifies_nothing_after_it():
    """Between two honest pieces, a lemma that does not follow ('a 1 0': the unit (1))
    or garbage: refused, with the step named, and no later goal is certified."""
    clauses = PHP(5).clauses
    data, goals = _binary_proof(clauses, ([1], [-1, 2], [-1, -2]))
    for forged, said in ((b"a\x02\x00", "step"), (b"\x00\xff", "not binary DRAT")):
        checker = DratChecker(clauses, binary=True, rat=False)
        first = checker.feed(data[: goals[0][0]], goals[:1])
        assert first.goals == 1 and first.error is None
        shifted = [(at + len(forged), clause) for at, clause in goals[1:]]
        after = checker.feed(forged + data[goals[0][0] :], shifted, final=True)
        assert after.error is not None and said in after.error and after.goals == 1
        assert not checker.verdict().ok


def test_deleted_clauses_leave_the_store():
    """A long run of CaDiCaL on PHP(8) fed in 2 KB pieces: the store is compacted, stays
    far below the number of lemmas, and the verdict is the whole proof's (which is
    itself checked in slices of drat.SLICE_STEPS steps, compacted between them)."""
    clauses = PHP(8).clauses
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        solver.conf_budget(30_000)
        solver.solve_limited()
        data = _flushed(solver)
    whole = check_drat(clauses, data, binary=True)
    checker = DratChecker(clauses, binary=True)
    peak = 0
    for at in range(0, len(data), 2048):
        checker.feed(data[at : at + 2048])
        peak = max(peak, len(checker.store.start))
    checker.feed(b"", final=True)
    cut = checker.verdict()
    assert (cut.ok, cut.message, cut.lemmas, cut.deletions) == (whole.ok, whole.message, whole.lemmas, whole.deletions)
    assert checker.store.compactions > 0 and peak < (len(clauses) + cut.lemmas) / 2, (peak, cut.lemmas)


def test_what_pysat_flushes_ends_at_a_whole_step():
    """After each UNSAT call, the bytes on disk once PySAT flushes CaDiCaL's proof FILE
    end at a step boundary (nothing held back), and the goal checks on those bytes
    alone: the certificate of a call is on disk when the call returns."""
    clauses = PHP(6).clauses
    checker = DratChecker(clauses, binary=True, rat=False)
    fed = 0
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        for k, assumptions in enumerate(([1], [-1, 2], [-1, -2, 3], [-1, -2, -3])):
            assert solver.solve(assumptions=assumptions) is False
            data = _flushed(solver)
            progress = checker.feed(data[fed:], [(len(data), [-lit for lit in assumptions])])
            fed = len(data)
            assert progress.error is None and progress.held_back == 0 and progress.goals == k + 1
