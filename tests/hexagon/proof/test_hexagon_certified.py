"""Certified cube proofs (`prove --certified`, hexagon/proof/certify.py): the same verdicts as
trusted ones, a tampered certificate never yields "proven", the cover check through the
checker, the DRAT route (certify.PROOF_FORMAT "drat", checked forwards), and the CLI's
refusals."""

import json
import os

import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.parallel import start_method
from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.proof import certify
from puzzlelab.puzzles.hexagon.proof.cover import uncovered_pattern
from puzzlelab.puzzles.hexagon.proof.cube_and_conquer import prove_below
from puzzlelab.puzzles.hexagon.proof.cubes import enumerate_cubes
from puzzlelab.puzzles.hexagon.proof.prove import run_proof
from puzzlelab.puzzles.hexagon.proof.refute import refute_cubes
from puzzlelab.puzzles.hexagon.reference import level_table

runner = CliRunner()


@pytest.mark.parametrize("n", [3, 4, pytest.param(5, marks=pytest.mark.slow)])
def test_certified_proofs_give_the_trusted_verdicts(n):
    """Below the published level-3 minimum: proven, certified, with a proof of some
    bytes; at it: a counterexample, certified or not."""
    minimum = level_table()[n][2]
    for bound, proven in ((minimum - 1, True), (minimum, False)):
        trusted = prove_below(n, 3, bound, depth=7, workers=1)
        certified = prove_below(n, 3, bound, depth=7, workers=1, certified=True)
        assert trusted.proven == certified.proven == proven
        assert (trusted.counterexample is None) == (certified.counterexample is None) == proven
        assert certified.certified and certified.certificate_failure is None
        if proven:
            assert certified.cover_checked and certified.refuted == certified.cubes
            assert certified.proof_bytes > 0 and certified.check_seconds >= 0


def _fork_only():
    if start_method() != "fork":
        pytest.skip("the tampering reaches the workers through fork")


TAMPERS = [lambda proof: b"", lambda proof: proof[: len(proof) // 2] + b"\x00\xff", lambda proof: b"a\x02\x00" + proof]


@pytest.mark.parametrize("tamper", [TAMPERS[0], *(pytest.param(t, marks=pytest.mark.slow) for t in TAMPERS[1:])])
def test_a_tampered_certificate_is_never_declared_proven(monkeypatch, tamper):
    """Each check sees the proof emptied, cut and garbled, or led by the lemma (1): the
    cubes stay open, the run stops and says why, and the claim is not settled."""
    _fork_only()
    real = certify.ProofLog.proof
    monkeypatch.setattr(certify.ProofLog, "proof", lambda self: tamper(real(self)))
    bound = level_table()[5][2] - 1
    summary = prove_below(5, 3, bound, depth=7, workers=1, certified=True)
    assert not summary.proven and summary.certificate_failure and summary.refuted < summary.cubes
    report = run_proof(5, 147, level=3, depth=7, workers=1, certified=True)
    assert not report.settled and not report.proven and "certificate was refused" in report.message


def test_certified_cover_check_uses_the_checker():
    """With a refuted cube taken out of the list, CaDiCaL refutes it in the cover check and
    the checker confirms it; with CaDiCaL's proof withheld, a node that only CaDiCaL
    refuted (that one, or one its propagation cut) is named uncovered."""
    bound = level_table()[5][2] - 1
    cubes = enumerate_cubes(5, 3, bound, 7)
    assert uncovered_pattern(5, 3, bound, "lex", cubes, certified=True) is None
    missing = cubes[len(cubes) // 2]
    rest = [c for c in cubes if c != missing]
    assert uncovered_pattern(5, 3, bound, "lex", rest, certified=True) is None
    original = certify.ProofLog.proof
    try:
        certify.ProofLog.proof = lambda self: b""
        named = uncovered_pattern(5, 3, bound, "lex", rest, certified=True)
        assert named is not None and named not in rest
    finally:
        certify.ProofLog.proof = original


def test_maxsat_gives_no_certificate():
    with pytest.raises(ValueError, match="no certificate"):
        refute_cubes(4, 3, 2, "lex", ["1"], method="maxsat", certified=True)
    with pytest.raises(ValueError, match="no certificate"):
        prove_below(4, 3, 2, depth=7, workers=1, certified=True, screen_levels=(1,))


def test_prove_cli_certified(tmp_path):
    path = tmp_path / "c.json"
    result = runner.invoke(cli.app, ["hexagon", "prove", "4", "--certified", "--depth", "7", "--workers", "1", "--no-store", "--checkpoint", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["proven"] and data["certified"] and data["proof_bytes"] > 0 and data["certificate_failure"] is None
    saved = json.loads(path.read_text())
    assert saved["certified"] is True and set(saved["certificates"]) == set(saved["refuted"])
    assert data["certified_here"] == data["refuted"] == len(saved["refuted"]) and "earlier runs" not in data["message"]
    # Run again on the finished checkpoint: nothing is checked now, and the answer says so
    again = runner.invoke(cli.app, ["hexagon", "prove", "4", "--certified", "--depth", "7", "--workers", "1", "--no-store", "--checkpoint", str(path), "--json"])
    resumed = json.loads(again.stdout)
    assert again.exit_code == 0 and resumed["proven"] and resumed["certified_here"] == 0
    assert f"0 of the {resumed['refuted']} cubes were certified by this run" in resumed["message"] and str(path) in resumed["message"]
    trusted = runner.invoke(cli.app, ["hexagon", "prove", "4", "--method", "cubes", "--depth", "7", "--workers", "1", "--no-store", "--checkpoint", str(path)])
    assert trusted.exit_code == 2 and "certified proof's checkpoint" in trusted.output
    for option in (["--cube-method", "maxsat"], ["--screen-method", "maxsat"], ["--screen-levels", "1"], ["--resplit", "2"]):
        bad = runner.invoke(cli.app, ["hexagon", "prove", "4", "--certified", *option])
        assert bad.exit_code == 2 and f"error: {option[0][2:]}: not with --certified" in bad.output, (option, bad.output)


def test_one_solver_for_the_run_checked_piece_by_piece(monkeypatch):
    """Checked after every cube (CHUNK_SECONDS 0): the run keeps one solver, refutes the
    cubes the trusted run does, each with a certificate whose proof bytes add up to the
    proof read, and the proof file holds on disk only the bytes not yet read."""
    monkeypatch.setattr(certify, "CHUNK_SECONDS", 0.0)
    reads = []
    real = certify.ProofLog.proof

    def spy(self):
        fd = self.solver.solver.prfile.fileno()
        on_disk, unread = os.fstat(fd).st_blocks * 512, os.lseek(fd, 0, os.SEEK_CUR) - self.read
        reads.append((id(self.solver), on_disk, unread))
        return real(self)

    monkeypatch.setattr(certify.ProofLog, "proof", spy)
    bound = level_table()[5][2] - 1
    cubes = enumerate_cubes(5, 3, bound, 7)[:40]
    trusted = refute_cubes(5, 3, bound, "lex", cubes)
    out = refute_cubes(5, 3, bound, "lex", cubes, certified=True)
    assert out.certificate_failure is None and out.refuted == trusted.refuted == cubes
    assert set(out.certificates) == set(cubes) and len(reads) >= len(cubes) // 2
    assert len({solver for solver, _, _ in reads}) == 1
    total = sum(unread for _, _, unread in reads)
    assert sum(c[1] for c in out.certificates.values()) <= total
    written = [sum(unread for _, _, unread in reads[: i + 1]) for i in range(len(reads))]  # the proof's length at each read
    assert all(on_disk <= unread + 8192 for _, on_disk, unread in reads)  # a block or two of slack
    assert any(length > unread + 8192 for length, (_, _, unread) in zip(written, reads))  # so the file was cut


def test_the_drat_route_certifies_the_same_cubes(monkeypatch):
    """certify.PROOF_FORMAT "drat": CaDiCaL's binary DRAT, checked forwards by core.certificates.drat
    after every cube, certifies the cubes the trusted run refutes; a proof led by the
    lemma (1) is refused by that checker (its message) and certifies nothing."""
    monkeypatch.setattr(certify, "PROOF_FORMAT", "drat")
    monkeypatch.setattr(certify, "CHUNK_SECONDS", 0.0)
    bound = level_table()[5][2] - 1
    cubes = enumerate_cubes(5, 3, bound, 7)[:20]
    trusted = refute_cubes(5, 3, bound, "lex", cubes)
    out = refute_cubes(5, 3, bound, "lex", cubes, certified=True)
    assert out.certificate_failure is None and out.refuted == trusted.refuted == cubes
    assert set(out.certificates) == set(cubes) and all(c[1] > 0 for c in out.certificates.values())
    real = certify.ProofLog.proof
    monkeypatch.setattr(certify.ProofLog, "proof", lambda self: b"a\x02\x00" + real(self))
    forged = refute_cubes(5, 3, bound, "lex", cubes, certified=True)
    assert not forged.refuted and "neither RUP (RAT is not accepted here): [1]" in forged.certificate_failure



@pytest.mark.slow  # about 2 min on one core
def test_cubes_that_assume_a_variable_again_after_the_solver_dropped_it_are_certified(tmp_path):
    """n = 7 at level 4, certified: with CaDiCaL's variable elimination on, a solver's
    certificate named a clause it had deleted 500,000 steps before (eliminated with
    variable 201, restored unlogged when a later cube assumed it), and the checker
    rightly refused it at the 403rd cube, within 120 s of this run on one core
    (certify.NO_RESTORED_CLAUSES says why). Past that point no certificate is refused."""
    path = tmp_path / "n7.json"
    summary = prove_below(7, 4, 16, depth=14, workers=1, certified=True, checkpoint=path, budget=Budget(150))
    assert summary.certificate_failure is None and summary.counterexample is None
    assert summary.refuted > 403 or summary.proven
