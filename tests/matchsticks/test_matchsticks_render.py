"""Drawings in the field's style: the published ones are reproduced character for
character from their squares; the classification line and the SVG."""

import xml.etree.ElementTree as ET

import pytest
from matchsticks_oracles import published_drawings

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles.matchsticks import PUZZLE
from puzzlelab.puzzles.matchsticks.drawing import parse_drawing
from puzzlelab.puzzles.matchsticks.model import Instance, format_solution
from puzzlelab.puzzles.matchsticks.render import classify, describe_diagonal, draw_ascii, render_text


def body(lines):
    return [line for line in lines if not (line.startswith("n=") or "matchsticks" in line or "diagonal" in line)]


@pytest.mark.parametrize("index", range(6))
def test_published_drawings_are_redrawn_exactly(index):
    lines = published_drawings()[index]
    solution = parse_drawing("\n".join(lines))
    assert draw_ascii(solution) == "\n".join(body(lines))
    # ... and from the squares alone, as JSON, in another order
    as_json = format_solution([s.as_list() for s in reversed(solution.squares)])
    assert draw_ascii(as_json) == "\n".join(body(lines))


def test_the_published_classification_lines():
    drawings = {len(body(lines)) - 1: lines for lines in published_drawings()}
    for n in (16, 21):
        lines = drawings[n]
        solution = parse_drawing("\n".join(lines))
        assert describe_diagonal(solution) == lines[-1]
    assert classify(parse_drawing("\n".join(drawings[16]))) == (12, 4)
    assert classify(parse_drawing("\n".join(drawings[21]))) == (5, 17)


def test_classification_is_taken_in_the_normal_form():
    # n = 3 drawn with the 2x2 in the top-right corner: mirrored, it is the 3-2 corner pair.
    mirrored = [[3, 0, 0], [2, 1, 0], [1, 0, 0]]
    assert classify(mirrored) == classify([[3, 0, 0], [2, 0, 0], [1, 2, 0]])


def test_render_text_has_the_published_layout():
    lines = published_drawings()[4]  # n = 16
    solution = parse_drawing("\n".join(lines))
    result = Result(190, solution.to_json(), Status.OPTIMAL, "full", stats={"optimal_solutions": 4})
    assert PUZZLE.render_text(Instance(16), result) == "\n".join(lines)
    assert render_text(16, solution, 190).splitlines()[-2] == "190 matchsticks"


def test_svg_is_well_formed_and_labels_every_corner_label():
    solution = parse_drawing("\n".join(published_drawings()[5]))
    svg = PUZZLE.render_svg(Instance(21), Result(282, solution.to_json(), Status.OPTIMAL, "full"))
    root = ET.fromstring(svg)
    texts = [el.text for el in root.iter() if el.tag.endswith("text")]
    assert "21" in texts and "1" in texts and "6" not in texts  # 6 has all four corners labelled
    assert any("282 matches" in (t or "") for t in texts)
    empty = PUZZLE.render_svg(Instance(5), None)
    assert ET.fromstring(empty) is not None


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("2─┬─┐\n├─1─┤\n└───┘", "belongs to no square"),
        ("2─x─┐\n├─1.│\n└───┘", "unexpected character"),
        ("┌─┐\n└─┘", "no size labels"),
        ("2─┬─┐\n├─1.│\n└─1─┘", "written at 2 corners"),
    ],
)
def test_bad_drawings_are_refused_with_a_reason(text, fragment):
    with pytest.raises(InvalidInstance) as info:
        parse_drawing(text)
    assert fragment in str(info.value)
