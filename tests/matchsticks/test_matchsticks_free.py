"""Free placement (`free.py`): each step of the span argument checked against brute force,
and its conclusion (the free optimum equals the optimum inside the largest square)
against exhaustive searches that know nothing of the argument: every placement in a box
three times the largest square's side, and every connected configuration grown from the
largest square with no box at all."""

import itertools
import random

import pytest
from matchsticks_oracles import published_rows

from puzzlelab.core.result import Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.free import column_lines_floor, free_span, span_floors
from puzzlelab.puzzles.matchsticks.model import MAX_AREA, Instance
from puzzlelab.puzzles.matchsticks.search import make_descriptor, run_search
from puzzlelab.puzzles.matchsticks.tables import offset_roots, prefix_ids, roots_of, search_area, space_key, tables_for, tables_of
from puzzlelab.puzzles.matchsticks.verify import count_matches

ROWS = published_rows()


def _masks(side: int) -> dict[int, list[tuple[tuple[int, int, int], int]]]:
    """Every placement of every size in a box of `side` units, with its segments as bits."""

    def h(x, y):
        return 1 << (y * side + x)

    def v(x, y):
        return 1 << ((side + 1) * side + x * side + y)

    out = {}
    for t in range(1, side + 1):
        out[t] = []
        for y, x in itertools.product(range(side - t + 1), repeat=2):
            bits = 0
            for i in range(t):
                bits |= h(x + i, y) | h(x + i, y + t) | v(x, y + i) | v(x + t, y + i)
            out[t].append(((t, x, y), bits))
    return out


def _box_minimum(n: int, margin: int, below: int) -> int | None:
    """The fewest matches below `below` over every placement of sizes 1..n - 1 anywhere
    in a box reaching `margin` past the largest square on every side (None: none)."""
    places = _masks(n + 2 * margin)
    largest = next(bits for (t, x, y), bits in places[n] if x == y == margin)
    best = [below]

    def descend(t, union):
        if t == 0:
            best[0] = min(best[0], union.bit_count())
            return
        for _, bits in places[t]:
            joined = union | bits
            if joined.bit_count() < best[0]:
                descend(t - 1, joined)

    descend(n - 1, largest)
    return None if best[0] == below else best[0]


def _connected(n: int, below: int) -> list[list[tuple[int, int, int]]]:
    """Every connected configuration of fewer than `below` matches, grown from the largest
    square one square at a time, each sharing a segment with those before (any order of
    the sizes): no box is assumed, the one used is wider than any growth can reach."""
    reach = n * (n - 1) // 2
    places = _masks(n + 2 * reach)
    largest = next(bits for (t, x, y), bits in places[n] if x == y == reach)
    seen, found = set(), []

    def grow(left, union, chosen):
        if not left:
            found.append([(n, 0, 0)] + [(t, x - reach, y - reach) for t, x, y in chosen])
            return
        for t in left:
            for square, bits in places[t]:
                key = chosen | {square}
                if bits & union and (union | bits).bit_count() < below and key not in seen:
                    seen.add(key)
                    grow(left - {t}, union | bits, key)

    grow(frozenset(range(1, n)), largest, frozenset())
    return found


def _extent(squares) -> tuple[int, int]:
    xs = [x for _, x, _ in squares] + [x + s for s, x, _ in squares]
    ys = [y for _, _, y in squares] + [y + s for s, _, y in squares]
    return max(xs) - min(xs), max(ys) - min(ys)


def test_column_lines_floor_is_the_fewest_points_with_k_distances():
    for k in range(1, 11):
        fewest = next(m for m in range(2, 7) if any(len({b - a for a, b in itertools.combinations(p, 2)}) >= k for p in itertools.combinations(range(12), m)))
        assert column_lines_floor(k) == fewest, k


def test_span_floors_bound_every_connected_arrangement_of_intervals():
    for n in range(2, 5):
        floors, reach = span_floors(n), n * (n - 1) // 2
        for starts in itertools.product(range(-reach, n + reach), repeat=n - 1):
            intervals = [(0, n)] + [(x, x + t) for t, x in zip(range(1, n), starts)]
            cover = {}
            for a, b in intervals:
                for c in range(a, b):
                    cover[c] = cover.get(c, 0) + 1
            width = max(cover) - min(cover) + 1
            if len(cover) == width:  # one interval of columns: a connected configuration's x-ranges
                assert 0 <= floors[width] <= sum(column_lines_floor(k) for k in cover.values()), (n, starts)


def test_every_connected_configuration_pays_its_span_floors():
    for n in range(2, 5):
        configurations = _connected(n, ROWS[n]["best_known"] + 5)
        assert configurations
        floors = span_floors(n)
        for squares in configurations:
            width, height = _extent(squares)
            assert count_matches(squares) >= floors[width] + floors[height], squares
    rng = random.Random(7)
    for n in range(5, 9):
        floors = span_floors(n)
        for _ in range(300):
            squares = [(n, 0, 0)]
            for t in range(n - 1, 0, -1):  # each square on a line of one before it, overlapping it
                s, x, y = rng.choice(squares)
                line = rng.choice([y, y + s])
                squares.append((t, rng.randint(x - t + 1, x + s - 1), rng.choice([line, line - t])))
            width, height = _extent(squares)
            assert len(_components(squares)) == 1
            assert count_matches(squares) >= floors[width] + floors[height], squares


def _components(squares) -> list[list[int]]:
    """The squares' components: joined when they share a unit segment."""
    from puzzlelab.puzzles.matchsticks.model import Square
    from puzzlelab.puzzles.matchsticks.verify import segments_of

    sides = [segments_of(Square(*s)) for s in squares]
    left, found = set(range(len(squares))), []
    while left:
        todo = [min(left)]
        part = set(todo)
        while todo:
            i = todo.pop()
            for j in list(left - part):
                if sides[i] & sides[j]:
                    part.add(j)
                    todo.append(j)
        left -= part
        found.append(sorted(part))
    return found


def test_joining_a_component_to_the_largest_square_never_costs():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(3, 8)
        squares = [(n, 0, 0)] + [(t, rng.randint(-2 * n, 2 * n), rng.randint(-2 * n, 2 * n)) for t in range(n - 1, 0, -1)]
        parts = _components(squares)
        for part in parts:
            if 0 in part:
                continue
            _, x0, y0 = squares[part[0]]  # the component moved so that this corner is the largest square's
            moved = list(squares)
            for i in part:
                moved[i] = (squares[i][0], squares[i][1] - x0, squares[i][2] - y0)
            assert count_matches(moved) < count_matches(squares)
            assert len(_components(moved)) < len(parts)


def test_offset_roots_meet_every_offset_under_the_areas_symmetries():
    for n, span in [(5, 0), (5, 3), (7, 6), (4, 9)]:
        roam = (span + 1) // 2
        roots = {(x + roam, y + roam) for [[_, x, y]] in offset_roots(n, roam, span)}
        for ox, oy in itertools.product(range(span + 1), repeat=2):
            images = set()
            for a, b in [(ox, oy), (oy, ox)]:
                images |= {(a, b), (span - a, b), (a, span - b), (span - a, span - b)}
            assert images & roots, (n, span, ox, oy)


def test_free_optimum_is_the_optimum_of_every_placement_in_a_box_three_times_as_wide():
    for n in range(1, 5):
        value = ROWS[n]["best_known"]
        assert _box_minimum(n, n, value + 1) == value
        assert _box_minimum(n, n, value) is None  # nothing below it, squares anywhere in the box
        result = PUZZLE.solve(Instance(n), "free", budget=120)
        assert result.status == Status.OPTIMAL and result.verified and result.value == value


def _check_connected_optimum(n: int) -> None:
    value = ROWS[n]["best_known"]
    assert _connected(n, value) == []
    assert min(count_matches(c) for c in _connected(n, value + 1)) == value
    assert PUZZLE.solve(Instance(n), "free", budget=120).value == value


def test_free_optimum_is_the_optimum_of_every_connected_configuration():
    for n in range(2, 5):
        _check_connected_optimum(n)


@pytest.mark.slow
def test_free_optimum_of_5_is_the_optimum_of_every_connected_configuration():
    _check_connected_optimum(5)  # about 15 s of Python


def test_free_search_finds_the_optimum_when_allowed_to():
    # Searched below the optimum + 1, the offset search must find the optimum itself
    # (its answer recounted by the checker once moved to the largest square's frame).
    # The area is n + span whatever the roam, which only moves the coordinates.
    for n in range(4, 10):
        value = ROWS[n]["best_known"]
        span = free_span(n, value + 1)
        for roam in sorted({span // 2, (span + 1) // 2}):
            outcome = run_search(make_descriptor(n, roam=roam, bound=value + 1, free_span=span))
            assert outcome.complete and outcome.best == value, (n, roam)
            assert count_matches(outcome.solution) == value


def test_method_free_proves_n_up_to_10():
    spans = []
    for n in range(1, 11):
        result = PUZZLE.solve(Instance(n), "free", budget=300)
        assert result.status == Status.OPTIMAL and result.verified, n
        assert result.value == ROWS[n]["best_known"], n
        assert result.stats["assumption"].startswith("none"), n
        spans.append(result.stats["free_span"])
    assert spans == [0, 0, 0, 2, 2, 4, 6, 8, 9, 12]


def test_span_outgrows_the_area_past_20():
    assert 20 + free_span(20, ROWS[20]["best_known"]) <= MAX_AREA
    assert 21 + free_span(21, ROWS[21]["best_known"]) > MAX_AREA


def test_an_odd_span_at_the_edge_of_the_row_still_has_its_area():
    # n = 20: span 43, area 63, the most a row holds; a margin of 22 on each side
    # (64 units) would not fit, so the area is n + span, not n + 2 * roam.
    span = free_span(20, ROWS[20]["best_known"])
    assert span % 2 == 1 and 20 + span == MAX_AREA
    descriptor = make_descriptor(20, roam=span // 2, bound=ROWS[20]["best_known"], free_span=span)
    assert search_area(descriptor) == MAX_AREA
    tables = tables_of(descriptor)
    for root in roots_of(descriptor):
        ((size, x, y),) = root
        assert prefix_ids(tables, root)[0] == tables.find(20, x + tables.roam, y + tables.roam) >= 0
    with pytest.raises(ValueError, match="exceeds"):
        tables_for(20, 22)


def test_searches_without_a_span_keep_their_checkpoint_key():
    assert set(space_key(make_descriptor(20, roam=1))) == {"n", "roam", "free_below", "greedy", "greedy_slack", "max_added", "count"}
    assert space_key(make_descriptor(20, roam=10, free_span=20))["free_span"] == 20


def test_the_kernel_is_exact_with_the_largest_square_off_centre():
    # The offset search relies on the kernel's pruning holding in any area: below random
    # prefixes of the two largest squares anywhere in the area (the largest one off the
    # centre, the second partly outside it), its optimum equals a plain search over
    # every placement of the other sizes in the same area.
    from puzzlelab.puzzles.matchsticks.search import solve_subtree

    rng = random.Random(11)
    for n, roam in ((4, 2), (5, 1)):
        side = n + 2 * roam
        places = _masks(side)
        for _ in range(5):
            lx, ly = rng.randint(0, side - n), rng.randint(0, side - n)
            sx, sy = rng.randint(0, side - n + 1), rng.randint(0, side - n + 1)
            fixed = next(b for (_, x, y), b in places[n] if (x, y) == (lx, ly)) | next(b for (_, x, y), b in places[n - 1] if (x, y) == (sx, sy))
            best = [10**9]

            def descend(t, union):
                if t == 0:
                    best[0] = min(best[0], union.bit_count())
                    return
                for _, bits in places[t]:
                    if (union | bits).bit_count() < best[0]:
                        descend(t - 1, union | bits)

            descend(n - 2, fixed)
            prefix = [[n, lx - roam, ly - roam], [n - 1, sx - roam, sy - roam]]
            found = solve_subtree(make_descriptor(n, roam=roam, prefix=prefix))
            assert found["complete"] and found["best"] == best[0], (n, prefix)


def test_a_free_search_keeps_one_subtree_per_offset_in_its_checkpoint(tmp_path):
    import json

    path = tmp_path / "free8.json"
    first = PUZZLE.solve(Instance(8), "free", budget=120, checkpoint=str(path))
    again = PUZZLE.solve(Instance(8), "free", budget=120, checkpoint=str(path))  # read back, not cut finer
    offsets = len(offset_roots(8, 4, 8))
    assert first.stats["subtrees"] == again.stats["subtrees"] == offsets == len(json.loads(path.read_text())["prefixes"])
    assert again.stats["resumed_subtrees"] == offsets and again.value == first.value == ROWS[8]["best_known"]
