"""The Puzzle contract on a toy puzzle: options, loading, solve-then-verify."""

import json

import pytest

from puzzlelab.core.puzzle import InvalidInstance, Option, WrongAnswer, parse_range
from puzzlelab.core.result import Verdict
from support.toy_puzzle import Toy


class Doubtful(Toy):
    """A toy whose checker checks the coins but cannot check that they are the fewest
    (as a count checker that cannot recount): `value_shift` makes it recompute another
    value than the solver claims."""

    def __init__(self, value_shift=0, **kwargs):
        super().__init__(**kwargs)
        self.value_shift = value_shift

    def verify(self, instance, solution):
        verdict = super().verify(instance, solution)
        if not verdict.ok:
            return verdict
        return Verdict(False, verdict.value + self.value_shift, "coins add up", unchecked="that no fewer coins reach the target")


def test_solve_is_verified_and_timed():
    toy = Toy()
    result = toy.solve(toy.load("small"))
    assert result.value == 2 and sorted(result.solution) == [5, 6]
    assert result.verified and result.verdict.value == 2 and result.stats["seconds"] >= 0


def test_methods_agree_with_the_exact_one_or_do_worse():
    toy = Toy()
    for target in range(1, 40):
        instance = ((1, 5, 6, 9), target)
        exact = toy.solve(instance, "dp")
        greedy = toy.solve(instance, "greedy")
        assert greedy.verified and greedy.value >= exact.value


def test_a_wrong_answer_never_leaves_solve():
    toy = Toy(with_liar=True)
    with pytest.raises(WrongAnswer, match="rejected"):
        toy.solve(toy.load("small"), "liar")


def test_an_unchecked_verdict_is_attached_not_raised_and_never_verified():
    toy = Doubtful()
    result = toy.solve(toy.load("small"))
    assert result.value == 2 and not result.verified
    assert result.verdict.word == "UNCHECKED" and "fewer coins" in result.verdict.unchecked
    assert toy.report(toy.load("small"), result)["verified"] is False
    # a value the checker recomputes differently is a rejection, unchecked parts or not
    with pytest.raises(WrongAnswer, match="checker counts 3"):
        Doubtful(value_shift=1).solve(Doubtful().load("small"))
    # a false claim still raises, whatever else was left unchecked
    with pytest.raises(WrongAnswer, match="rejected"):
        Doubtful(with_liar=True).solve(Doubtful().load("small"), "liar")


def test_unknown_method_and_options_are_named():
    toy = Toy()
    with pytest.raises(InvalidInstance, match="no method 'nope'; expected one of dp, greedy"):
        toy.solve(toy.load("small"), "nope")
    with pytest.raises(InvalidInstance, match=r"--ring.*its options: --slow"):
        toy.solve(toy.load("small"), "dp", ring=3)
    with pytest.raises(InvalidInstance, match="--slow: expected a number"):
        toy.solve(toy.load("small"), "dp", slow="fast")


def test_option_coercion():
    ints = Option("allow_at", "ints", (), "x", minimum=0)
    assert ints.coerce("4,5, 7") == (4, 5, 7) and ints.coerce([1, 2]) == (1, 2)
    with pytest.raises(InvalidInstance, match="--allow-at: expected at least 0"):
        ints.coerce("-1")
    flag = Option("roam", "bool", False)
    assert flag.coerce("yes") is True and flag.coerce(False) is False
    with pytest.raises(InvalidInstance, match="--roam: expected true or false"):
        flag.coerce("maybe")
    assert Option("width", "int", 5, choices=(5, 10)).coerce("10") == 10
    with pytest.raises(InvalidInstance, match="one of 5, 10"):
        Option("width", "int", 5, choices=(5, 10)).coerce(7)
    with pytest.raises(InvalidInstance):
        Option("width", "int").coerce(2.5)


def test_load_from_catalog_file_text_and_errors(tmp_path):
    toy = Toy()
    f = tmp_path / "inst.json"
    f.write_text(json.dumps({"coins": [2, 3], "target": 7}))
    assert toy.load(str(f)) == ((2, 3), 7)
    assert toy.load("7 2 3") == ((2, 3), 7)
    assert toy.load({"coins": [1], "target": 2}) == ((1,), 2)
    with pytest.raises(InvalidInstance, match="not a catalog name or file.*catalog names include small"):
        toy.load("banana")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidInstance, match="not valid JSON"):
        toy.load(str(bad))


def test_infeasible_result_is_not_verified_but_not_an_error():
    toy = Toy()
    result = toy.solve(((4, 6), 7), "dp")
    assert result.status.value == "infeasible" and not result.verified


def test_parse_range():
    assert parse_range("1..4") == [1, 2, 3, 4]
    assert parse_range("1,3,7..9") == [1, 3, 7, 8, 9]
    with pytest.raises(InvalidInstance, match="--n|n: expected a number or a range"):
        parse_range("1...3", "n")


@pytest.mark.parametrize("seed", [-1, 2**31, 2**64, True, "x", 1.5])
def test_a_seed_out_of_every_methods_range_is_a_named_error(seed):
    """CP-SAT takes a 32-bit seed and numpy no negative one: every method takes 0..2**31-1."""
    toy = Toy()
    with pytest.raises(InvalidInstance, match="seed: expected"):
        toy.solve(toy.load("small"), seed=seed)
    assert toy.solve(toy.load("small"), seed=2**31 - 1).verdict.ok
