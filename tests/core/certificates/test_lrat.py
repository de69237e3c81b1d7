"""The LRAT checker (core/certificates/lrat.py): CaDiCaL's LRAT proofs of pigeonhole formulas check
and stop checking once a clause of the formula is gone; corrupted lemmas and hints are
refused, and what is accepted is also accepted by the DRAT checker (forward: every
lemma RUP) on the same lemmas, an independent route; no proof is accepted for a formula
that brute force shows satisfiable; goals of an incremental run under assumptions;
random byte cuts give the whole proof's verdict; a forged piece certifies nothing."""

import itertools
import os
import random
import tempfile

import numpy as np
import pysolvers  # PySAT's C extension
import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from puzzlelab.core.certificates.drat import check_drat
from puzzlelab.core.certificates.lrat import LratChecker, check_lrat
from puzzlelab.core.certificates.lrat_kernels import parse_binary_lrat, parse_text_lrat


def _lrat_solver(clauses, binary=False):
    """CaDiCaL 1.9.5 writing LRAT, text or binary (as hexagon/proof/certify.py makes it)."""
    solver = Solver(name="cadical195")
    backend = solver.solver
    backend.configure({"lrat": 1, "binary": int(binary)})
    backend.prfile = tempfile.TemporaryFile()
    backend.prfp = pysolvers.cadical195_tracepr(backend.cadical, backend.prfile)
    solver.append_formula(clauses)
    return solver


def _flushed(solver) -> bytes:
    pysolvers.flushpr(solver.solver.prfp)
    fd = solver.solver.prfile.fileno()
    return os.pread(fd, os.fstat(fd).st_size, 0)


def _proof(clauses, calls=(None,), binary=False):
    """(LRAT bytes, goals) of CaDiCaL's UNSAT calls under each assumption list."""
    goals = []
    solver = _lrat_solver(clauses, binary)
    try:
        for assumptions in calls:
            assert solver.solve(assumptions=assumptions or []) is False
            data = _flushed(solver)
            if assumptions:
                goals.append((len(data), [-lit for lit in assumptions]))
    finally:
        solver.delete()
    return data, goals


def _as_drat(clauses, lrat: bytes) -> str:
    """The same proof in text DRAT: each lemma's literals, each deletion by the literals of
    the clause its id names."""
    by_id = {i + 1: c for i, c in enumerate(clauses)}
    lines = []
    for line in lrat.decode().splitlines():
        tokens = line.split()
        if tokens[1] == "d":
            lines += ["d " + " ".join(map(str, by_id.pop(int(i)))) + " 0" for i in tokens[2:-1] if int(i) in by_id]
            continue
        numbers = [int(t) for t in tokens]
        lemma = numbers[1 : numbers.index(0, 1)]
        by_id[numbers[0]] = lemma
        lines.append(" ".join(map(str, lemma + [0])))
    return "".join(line + "\n" for line in lines)


def _satisfiable(clauses, nvars):
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            return True
    return False


@pytest.mark.parametrize("holes", [3, 4, 5, 6])
def test_cadicals_lrat_proofs_check_and_a_missing_clause_breaks_them(holes):
    clauses = PHP(holes).clauses
    data, _ = _proof(clauses)
    verdict = check_lrat(clauses, data)
    assert verdict.ok and verdict.checked == verdict.lemmas > 0
    assert check_drat(clauses, _as_drat(clauses, data)).ok
    for gone in (0, len(clauses) - 1):  # the ids shift, or the last clause is missing
        assert not check_lrat(clauses[:gone] + clauses[gone + 1 :], data).ok


@pytest.mark.parametrize("holes", [3, 5, 6])
def test_binary_lrat_parses_to_the_text_proofs_steps(holes):
    """CaDiCaL's binary LRAT of the same run (it is deterministic) parses to the same
    steps as its text LRAT, so the text corpus covers the checks after parsing; the
    binary proof checks, a missing clause or a cut breaks it."""
    clauses = PHP(holes).clauses
    text, _ = _proof(clauses)
    data, _ = _proof(clauses, binary=True)
    a = parse_text_lrat(np.frombuffer(text, dtype=np.uint8), True)
    b = parse_binary_lrat(np.frombuffer(data, dtype=np.uint8), True)
    assert a[0] == b[0] == 0 and len(data) < len(text)
    for i in (1, 3, 4, 5, 6, 7, 10):  # all but the ids (a text deletion repeats the last one) and the byte offsets
        assert np.array_equal(a[i], b[i]), i
    assert np.array_equal(a[2][a[1] == 0], b[2][b[1] == 0])
    assert check_lrat(clauses, data, binary=True).ok
    assert not check_lrat(clauses[:-1], data, binary=True).ok
    assert "not binary LRAT" in check_lrat(clauses, data[:-1], binary=True).message
    assert not check_lrat(clauses, b"x" + data, binary=True).ok


def test_corrupted_lemmas_and_hints_are_refused_or_sound():
    """Each lemma of PHP(4)'s proof in turn: a literal's sign flipped, its last hint
    dropped, a hint replaced by an id that names no clause. Whatever is accepted is
    accepted forward by the DRAT checker (every lemma RUP); most changes are refused;
    an unknown id always is."""
    clauses = PHP(4).clauses
    data, _ = _proof(clauses)
    lines = data.decode().splitlines()
    refused = 0
    for i, line in enumerate(lines):
        numbers = line.split()
        if numbers[1] == "d":
            continue
        zero = numbers.index("0", 1)
        changes = []
        if zero > 1:
            changes.append(numbers[:1] + [str(-int(numbers[1]))] + numbers[2:])
        if len(numbers) - zero > 2:
            changes.append(numbers[:-2] + ["0"])
            changes.append(numbers[: zero + 1] + ["999999"] + numbers[zero + 2 :])
        for k, changed in enumerate(changes):
            proof = "\n".join(lines[:i] + [" ".join(changed)] + lines[i + 1 :]) + "\n"
            verdict = check_lrat(clauses, proof)
            refused += not verdict.ok
            if verdict.ok:
                assert check_drat(clauses, _as_drat(clauses, proof.encode())).ok
            if "999999" in changed:
                assert not verdict.ok and f"step {i + 1} " in verdict.message and "never added: [999999]" in verdict.message
    assert refused > 0


def test_a_hint_to_a_deleted_clause_is_refused_and_named():
    """The lemma (1) follows from clauses 1 and 3, but not once clause 1 is deleted: a
    solver that uses a clause after logging its deletion (hexagon/proof/certify.py) is refused,
    with the hint named."""
    clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert check_lrat(clauses, "5 1 0 1 3 0\n", goals=[(12, [1])]).ok
    verdict = check_lrat(clauses, "4 d 1 0\n5 1 0 1 3 0\n")
    assert not verdict.ok and "step 2 " in verdict.message and "deleted or never added: [1]" in verdict.message


def test_malformed_and_out_of_order_proofs_are_refused():
    clauses = PHP(3).clauses
    data, _ = _proof(clauses)
    for bad in (b"x" + data, data[:-2], data.replace(b" 0\n", b"\n", 1), b"5 1 0 1 0\n"):
        assert not check_lrat(clauses, bad).ok
    first = data.split(b"\n")[0] + b"\n"
    assert "not above" in check_lrat(clauses, first + first).message  # the same id twice
    assert "beyond the formula" in check_lrat(clauses, b"30 5000000 0 1 0\n").message


@pytest.mark.parametrize("seed", range(30))
def test_no_lrat_proof_refutes_a_satisfiable_formula(seed):
    """Random 3-CNFs over 6 variables: for a satisfiable one, CaDiCaL's proof of a
    neighbouring UNSAT formula and random hinted junk are refused; for an unsatisfiable
    one, CaDiCaL's proof is accepted."""
    rng = random.Random(seed)
    clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, 7), 3)] for _ in range(28)]
    if _satisfiable(clauses, 6):
        data, _ = _proof(clauses + [[v] for v in range(1, 7)] + [[-v for v in range(1, 7)]])
        assert not check_lrat(clauses, data).ok
        for _ in range(10):
            lines, next_id = [], len(clauses) + 1
            for _ in range(rng.randint(1, 6)):
                lemma = [rng.choice((1, -1)) * rng.randint(1, 6) for _ in range(rng.randint(0, 2))]
                hints = [rng.randint(1, next_id - 1) for _ in range(rng.randint(1, 6))]
                lines.append(" ".join(map(str, [next_id, *lemma, 0, *hints, 0])))
                next_id += 1
            assert not check_lrat(clauses, "\n".join(lines) + "\n").ok
    else:
        data, _ = _proof(clauses)
        assert check_lrat(clauses, data).ok


@pytest.mark.parametrize("binary", [False, True])
def test_goals_of_an_incremental_run_and_cuts(binary):
    """PHP(5) under four assumption sets on one solver: every goal follows at its byte;
    a goal before its call does not; random cuts give the same verdicts and certify no
    goal ahead of its bytes."""
    clauses = PHP(5).clauses
    data, goals = _proof(clauses, ([1], [-1, 2], [-1, -2, 3], [-1, -2, -3]), binary)
    assert check_lrat(clauses, data, goals=goals, binary=binary).ok
    assert check_lrat(clauses, data, goals=[(0, [-1])], binary=binary).failed_goal == 0
    rng = random.Random(2)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(data)), rng.randint(0, 9)))
        checker, given = LratChecker(clauses, binary=binary), 0
        for a, b in zip([0, *cuts], [*cuts, len(data)]):
            upto = sum(1 for at, _ in goals if at <= b)
            progress = checker.feed(data[a:b], goals[given:upto], final=b == len(data))
            given = upto
            assert progress.error is None and all(at <= b for at, _ in goals[: progress.goals])
        assert checker.verdict().ok and progress.goals == len(goals)


@pytest.mark.parametrize("binary", [False, True])
def test_a_forged_piece_is_refused_and_certifies_nothing_after_it(binary):
    """Between two honest pieces, a lemma with no valid hints (the unit (1), id 9000) or
    garbage: refused, with the step named, and no later goal certified."""
    clauses = PHP(5).clauses
    data, goals = _proof(clauses, ([1], [-1, 2], [-1, -2]), binary)
    lemma = b"a\xd0\x8c\x01\x02\x00\x02\x00" if binary else b"9000 1 0 1 0\n"  # 18000 = 2 x 9000 as a varint
    for forged, said in ((lemma, "step"), (b"\x00\xff\n", "LRAT")):
        checker = LratChecker(clauses, binary=binary)
        first = checker.feed(data[: goals[0][0]], goals[:1])
        assert first.goals == 1 and first.error is None
        shifted = [(at + len(forged), clause) for at, clause in goals[1:]]
        after = checker.feed(forged + data[goals[0][0] :], shifted, final=True)
        assert after.error is not None and said in after.error and after.goals == 1
        assert not checker.verdict().ok
