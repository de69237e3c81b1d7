"""Pictures of coin-sliding puzzles: start and target side by side (SVG), a solution as
an animated SVG (each coin glides to its new cell in turn, looping), a self-contained
HTML page stepping through a solution, and a text drawing for the terminal.

The renderers replay moves with their own few lines (no solver code); they are only
called with solutions that passed `verify`."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from puzzlelab.core.svg import Svg
from puzzlelab.puzzles.coins.model import Instance, instance_key, mask_to_rows

__all__ = ["pair_svg", "animated_svg", "html_stepper", "text_drawing", "coin_tracks"]

CELL = 28
COIN_FILL, COIN_EDGE = "#ccbb44", "#8a7a1a"
TARGET_RING = "#4477aa"
GRID = "#dddddd"
STEP_SECONDS = 0.7


def _cells(mask: int, width: int, height: int) -> list[tuple[int, int]]:
    return [(x, y) for y in range(height) for x in range(width) if mask >> (y * width + x) & 1]


def _board(svg: Svg, left: float, top: float, instance: Instance, coins: list[tuple[int, int]], label: str) -> None:
    w, h = instance.width, instance.height
    svg.text(left + w * CELL / 2, top - 12, label, size=13)
    for y in range(h):
        for x in range(w):
            svg.rect(left + x * CELL, top + y * CELL, CELL, CELL, fill="#fafafa", stroke=GRID)
    for x, y in coins:
        svg.circle(left + (x + 0.5) * CELL, top + (y + 0.5) * CELL, CELL * 0.4, fill=COIN_FILL, stroke=COIN_EDGE)


def pair_svg(instance: Instance) -> str:
    """Start and target side by side."""
    w, h = instance.width * CELL, instance.height * CELL
    svg = Svg(2 * w + 3 * CELL, h + 2 * CELL, title=f"coins {instance_key(instance)}")
    _board(svg, CELL, 1.5 * CELL, instance, _cells(instance.start, instance.width, instance.height), "start")
    _board(svg, 2 * CELL + w, 1.5 * CELL, instance, _cells(instance.target, instance.width, instance.height), "target")
    return svg.to_string()


def coin_tracks(instance: Instance, moves: list[list[int]]) -> list[list[tuple[int, int]]]:
    """Each coin's cell after every move (tracks[coin][step], step 0 = start)."""
    tracks = [[cell] for cell in _cells(instance.start, instance.width, instance.height)]
    where = {cell: i for i, cell in enumerate(t[0] for t in tracks)}
    for x1, y1, x2, y2 in moves:
        coin = where.pop((x1, y1))
        where[(x2, y2)] = coin
        for i, track in enumerate(tracks):
            track.append((x2, y2) if i == coin else track[-1])
    return tracks


def animated_svg(instance: Instance, moves: list[list[int]]) -> str:
    """The solution as a looping SMIL animation over the board, the target's cells
    ringed, with the start and target drawn small beside it."""
    w, h = instance.width, instance.height
    steps = len(moves)
    side = 0.45
    width = w * CELL + 2 * CELL + side * w * CELL + CELL
    svg = Svg(width, h * CELL + 3 * CELL, title=f"coins {instance_key(instance)}: {steps} moves")
    left, top = CELL, 1.5 * CELL
    svg.text(left + w * CELL / 2, top - 12, f"{instance_key(instance)}: {steps} moves", size=13)
    for y in range(h):
        for x in range(w):
            svg.rect(left + x * CELL, top + y * CELL, CELL, CELL, fill="#fafafa", stroke=GRID)
    for x, y in _cells(instance.target, w, h):
        svg.circle(left + (x + 0.5) * CELL, top + (y + 0.5) * CELL, CELL * 0.46, fill="none", stroke=TARGET_RING, stroke_width=2)
    duration = max(1, steps + 2) * STEP_SECONDS
    # keyTimes: hold the start one step, move i during step i + 1, hold the end one step.
    times = [0.0] + [(i + 1) / (steps + 2) for i in range(steps + 1)] + [1.0]
    key_times = ";".join(f"{t:.4f}" for t in times)
    for track in coin_tracks(instance, moves):
        xs = [left + (x + 0.5) * CELL for x, _ in track]
        ys = [top + (y + 0.5) * CELL for _, y in track]
        xs = [xs[0]] + xs + [xs[-1]]
        ys = [ys[0]] + ys + [ys[-1]]
        anim = "".join(
            f'<animate attributeName="{name}" values="{";".join(f"{v:g}" for v in values)}" keyTimes="{key_times}" '
            f'dur="{duration:g}s" repeatCount="indefinite" calcMode="linear"/>'
            for name, values in (("cx", xs), ("cy", ys))
        )
        svg.raw(
            f'<circle cx="{xs[0]:g}" cy="{ys[0]:g}" r="{CELL * 0.4:g}" fill="{COIN_FILL}" stroke="{COIN_EDGE}">{anim}</circle>'
        )
    small = CELL * side
    for i, (mask, label) in enumerate(((instance.start, "start"), (instance.target, "target"))):
        ox = left + w * CELL + CELL
        oy = top + i * (h * small + CELL)
        svg.text(ox + w * small / 2, oy - 7, label, size=9)
        for y in range(h):
            for x in range(w):
                svg.rect(ox + x * small, oy + y * small, small, small, fill="#fafafa", stroke=GRID)
        for x, y in _cells(mask, w, h):
            svg.circle(ox + (x + 0.5) * small, oy + (y + 0.5) * small, small * 0.4, fill=COIN_FILL)
    return svg.to_string()


_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table.board {{ border-collapse: collapse; }}
table.board td {{ width: 32px; height: 32px; border: 1px solid #ddd; text-align: center; font-size: 24px; }}
td.coin::after {{ content: "\\25CF"; color: {coin}; }}
td.goal {{ box-shadow: inset 0 0 0 2px {ring}; }}
td.from {{ background: #fde0e0; }} td.to {{ background: #e0f0e0; }}
button {{ font-size: 1em; margin-right: .5em; }}
</style></head><body>
<h1>{title}</h1>
<p><button id="first">&laquo; start</button><button id="prev">&lsaquo; back</button>
<button id="next">next &rsaquo;</button><button id="last">target &raquo;</button>
<span id="where"></span></p>
<table class="board" id="board"></table>
<p>Cells ringed in blue are the target. A move lifts one coin and puts it on an empty cell
touching at least two other coins.</p>
<script>
const W = {width}, H = {height};
const start = {start}, target = {target}, moves = {moves};
let step = 0;
function boardAt(n) {{
  const coins = new Set(start.map(c => c.join(",")));
  for (let i = 0; i < n; i++) {{ const [x1, y1, x2, y2] = moves[i]; coins.delete(x1 + "," + y1); coins.add(x2 + "," + y2); }}
  return coins;
}}
function draw() {{
  const coins = boardAt(step), goal = new Set(target.map(c => c.join(",")));
  const last = step > 0 ? moves[step - 1] : null;
  let html = "";
  for (let y = 0; y < H; y++) {{
    html += "<tr>";
    for (let x = 0; x < W; x++) {{
      const k = x + "," + y, cls = [];
      if (coins.has(k)) cls.push("coin");
      if (goal.has(k)) cls.push("goal");
      if (last && last[0] === x && last[1] === y) cls.push("from");
      if (last && last[2] === x && last[3] === y) cls.push("to");
      html += '<td class="' + cls.join(" ") + '"></td>';
    }}
    html += "</tr>";
  }}
  document.getElementById("board").innerHTML = html;
  document.getElementById("where").textContent = "move " + step + " of " + moves.length +
    (last ? "  (" + last[0] + "," + last[1] + ") \\u2192 (" + last[2] + "," + last[3] + ")" : "");
}}
document.getElementById("first").onclick = () => {{ step = 0; draw(); }};
document.getElementById("prev").onclick = () => {{ step = Math.max(0, step - 1); draw(); }};
document.getElementById("next").onclick = () => {{ step = Math.min(moves.length, step + 1); draw(); }};
document.getElementById("last").onclick = () => {{ step = moves.length; draw(); }};
document.addEventListener("keydown", e => {{ if (e.key === "ArrowRight") document.getElementById("next").click();
  if (e.key === "ArrowLeft") document.getElementById("prev").click(); }});
draw();
</script></body></html>
"""


def html_stepper(instance: Instance, moves: list[list[int]]) -> str:
    """A self-contained HTML page to step through a solution (buttons or arrow keys)."""
    w, h = instance.width, instance.height
    return _HTML.format(
        title=escape(f"coins {instance_key(instance)}: {len(moves)} moves"),
        coin=COIN_FILL,
        ring=TARGET_RING,
        width=w,
        height=h,
        start=json.dumps([list(c) for c in _cells(instance.start, w, h)]),
        target=json.dumps([list(c) for c in _cells(instance.target, w, h)]),
        moves=json.dumps([list(map(int, m)) for m in moves]),
    )


def text_drawing(instance: Instance, moves: Any | None) -> str:
    """Start and target rows side by side, then the moves (x1,y1)->(x2,y2)."""
    w, h = instance.width, instance.height
    a = mask_to_rows(instance.start, w, h)
    b = mask_to_rows(instance.target, w, h)
    lines = [f"{'start':<{w}}    target"] + [f"{ra}    {rb}" for ra, rb in zip(a, b)]
    if moves:
        text = "  ".join(f"({m[0]},{m[1]})->({m[2]},{m[3]})" for m in moves)
        lines.append(f"moves: {text}")
    return "\n".join(lines)
