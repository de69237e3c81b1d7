"""Hostile input for the coins puzzle, beyond the rules every puzzle follows
(tests/test_contract_hostile.py): a Verdict that says valid is confirmed by a replay
written here (sharing no code with the checker), on any JSON or text and on played
games with one hostile edit; any text as a BFS start; the own verbs (bfs, animate,
batch) answer clean errors; memory options never exceed the memory available; a work
folder that is not the search's own, or a forged state in it, is refused and left as
it is."""

from __future__ import annotations

import json
import tempfile

import click.testing
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab import cli
from puzzlelab.core.errors import InvalidInstance
from puzzlelab.core.inputs import decode_bytes
from puzzlelab.puzzles.coins import PUZZLE, memory, model
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.two_bit_bfs import TwoBitRun
from support.hostile_strategies import json_values
from support.rules import assert_clean_cli, assert_cli_refuses, assert_one_line_verdict, instance_or_refusal
from support.text_strategies import ALPHABET, text

# The click command typer builds, built once (typer's runner rebuilds it on every
# call: 0.28 s against 0.05 s).
COMMAND = typer.main.get_command(cli.app)
fast = click.testing.CliRunner()

# ------------------------------------------------------------------ starts


@given(text(60))
@settings(max_examples=200, deadline=None)
def test_arbitrary_text_as_a_bfs_start(spec):
    got = instance_or_refusal(lambda: model.parse_start(spec))
    assert isinstance(got, (model.Start, InvalidInstance))


# ------------------------------------------------------------------ solutions


def replay(instance: model.Instance, moves) -> bool:
    """The rule, plainly: a coin lifts and lands on an empty cell of the board that
    touches at least two other coins; the last board is the target, in place."""
    if not isinstance(moves, list):
        return False
    w, h = instance.width, instance.height
    board = {(x, y) for y in range(h) for x in range(w) if instance.start >> (y * w + x) & 1}
    for move in moves:
        if not (isinstance(move, list) and len(move) == 4 and all(type(v) is int for v in move)):
            return False
        x1, y1, x2, y2 = move
        if (x1, y1) not in board or not (0 <= x2 < w and 0 <= y2 < h) or (x2, y2) in board:
            return False
        board.remove((x1, y1))
        if sum((x2 + dx, y2 + dy) in board for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))) < 2:
            return False
        board.add((x2, y2))
    return board == {(x, y) for y in range(h) for x in range(w) if instance.target >> (y * w + x) & 1}


def _legal_moves(board: set, w: int, h: int) -> list[list[int]]:
    out = []
    for x1, y1 in sorted(board):
        rest = board - {(x1, y1)}
        for y2 in range(h):
            for x2 in range(w):
                if (x2, y2) not in board and sum((x2 + dx, y2 + dy) in rest for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))) >= 2:
                    out.append([x1, y1, x2, y2])
    return out


START = ["oo-", "o--", "---"]


@st.composite
def played_games(draw):
    """(instance, moves): random legal moves from START on 3 x 3 (the target is where
    they end, so the moves solve it), then maybe one hostile edit."""
    w = h = 3
    board = {(x, y) for y, row in enumerate(START) for x, c in enumerate(row) if c == "o"}
    moves = []
    for _ in range(draw(st.integers(0, 5))):
        legal = _legal_moves(board, w, h)
        if not legal:
            break
        move = draw(st.sampled_from(legal))
        moves.append(move)
        board = (board - {(move[0], move[1])}) | {(move[2], move[3])}
    target = ["".join("o" if (x, y) in board else "-" for x in range(w)) for y in range(h)]
    instance = PUZZLE.parse({"start": START, "target": target})
    edit = draw(st.sampled_from(["none", "coordinate", "huge", "repeat", "drop", "swap", "type", "extra"]))
    if moves and edit == "coordinate":
        i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, 3))
        moves[i] = list(moves[i])
        moves[i][j] = draw(st.integers(-2, 4))
    elif moves and edit == "huge":
        moves[draw(st.integers(0, len(moves) - 1))] = [10**29, -(10**29), 2**63, 0]
    elif moves and edit == "repeat":
        i = draw(st.integers(0, len(moves) - 1))
        moves.insert(i, list(moves[i]))
    elif moves and edit == "drop":
        moves.pop(draw(st.integers(0, len(moves) - 1)))
    elif len(moves) > 1 and edit == "swap":
        moves[0], moves[1] = moves[1], moves[0]
    elif moves and edit == "type":
        moves[0] = draw(st.sampled_from([[1.0, 0, 1, 1], [True, 0, 1, 1], ["0", 0, 1, 1], [0, 0, 1], None, {"x": 1}]))
    elif edit == "extra":
        moves.append(draw(st.lists(st.integers(-1, 3), min_size=4, max_size=4)))
    return instance, moves


@given(played_games())
@settings(max_examples=300, deadline=None)
def test_well_formed_but_wrong_solutions_get_the_replay_verdict(game):
    instance, moves = game
    verdict = PUZZLE.verify(instance, json.loads(json.dumps(moves)))
    assert_one_line_verdict(verdict)
    assert verdict.ok == replay(instance, moves), verdict.message
    if verdict.ok:
        assert verdict.value == len(moves)


@given(st.one_of(json_values(("start", "target", "font", "width", "height", "moves", "solution", "x")), text(80), st.binary(max_size=80).map(lambda b: b.decode("latin-1"))))
@settings(max_examples=300, deadline=None)
def test_arbitrary_json_or_text_as_a_solution(solution):
    instance = PUZZLE.parse("font5x7:O-C")
    verdict = PUZZLE.verify(instance, solution)
    assert_one_line_verdict(verdict)
    if verdict.ok:
        moves = json.loads(solution) if isinstance(solution, str) else solution
        assert replay(instance, moves if not isinstance(moves, dict) else moves.get("moves", moves.get("solution")))


def test_deep_and_huge_solution_text_is_an_invalid_verdict():
    instance = PUZZLE.parse("font5x7:O-C")
    for text_ in ("[" * 100_000 + "]" * 100_000, "[[" + "9" * 5000 + ", 0, 1, 1]]", "[[NaN, 0, 1, 1]]", "not json"):
        verdict = PUZZLE.verify(instance, text_)
        assert not verdict.ok and "solution" in verdict.message
    assert "off any board" in PUZZLE.verify(instance, [[2**70, 0, 1, 1]]).message


# ------------------------------------------------------------------ the command line


@given(st.text(alphabet=ALPHABET.replace("\x00", ""), max_size=30) | st.text(alphabet="o-/", max_size=20))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cli_bfs_on_arbitrary_starts(spec):
    with tempfile.TemporaryDirectory() as folder:
        args = ["coins", "bfs", spec or "x", "--targets", spec or "x", "--budget", "0", "--no-store", "--workdir", folder + "/run", "--max-memory-gb", "0.01"]
        assert_clean_cli(fast.invoke(COMMAND, args), usage_mistake_ok=True)  # a start like "-0" is taken for an option


@pytest.mark.parametrize(
    "args, words",
    [
        (["coins", "bfs", "{bin}"], "not UTF-8"),
        (["coins", "bfs", "font5x7:A", "--max-memory-gb", "nan"], "finite number"),
        (["coins", "bfs", "font5x7:A", "--max-memory-gb", "1e300"], "at most"),
        (["coins", "bfs", "font5x7:A", "--workdir", "{bin}"], "is a file"),
        (["coins", "solve", "font5x7:A-B", "--method", "bfs", "--workdir", "{bin}"], "is a file"),
        (["coins", "solve", "font5x9:A-B", "--dedup", "bits", "--memory-mb", "99999999999999999999"], "two-bit array needs"),
        (["coins", "solve", "font5x7:A-²"], "no glyph"),
        (["coins", "verify", "font5x7:O-C", "{bin}"], "not UTF-8"),
        (["coins", "animate", "font5x7:O-C", "--solution", "{bin}"], "not UTF-8"),
        (["coins", "animate", "font5x7:O-C", "--solution", "{deep}"], "nested"),
        (["coins", "animate", "font5x7:O-C", "--html", "{folder}"], "is a folder"),
        (["coins", "animate", "font5x7:O-C", "--svg", "{folder}/no/such/x.svg"], "does not exist"),
        (["coins", "batch", "--font", "font5x7", "--workdir", "{bin}"], "is a file"),
        (["coins", "batch", "--font", "font5x7", "--workers", "999999", "--method", "bidir"], "available"),
    ],
)
def test_cli_regressions_are_clear_errors(tmp_path, args, words):
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00\x80binary")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    args = [a.format(bin=tmp_path / "bin.dat", deep=tmp_path / "deep.json", folder=tmp_path) for a in args]
    assert_cli_refuses(fast.invoke(COMMAND, args), words)


# ------------------------------------------------------------------ memory and folders


def test_memory_options_never_exceed_the_memory_available(monkeypatch, tmp_path):
    monkeypatch.setattr(memory, "memory_available", lambda: 300 * 10**6)  # 300 MB here
    # bfs: 5 x 7 needs 1.0 GB; asking for 1000 GB does not lift the machine's limit
    with pytest.raises(InvalidInstance) as info:
        LevelArrayRun(model.parse_start("font5x7:A"), tmp_path / "run", max_memory_bytes=10**12)
    assert info.value.status == 413 and "memory available here (0.3 GB)" in str(info.value)
    assert not (tmp_path / "run").exists()
    # bidir with bits: 52 MB of two bits a board, more than half of 300 MB? no: it runs;
    # with 100 MB here it is refused up front, whatever --memory-mb says
    monkeypatch.setattr(memory, "memory_available", lambda: 100 * 2**20)
    with pytest.raises(InvalidInstance) as info:
        PUZZLE.solve(PUZZLE.parse("font5x7:O-C"), "bidir", budget=10, dedup="bits", memory_mb=10**9)
    assert info.value.status == 413 and "834,451,800 boards" in str(info.value) and "--dedup hash" in str(info.value)
    result = PUZZLE.solve(PUZZLE.parse("font5x7:O-C"), "bidir", budget=30, memory_mb=10**9)
    assert result.verified and result.value == 3 and result.stats["dedup"] == "hash"


@pytest.mark.parametrize("engine", [LevelArrayRun, TwoBitRun])
def test_a_forged_bfs_state_is_refused_not_believed(tmp_path, engine):
    """state.json summarises the array or the level files; a resumed run checks it against
    them. A forged `finished` after level 4 used to end the search there, and an
    unreachable target was then reported unreachable on a fifth of the boards."""
    start = model.Start(4, 4, model.rows_to_mask(["---o", "o---", "-o-o", "o-o-"], "start")[2])  # 21 levels
    folder = tmp_path / "run"
    run = engine(start, folder)
    truth = run.run(stop_when_found=False)
    run.close()
    good = json.loads((folder / "state.json").read_text())
    assert truth.finished and good["counts"] == truth.levels and len(truth.levels) == 21
    counts = good["counts"]
    forgeries = {
        "counts": [["x"] + counts[1:], [True] + counts[1:], [2] + counts[1:], [], counts[:3] + [0] + counts[4:], counts[:-1] + [1.5], "many"],
        "finished": ["no", 1, None],
        "history": [5, [1, 2]],
    }
    cases = [{key: value} for key, values in forgeries.items() for value in values]
    cases += [{"counts": counts[:5], "finished": True}, {"counts": counts[:-1] + [counts[-1] + 1]}]
    if engine is LevelArrayRun:  # its array holds every level: one counted short of it is refused
        cases.append({"counts": counts[:5], "finished": False})
    for forged in cases:
        text = json.dumps({**good, **forged})
        (folder / "state.json").write_text(text)
        with pytest.raises(InvalidInstance) as info:
            again = engine(start, folder)
            try:
                again.run(stop_when_found=False)
            finally:
                again.close()
        message = str(info.value)
        refused = "damaged" in message or "its state.json is not a checkpoint" in message
        assert info.value.field == "workdir" and refused and "\n" not in message, (forged, message)
        assert (folder / "state.json").read_text() == text
    if engine is TwoBitRun:  # its level files past the counted ones are grown again, the same
        (folder / "state.json").write_text(json.dumps({**good, "counts": counts[:5], "finished": False}))
        again = engine(start, folder)
        regrown = again.run(stop_when_found=False)
        again.close()
        assert regrown.finished and regrown.levels == truth.levels
    (folder / "state.json").write_text(json.dumps(good))  # the true state: resumed, and confirmed finished
    again = engine(start, folder)
    resumed = again.run(stop_when_found=False)
    again.close()
    assert again.resumed and resumed.finished and resumed.levels == truth.levels
    assert json.loads((folder / "state.json").read_text()) == good


def test_a_work_folder_that_is_not_a_bfs_checkpoint_is_left_alone(tmp_path):
    start = model.Start(3, 3, model.rows_to_mask(START, "start")[2])
    folder = tmp_path / "mine"
    folder.mkdir()
    for content in (b"\xff\x00binary", b"not json", b'{"format": 99}', b"[1, 2]"):
        (folder / "state.json").write_bytes(content)
        with pytest.raises(InvalidInstance) as info:
            LevelArrayRun(start, folder)
        assert "not a checkpoint of a coins bfs run" in str(info.value)
        assert (folder / "state.json").read_bytes() == content and not (folder / "levels.u8").exists()
    (folder / "state.json").unlink()
    run = LevelArrayRun(start, folder)  # an empty folder is fine, and so is its own checkpoint after
    run.run(stop_when_found=False)
    run.close()
    again = LevelArrayRun(start, folder)
    assert again.resumed
    again.close()


def test_bfs_keeps_its_files_where_only_the_operator_says_and_bidir_writes_none():
    """bfs writes its levels to a work folder (and keeps them with --keep): both only
    from the command line. bidir writes no file: every option of it is a client's."""
    assert [o.name for o in PUZZLE.method("bfs").options if o.local_only] == ["workdir", "keep"]
    assert not any(o.local_only for o in PUZZLE.method("bidir").options)


def test_standard_input_that_is_not_text_is_a_clear_error():
    assert_cli_refuses(fast.invoke(COMMAND, ["coins", "bfs", "-"], input=b"\xff\xfe\x00"), "standard input")
    with pytest.raises(InvalidInstance):
        decode_bytes(b"\xff", "x")
