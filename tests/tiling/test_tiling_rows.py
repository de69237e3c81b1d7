"""A219158 rows past 15 against their oracles: the pruned sweep of
`rows.py` equals the packed DP that keeps every state and the published table where
both exist; its upper bounds are never below the optimum; the shipped rows 16..20 are
re-verified on load and a corrupted one is refused; `table --out` resumes."""

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from puzzlelab import cli
from puzzlelab.core.puzzle import WrongAnswer
from puzzlelab.puzzles.tiling import a219158
from puzzlelab.puzzles.tiling.dp import ColumnDP
from puzzlelab.puzzles.tiling.reference import a219158_table
from puzzlelab.puzzles.tiling.rows import row_tilings, short_table, upper_bounds

runner = CliRunner()


def plain_row(m: int, width: int) -> list[int]:
    """T(m, 1..width) by the general step keeping every state (no pruning)."""
    dp = ColumnDP(np.ones((m, width), dtype=bool), record_flush=True, packed=False)
    dp.run()
    return [count for _, count in dp.flush]


def test_pruned_rows_match_the_plain_sweep_and_the_published_table():
    published = a219158_table()
    short = short_table(30)
    for m in (7, 10, 12):
        widths = list(range(1, 31))
        answers, stats = row_tilings(m, widths)
        plain = plain_row(m, 30)
        for n in widths:
            assert answers[n][0] == plain[n - 1] == short[min(m, 15), n], (m, n)
            if (min(m, n), max(m, n)) in published:
                assert answers[n][0] == published[(min(m, n), max(m, n))], (m, n)


def test_upper_bounds_never_below_the_optimum_and_often_on_it():
    short = short_table(60)
    for m in (11, 13, 15):
        upper = upper_bounds(m, 60)
        exact = short[m, 1:61]
        assert (upper[1:] >= exact).all(), m
        assert (upper[1:] == exact).mean() > 0.5, m  # tight enough to prune


@pytest.mark.slow
def test_row_16_pruned_equals_the_plain_sweep():
    answers, stats = row_tilings(16, list(range(1, 29)))
    plain = plain_row(16, 28)
    assert [answers[n][0] for n in range(1, 29)] == plain
    assert stats["peak_states"] < 149_630  # the plain sweep keeps all A242551(16) shapes


def test_shipped_rows_are_verified_on_load_and_cover_16_to_20():
    a219158.computed_rows.cache_clear()
    table = a219158.computed_rows()
    assert set(table) == {(m, n) for m in range(16, 21) for n in range(16, 101)}
    for m in range(16, 21):  # T(m, n) = T(n, m) inside the block
        for n in range(16, 21):
            assert table[(m, n)] == table[(n, m)]
    for m in range(16, 21):
        assert all(table[(m, n)] <= b for n, b in zip(range(16, 101), upper_bounds(m, 100)[16:]))
        assert table[(m, m)] == 1 and table[(m, 2 * m)] == 2
    fresh, _ = row_tilings(16, list(range(16, 31)))
    assert all(fresh[n][0] == table[(16, n)] for n in range(16, 31))


def test_a_corrupted_shipped_tiling_is_refused(monkeypatch):
    rows = a219158.read_tsv(a219158.PACKAGE, a219158.COMPUTED)
    bad = dict(rows[0])
    squares = a219158.parse_squares_text(bad["squares"])
    x, y, s = squares[-1]
    bad["squares"] = a219158.squares_text(squares[:-1] + [(x, y, s - 1)] if s > 1 else squares[:-1])
    monkeypatch.setattr(a219158, "read_tsv", lambda *a: [bad] + rows[1:])
    a219158.computed_rows.cache_clear()
    with pytest.raises(WrongAnswer):
        a219158.computed_rows()
    a219158.computed_rows.cache_clear()


def test_table_out_file_resumes(tmp_path: Path):
    out = tmp_path / "a219158.txt"
    first = runner.invoke(cli.app, ["tiling", "table", "--m", "16", "--n", "16..18", "--out", str(out), "--workers", "1"])
    assert first.exit_code == 0, first.output
    assert read_entries(out) == {(16, 16): 1, (16, 17): 8, (16, 18): 7}
    second = runner.invoke(cli.app, ["tiling", "table", "--m", "16..17", "--n", "16..18", "--out", str(out), "--workers", "1"])
    assert second.exit_code == 0, second.output
    text = out.read_text()
    assert text.count("\n16 16 1\n") + text.startswith("16 16 1\n") == 1  # not computed twice
    assert read_entries(out)[(17, 16)] == 8 and read_entries(out)[(17, 17)] == 1
    assert "17 18 8".split() in [line.split() for line in second.output.splitlines()]
    out.write_text(text + "16 x\n")
    bad = runner.invoke(cli.app, ["tiling", "table", "--m", "16", "--n", "16", "--out", str(out)])
    assert bad.exit_code == 2 and "--out" in bad.output and "Traceback" not in bad.output


def read_entries(path: Path) -> dict:
    return a219158.read_table_file(path)
