"""The picture: the coins paid, in a row, each labelled with its value.

Renderers take the instance and a Result (or None, to draw the instance alone) and
return one SVG document as a string: the CLI's `--svg`, the tour, the service's
`/api/jobs/ID/svg` and the web page all use it as it is. `puzzlelab.core.svg` has the
document builder (escaped text) and a palette that stays readable for colour-blind
viewers.
"""

from __future__ import annotations

from puzzlelab.core.result import Result
from puzzlelab.core.svg import Svg, colour

__all__ = ["draw"]

CELL = 44  # pixels per coin


def draw(instance, result: Result | None) -> str:
    """The coins of the solution (or, with no solution, one of each denomination), with
    a caption: '11 = 6 + 5: 2 coins [optimal]'."""
    coins, target = instance
    paid = list(result.solution) if result is not None and result.solution is not None else None
    shown = paid if paid is not None else list(coins)
    if paid is None:
        caption = f"pay {target} with coins {', '.join(map(str, coins))}"
        if result is not None:
            caption += f": no answer [{result.status.value}]"
    else:
        caption = f"{target} = {' + '.join(map(str, paid)) or '0'}: {len(paid)} coins [{result.status.value}]"
    width = max(len(shown) * CELL, len(caption) * 7.5) + CELL // 2  # about 7.5 pixels a character
    svg = Svg(width, 2 * CELL + 10, title=f"coin change: {target} with coins {' '.join(map(str, coins))}")
    index = {c: i for i, c in enumerate(sorted(coins))}
    biggest = max(coins)
    for i, c in enumerate(shown):
        radius = CELL * (0.28 + 0.18 * (c / biggest) ** 0.5)  # bigger coins look bigger
        x, y = CELL * (i + 1) - CELL // 4, CELL * 0.75
        svg.circle(x, y, radius, fill=colour(index.get(c, 0)), stroke="#222222", stroke_width=1.5)
        svg.text(x, y, c, size=13, fill="#ffffff", font_weight="bold")
    svg.text(CELL // 4, CELL * 1.75, caption, size=14, anchor="start")
    return svg.to_string()
