"""Response models of the records dashboards, the answer views, the exports and the
instance previews, shown in `/docs`.

A dashboard puts the published table of its puzzle (the `reference.py` of each puzzle)
beside the best verified answer this workbench knows (`service.answers`): `ours` is
null where there is none. Every row names the `instance` to open on the Solve page
(a catalog name or instance text the service parses) and says whether a verified
`answer` can be fetched (`GET /api/records/{puzzle}/answer?instance=...`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from puzzlelab.service.models import VerdictView

__all__ = [
    "Ours", "MatchsticksRow", "MatchsticksDashboard", "HexagonRow", "HexagonDashboard", "CoinsCounts", "CoinsFont",
    "CoinsDashboard", "TilingContestRow", "TilingRectangleRow", "TilingDashboard", "MacMahonRow", "MacMahonDashboard",
    "DashboardIndexEntry", "CoinBoards", "ExportLink", "AnswerView", "PreviewRequest", "PreviewView",
]

Number = int | float


class Ours(BaseModel):
    """The best verified answer known for an instance (the store's, or a plugged-in
    source's)."""

    instance: str = Field(description="The answer's instance key (GET /api/records/{puzzle}/answer?instance=...).")
    value: Any = Field(description="The figure the field quotes.")
    status: str = Field(description="optimal (proven) or feasible (found, not proven).")
    bound: Any = None
    method: str
    seconds: Number | None = None
    source: str = Field(description="'store', or the name of the plugged-in source of solved instances.")
    record_id: int | None = Field(None, description="The store's record id, where the answer is the store's.")
    created: Number | None = None


# ---------------------------------------------------------------- matchsticks
class MatchsticksRow(BaseModel):
    n: int
    instance: str = Field(description="The catalog name to open on the Solve page.")
    published: int = Field(description="A294249's a(n): fewest matches known.")
    proven: bool = Field(description="a(n) is proven optimal (else an upper bound).")
    diagonal1_best: int
    diagonal20_best: int
    greedy_best: int
    ours: Ours | None = None
    answer: bool = Field(description="A verified answer can be fetched for this n.")


class MatchsticksDashboard(BaseModel):
    """OEIS A294249 by n: the published value (proven or a bound), the restricted
    searches' optima, and ours."""

    puzzle: Literal["matchsticks"] = "matchsticks"
    value_name: str
    source: str
    proven_to: int = Field(description="The published values are proven for every n up to this.")
    bounds_to: int = Field(description="The table's last n (bounds past proven_to).")
    ours_proven: list[int] = Field(description="The n whose optimum this workbench has proven.")
    rows: list[MatchsticksRow]


# ---------------------------------------------------------------- hexagon
class HexagonRow(BaseModel):
    n: int
    instance: str
    cells: int
    edges: int
    published: int = Field(description="The contest's best raw score.")
    published_penalty: int = Field(description="Penalty edges of the published best grid (raw score = edges - penalty).")
    proven: bool = Field(description="The published score is proven optimal.")
    level_penalties: list[int] | None = Field(None, description="Lowest penalty through levels 1, 2, 3 and 4-6 (the write-up).")
    ours: Ours | None = None
    ours_penalty: int | None = Field(None, description="Penalty edges of our best grid (edges - raw score).")
    answer: bool


class HexagonDashboard(BaseModel):
    """Hexagonal neighbours by order n: raw score and penalty edges, published and ours,
    with the range of n proven."""

    puzzle: Literal["hexagon"] = "hexagon"
    value_name: str
    source: str
    proven_range: list[int] = Field(description="[first, last]: the published scores are proven for these n.")
    ours_proven: list[int] = Field(description="The n whose optimum this workbench has proven.")
    ours_reached: list[int] = Field(description="The n where our best raw score equals (or beats) the published one.")
    rows: list[HexagonRow]


# ---------------------------------------------------------------- coins
class CoinsCounts(BaseModel):
    puzzles: int = Field(description="Puzzles of the font (37 x 36).")
    published: int = Field(description="Puzzles with a shipped published optimum.")
    solved: int = Field(description="Puzzles with a verified optimal answer here.")
    found: int = Field(description="Puzzles with a verified answer not proven optimal.")
    agree: int = Field(description="Solved puzzles whose optimum equals the published one.")
    disagree: int = Field(description="Solved puzzles whose optimum differs from the published one (a defect if ever > 0).")


class CoinsFont(BaseModel):
    """A 37 x 37 grid of one font: row = start glyph, column = target glyph."""

    font: str
    width: int
    height: int
    coins: int
    glyphs: list[str]
    published: list[list[int | None]] = Field(description="published[start][target]: the published optimal length, null where not shipped.")
    ours: list[list[int | None]] = Field(description="ours[start][target]: our verified number of moves, null where unsolved.")
    ours_status: list[list[str | None]] = Field(description="optimal or feasible for each solved cell.")
    counts: CoinsCounts


class CoinsDashboard(BaseModel):
    puzzle: Literal["coins"] = "coins"
    value_name: str
    source: str
    answer_sources: list[str] = Field(description="The plugged-in sources of solved puzzles beside the store.")
    fonts: list[CoinsFont]


# ---------------------------------------------------------------- tiling
class TilingContestRow(BaseModel):
    number: int
    instance: str
    width: int
    height: int
    published: int = Field(description="The proven optimum.")
    ours: Ours | None = None
    answer: bool


class TilingRectangleRow(BaseModel):
    width: int
    height: int
    instance: str
    published: int | None = None
    ours: Ours | None = None
    answer: bool


class TilingDashboard(BaseModel):
    """OEIS A219158 (fewest squares tiling an m x n rectangle) as a heat map, the
    contest puzzles, and the rectangles past the shipped table."""

    puzzle: Literal["tiling"] = "tiling"
    value_name: str
    source: str
    m_max: int
    n_max: int
    published: list[list[int | None]] = Field(description="published[m-1][n-1] = A219158(m, n) for m <= n; null where m > n.")
    ours: list[list[int | None]] = Field(description="ours[m-1][n-1]: our verified value for an m x n (or n x m) rectangle.")
    ours_status: list[list[str | None]]
    ours_instance: list[list[str | None]] = Field(description="The key of the answer behind each of ours (rect_WxH).")
    contests: list[TilingContestRow]
    rectangles: list[TilingRectangleRow] = Field(description="Catalog rectangles and solved ones outside the table.")


# ---------------------------------------------------------------- macmahon
class MacMahonRow(BaseModel):
    instance: str
    description: str
    published: int | None = Field(None, description="A published count for this instance (or the same board turned).")
    published_source: str | None = None
    ours: Ours | None = None
    classes: dict[str, int] = Field(default_factory=dict, description="Classes up to each group (rotations, board, colours, full).")
    group_orders: dict[str, int] = Field(default_factory=dict)
    answer: bool


class MacMahonDashboard(BaseModel):
    """MacMahon's counts: every catalog instance and every counted one, published and ours."""

    puzzle: Literal["macmahon"] = "macmahon"
    value_name: str
    rows: list[MacMahonRow]


class DashboardIndexEntry(BaseModel):
    puzzle: str
    title: str
    url: str


# ---------------------------------------------------------------- answers, exports, previews
class CoinBoards(BaseModel):
    """A coin puzzle's board for the page's step-through: cells as [x, y]; moves as
    [x1, y1, x2, y2] (empty for a preview)."""

    width: int
    height: int
    start: list[list[int]]
    target: list[list[int]]
    moves: list[list[int]] = Field(default_factory=list)


class ExportLink(BaseModel):
    format: str
    label: str
    media_type: str
    filename: str
    url: str


class AnswerView(BaseModel):
    """A verified answer: its figures, its picture, the exports in the field's formats,
    and (coins) the moves to step through."""

    puzzle: str
    instance: str
    value: Any = None
    status: str
    bound: Any = None
    method: str | None = None
    seconds: Number | None = None
    source: str = Field(description="'store', 'job', or the name of a plugged-in source.")
    verified: bool
    verdict: VerdictView | None = None
    published: dict[str, Any] | None = None
    svg: str = Field(description="Where the picture is (image/svg+xml).")
    exports: list[ExportLink]
    text: str | None = Field(None, description="The text drawing, where the field draws in text.")
    steps: CoinBoards | None = None


class PreviewRequest(BaseModel):
    """An instance to parse and draw (not solve): a catalog name, its text or its JSON."""

    puzzle: str = Field(max_length=100, description="Puzzle name.")
    instance: Any = Field(description="Catalog name, instance text, or instance JSON.")


class PreviewView(BaseModel):
    puzzle: str
    instance: str = Field(description="The instance's key (as the records store names it).")
    description: str = Field("", description="The catalog's line for it, where it is a catalog instance.")
    published: dict[str, Any] | None = None
    svg: str | None = Field(None, description="The picture (SVG markup); null when the instance is too large to draw here.")
    text: str | None = None
    note: str = ""
    board: CoinBoards | None = None
