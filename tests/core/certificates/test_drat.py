"""The DRAT checker (core/certificates/drat.py) on its own: hand-made proofs, CaDiCaL's proofs of
pigeonhole formulas, corrupted proofs refused, and the oracle that matters most: no
proof whatever is accepted for a formula that brute force shows satisfiable."""

import itertools
import random

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from puzzlelab.core.certificates.drat import check_drat, parse_text_drat

# x1, x2: all four clauses over two variables, the smallest unsatisfiable CNF of width 2
SQUARE = [[1, 2], [-1, 2], [1, -2], [-1, -2]]


def _satisfiable(clauses, nvars):
    """Brute force: some assignment of 1..nvars satisfies every clause."""
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            return True
    return False


def _cadical_proof(clauses):
    """(answer, binary DRAT proof) from CaDiCaL 1.9.5 through PySAT."""
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        answer = solver.solve()
        lines = solver.get_proof() if answer is False else []
    return answer, "".join(line + "\n" for line in lines)


def test_hand_made_proofs_of_the_square():
    assert check_drat(SQUARE, "1 0\n0\n").ok  # (1) is RUP, then the empty clause
    assert check_drat(SQUARE, "2 0\n").ok  # a unit that leaves propagation in conflict
    assert check_drat(SQUARE + [[1, 2, 3]], "c a comment\nd 1 2 3 0\n1 0\n0\n").ok  # a deletion that does not matter


def test_a_lemma_that_does_not_follow_is_refused_and_named():
    verdict = check_drat(SQUARE[:3], "1 0\n0\n")  # without (-1 -2) the empty clause does not follow
    assert not verdict.ok and "step 2" in verdict.message
    verdict = check_drat(SQUARE[:3], "-1 0\n")  # not RUP; its resolvent (-2) with (1 -2) is not RUP either
    assert not verdict.ok and "step 1" in verdict.message and "[-1]" in verdict.message


def test_a_proof_that_stops_short_is_refused():
    verdict = check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2, 3], [-3, 4]], "1 0\n")
    assert not verdict.ok and "empty clause" in verdict.message


def test_deletions_are_honoured():
    """Once (1 2) is deleted, (1) no longer follows, and the rest is satisfiable; (-2)
    still follows (a goal after the deletion)."""
    assert not check_drat(SQUARE, "d 1 2 0\n1 0\n0\n").ok
    assert check_drat(SQUARE, "d 1 2 0\n", goals=[(8, [-2])]).ok
    assert not check_drat(SQUARE, "d 1 2 0\n", goals=[(8, [1])]).ok
    assert check_drat(SQUARE, "d 1 2 0\n", goals=[(0, [1])]).ok  # before the deletion it did


def test_rat_lemmas_when_allowed_only():
    """(5) on a fresh variable is RAT (no clause holds -5), never RUP."""
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert check_drat(formula, "5 0\n1 0\n0\n").rat == 1
    refused = check_drat(formula, "5 0\n1 0\n0\n", rat=False)
    assert not refused.ok and "step 1" in refused.message


@pytest.mark.parametrize("holes", [3, 4, 5])
def test_cadicals_pigeonhole_proofs_check_and_a_missing_clause_breaks_them(holes):
    """PHP(holes + 1, holes): CaDiCaL's proof checks against the formula, and not
    against the formula with one at-most-one clause taken away (then satisfiable)."""
    clauses = PHP(holes).clauses
    answer, proof = _cadical_proof(clauses)
    assert answer is False
    assert check_drat(clauses, proof).ok
    assert not check_drat(clauses[:-1], proof).ok


def test_binary_proofs_and_malformed_bytes():
    clauses = PHP(4).clauses
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert solver.solve() is False
        solver.get_proof()  # flushes the file
        solver.solver.prfile.seek(0)
        data = solver.solver.prfile.read()
    assert check_drat(clauses, data).ok and check_drat(clauses, data, binary=True).ok
    assert not check_drat(clauses, data[: len(data) // 2 + 1], binary=True).ok  # cut inside a step, or short of the end
    assert "not binary DRAT" in check_drat(clauses, b"x" + data, binary=True).message
    assert not check_drat(clauses, b"", binary=True).ok


def test_corrupted_literals_are_caught():
    """Flip the sign of one literal in each of CaDiCaL's lemmas in turn: every proof so
    changed that the checker accepts still refutes the formula (checked by a sound
    route: the formula is UNSAT), and most changes are refused."""
    clauses = PHP(4).clauses
    _, proof = _cadical_proof(clauses)
    lines = proof.splitlines()
    refused = 0
    for i, line in enumerate(lines):
        tokens = line.split()
        if tokens[0] == "d" or tokens == ["0"]:
            continue
        tokens[0] = str(-int(tokens[0]))
        refused += not check_drat(clauses, "\n".join(lines[:i] + [" ".join(tokens)] + lines[i + 1 :]) + "\n").ok
    assert refused > 0


def test_a_wrong_lemma_that_a_goal_uses_is_refused_and_named():
    """PHP(5) under three assumption sets on one solver; the unit (1), which does not
    follow, is slipped in before the second goal, which holds through it alone: the
    check refuses the proof at that step, not at the goal."""
    import os

    clauses = PHP(5).clauses
    goals = []
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        for assumptions in ([1], [-1, 2], [-1, -2]):
            assert solver.solve(assumptions=assumptions) is False
            solver.get_proof()
            goals.append((os.fstat(solver.solver.prfile.fileno()).st_size, [-lit for lit in assumptions]))
        solver.solver.prfile.seek(0)
        data = solver.solver.prfile.read()
    forged = data[: goals[0][0]] + b"a\x02\x00" + data[goals[0][0] :]
    moved = goals[:1] + [(at + 3, clause) for at, clause in goals[1:]]
    before = check_drat(clauses, data[: goals[0][0]], binary=True, goals=goals[:1], rat=False)
    steps = before.lemmas + before.deletions  # the forged lemma is the next step
    verdict = check_drat(clauses, forged, binary=True, goals=moved, rat=False)
    assert not verdict.ok and f"step {steps + 1} " in verdict.message and "[1]" in verdict.message
    assert verdict.failed_goal is None


def test_a_wrong_lemma_never_used_is_refused_all_the_same():
    """Forwards every lemma is checked: a clause over two new variables (neither RUP
    nor, here, allowed as RAT) slipped into CaDiCaL's proof, deleted at once or kept to
    the end, is refused at its step though the refutation never uses it."""
    clauses = PHP(4).clauses
    _, proof = _cadical_proof(clauses)
    lines = proof.splitlines()
    assert check_drat(clauses, proof, rat=False).ok
    rng = random.Random(5)
    for at in sorted(rng.sample(range(len(lines)), 6)):
        for extra in (["101 102 0", "d 101 102 0"], ["101 102 0"]):
            verdict = check_drat(clauses, "\n".join(lines[:at] + extra + lines[at:]) + "\n", rat=False)
            assert not verdict.ok and f"step {at + 1} " in verdict.message and "[101, 102]" in verdict.message


@pytest.mark.parametrize("seed", range(40))
def test_no_proof_refutes_a_satisfiable_formula(seed):
    """Random 3-CNFs over 6 variables near the threshold: when brute force finds a model,
    random proofs (and CaDiCaL's proof of a neighbouring UNSAT formula) are refused;
    when it finds none, CaDiCaL's proof is accepted."""
    rng = random.Random(seed)
    clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, 7), 3)] for _ in range(28)]
    if _satisfiable(clauses, 6):
        for _ in range(20):
            junk = [[rng.choice((1, -1)) * rng.randint(1, 6) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(1, 12))]
            assert not check_drat(clauses, "".join(" ".join(map(str, c)) + " 0\n" for c in junk) + "0\n").ok
        unsat = clauses + [[v] for v in range(1, 7)] + [[-v for v in range(1, 7)]]
        _, proof = _cadical_proof(unsat)
        assert not check_drat(clauses, proof).ok
    else:
        answer, proof = _cadical_proof(clauses)
        assert answer is False and check_drat(clauses, proof).ok


def test_goals_follow_by_propagation_at_their_offset():
    """A goal holds when unit propagation refutes its negation at its offset; one that
    does not names itself."""
    proof = "1 0\n"
    assert check_drat(SQUARE, proof, goals=[(len(proof), [1])]).ok
    satisfiable = SQUARE[:3] + [[-1, -2, 3]]  # x1 = x2 = x3 = 1 only
    verdict = check_drat(satisfiable, proof, goals=[(0, [1]), (len(proof), [-3])])
    assert verdict.ok is False and verdict.failed_goal == 1
    assert check_drat(satisfiable, proof, goals=[(0, [-1])]).failed_goal == 0
    with pytest.raises(ValueError, match="ascending"):
        check_drat(SQUARE, "1 0\n2 0\n", goals=[(4, [1]), (0, [2])])


def test_an_incremental_run_under_assumptions_is_certified_goal_by_goal():
    """PHP(5) restricted by assumptions, three calls on one solver: each negated
    assumption set follows at the byte where its call ended; a wrong goal does not."""
    import os

    clauses = PHP(5).clauses
    goals = []
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        for assumptions in ([1], [-1, 2], [-1, -2]):
            assert solver.solve(assumptions=assumptions) is False
            solver.get_proof()  # flushes the file
            goals.append((os.fstat(solver.solver.prfile.fileno()).st_size, [-lit for lit in assumptions]))
        solver.solver.prfile.seek(0)
        data = solver.solver.prfile.read()
    assert check_drat(clauses, data, binary=True, goals=goals, rat=False).ok
    assert not check_drat(clauses, data, binary=True, goals=[(0, [-1])], rat=False).ok  # not before the proof


def test_text_parser_rejects_garbage():
    with pytest.raises(ValueError, match="integers"):
        parse_text_drat("1 x 0\n")
    with pytest.raises(ValueError, match="end with 0"):
        parse_text_drat("1 2\n")
    assert not check_drat(SQUARE, "1 2\n").ok
