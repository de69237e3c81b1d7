"""One board per orbit in `bfs` (bfs/symmetry.py): the stabilizers of shipped glyphs, the
orbit helpers against images computed plainly, and level arrays that store canonical
boards only against the plain-Python BFS (conftest oracle), which knows nothing of
symmetry: every level's count, the paths rebuilt, push and pull."""

import itertools
import json

import numpy as np
import pytest

from puzzlelab.puzzles.coins import PUZZLE, model
from puzzlelab.puzzles.coins.bfs.byte_bfs import LevelArrayRun
from puzzlelab.puzzles.coins.bfs.byte_kernels import IMAGE, fixed_boards
from puzzlelab.puzzles.coins.bfs.symmetry import board_symmetries, canonical, orbit_size, stabilizer


def plain_image(board: int, width: int, height: int, image) -> int:
    out = 0
    for y in range(height):
        for x in range(width):
            if board >> (y * width + x) & 1:
                ix, iy = image(x, y)
                out |= 1 << (iy * width + ix)
    return out


PLAIN = {
    "mirror-x": lambda w, h: lambda x, y: (w - 1 - x, y),
    "mirror-y": lambda w, h: lambda x, y: (x, h - 1 - y),
    "half-turn": lambda w, h: lambda x, y: (w - 1 - x, h - 1 - y),
    "transpose": lambda w, h: lambda x, y: (y, x),
    "anti-transpose": lambda w, h: lambda x, y: (w - 1 - y, h - 1 - x),
    "quarter-turn": lambda w, h: lambda x, y: (w - 1 - y, x),
    "three-quarter-turn": lambda w, h: lambda x, y: (y, h - 1 - x),
}


def test_shipped_glyph_stabilizers_match_their_pictures():
    for font in ("font5x7", "font5x9"):
        spec = model.fonts()[font]
        w, h = spec["width"], spec["height"]
        for glyph in spec["order"]:
            rows = model.mask_to_rows(model.glyph_mask(font, glyph), w, h)
            expected = [
                name
                for name, same in (
                    ("mirror-x", [r[::-1] for r in rows] == rows),
                    ("mirror-y", rows[::-1] == rows),
                    ("half-turn", [r[::-1] for r in rows[::-1]] == rows),
                )
                if same
            ]
            assert stabilizer(model.glyph_mask(font, glyph), w, h)[0] == expected, (font, glyph)
    assert stabilizer(model.glyph_mask("font5x7", "A"), 5, 7)[0] == ["mirror-x"]
    assert len(stabilizer(model.glyph_mask("font5x7", "O"), 5, 7)[0]) == 3


@pytest.mark.parametrize("width, height", [(5, 7), (4, 4), (3, 6)])
def test_canonical_and_orbit_size_equal_the_plain_orbit(width, height):
    symmetries = dict(board_symmetries(width, height))
    assert len(symmetries) == (7 if width == height else 3)
    groups = [["mirror-x"], ["mirror-y"], ["half-turn"], ["mirror-x", "mirror-y", "half-turn"]]
    if width == height:
        groups += [["transpose"], ["half-turn", "transpose", "anti-transpose"], list(symmetries)]
    rng = np.random.default_rng(width * height)
    cells = width * height
    for _ in range(300):
        board = int(sum(1 << int(c) for c in rng.choice(cells, size=int(rng.integers(1, cells)), replace=False)))
        for group in groups:
            orbit = {board} | {plain_image(board, width, height, PLAIN[name](width, height)) for name in group}
            perms = np.array([symmetries[name] for name in group], dtype=np.int64)
            assert int(canonical(np.uint64(board), perms)) == min(orbit)
            assert orbit_size(np.uint64(board), perms) == len(orbit)


@pytest.mark.parametrize("width, height, coins", [(4, 4, 6), (4, 4, 8), (3, 5, 5), (5, 4, 7)])
def test_fixed_boards_are_every_board_some_symmetry_fixes(width, height, coins):
    """Brute force over every board: those with an orbit smaller than the group."""
    symmetries = dict(board_symmetries(width, height))
    perms = np.array(list(symmetries.values()), dtype=np.int64)
    cells = width * height
    boards = [sum(1 << c for c in chosen) for chosen in itertools.combinations(range(cells), coins)]
    expected = sorted(b for b in boards if orbit_size(np.uint64(b), perms) < len(perms) + 1)
    assert fixed_boards(perms, cells, coins).tolist() == expected and expected


SYMMETRIC_STARTS = [
    (4, 4, ["o--o", "-oo-", "-oo-", "o--o"]),  # all eight symmetries of the square
    (4, 4, ["oo--", "o---", "---o", "--oo"]),  # the half turn and both transposes
    (4, 5, ["----", "o--o", "-oo-", "o--o", "----"]),  # both mirrors and the half turn
    (5, 4, ["o---o", "-o-o-", "o---o", "-----"]),  # one mirror
]


@pytest.mark.parametrize("width, height, rows", SYMMETRIC_STARTS)
def test_one_board_per_orbit_gives_the_oracle_levels_and_paths(tmp_path, oracle, width, height, rows):
    start = model.rows_to_mask(rows, "start")[2]
    distances = oracle.bfs(start, width, height)
    level_counts = np.bincount(list(distances.values())).tolist()
    for mode in ("push", "pull"):
        run = LevelArrayRun(model.Start(width, height, start), tmp_path / mode)
        assert run.symmetries == stabilizer(start, width, height)[0] and run.symmetries
        outcome = run.run(stop_when_found=False, mode=mode)
        assert outcome.finished and outcome.levels == level_counts, mode
        held = run.levels[: run.total]
        stored = int(np.count_nonzero((held != 0) & (held != IMAGE)))
        assert stored < sum(level_counts)  # fewer boards stored than reached
        for level in range(1, len(level_counts)):
            assert run.kernels.count(level + 1) == level_counts[level]
        assert run.kernels.level_counts(len(level_counts)) == level_counts  # the resume check's fast recount
        for target in list(distances)[:: max(1, len(distances) // 40)]:
            moves = run.moves(target)
            assert len(moves) == distances[target]
            assert PUZZLE.verify(model.Instance(width, height, start, target), moves).ok
        run.close()
    partial = LevelArrayRun(model.Start(width, height, start), tmp_path / "partial")
    assert partial.run(stop_when_found=False, max_level=3).levels == level_counts[:4]
    assert partial.kernels.level_counts(6) == level_counts[:4] + [0, 0]
    partial.close()
    state = json.loads((tmp_path / "push" / "state.json").read_text())
    assert state["symmetry"] == stabilizer(start, width, height)[0]
    # an array of orbits is not resumed as an array of every board
    plain = LevelArrayRun(model.Start(width, height, start), tmp_path / "push", symmetry=False)
    assert not plain.resumed and plain.symmetries == []
    assert plain.run(stop_when_found=False).levels == level_counts
    plain.close()
