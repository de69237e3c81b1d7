"""Response models of the records dashboards, the answer views, the exports and the
instance previews, shown in `/docs`.

A dashboard puts the published table of its puzzle (the `reference.py` of each puzzle)
beside the best verified answer this workbench knows (`service.answers`): `ours` is
null where there is none. `shipped` lists what the package itself ships for the row
(proofs, records, tables this project computed), each checked again by the puzzle's
checker: `check` is verified, failed (with the reason; never shown as ours) or
recorded (nothing a checker could check in full), with its provenance. `local` is this
machine's records store's best. `versus` says whether ours beats, ties or trails the
published figure. Every row names the `instance` to open on the Solve page (a catalog
name or instance text the service parses) and says whether a verified `answer` can be
fetched (`GET /api/records/{puzzle}/answer?instance=...`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from puzzlelab.service.models import VerdictView

__all__ = [
    "Ours", "ShippedView", "Highlight", "SourceCheck", "MatchsticksRow", "MatchsticksDashboard", "HexagonRow", "HexagonDashboard", "CoinsCounts", "CoinsFont",
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


class ShippedView(BaseModel):
    """A row the package ships (computed by this project), checked again."""

    instance: str
    label: str
    value: Any = None
    status: str
    claim: str = Field(description="What the row claims: 'proven optimal', 'new upper bound ...', a restricted optimum, a count.")
    source: str = Field(description="The shipped file it comes from (also the answer source of a verified row).")
    method: str
    check: Literal["verified", "failed", "recorded"] = Field(
        description="verified: the checker passes it; failed: rejected (reason), never shown as ours; recorded: not checkable in full.")
    reason: str = Field(description="The checker's message, why it failed, or what could not be checked.")
    kind: str = Field(description="answer, record, column, proof or count.")
    provenance: dict[str, Any] = Field(
        default_factory=dict, description="How it was computed (method, command, date, CPU seconds, commit); what every row of its file shares is in the dashboard's `sources`.")
    figures: dict[str, Any] = Field(default_factory=dict)
    answers: str = Field("", description="The answer source a verified row is served through (its `ours.source`); empty: none.")


class Highlight(BaseModel):
    """One line of what ours does beside the published figures, at a glance."""

    versus: str = Field(description="beats, ties, differs or new (no published figure to compare with).")
    text: str
    instances: list[str] = Field(default_factory=list)


class FailedRow(BaseModel):
    instance: str
    label: str
    reason: str


class SourceCheck(BaseModel):
    """How the rows of one shipped file fared when checked again."""

    source: str
    verified: int
    failed: int
    recorded: int
    failures: list[FailedRow] = Field(default_factory=list)
    provenance: dict[str, Any] = Field(default_factory=dict, description="What every row of the file shares of its provenance.")


_SHARED = {  # the fields every dashboard shares: (default, description)
    "local": (None, "This machine's records store's best for the row (source 'store'), checked again."),
    "versus": (None, "ours beside the published figure: beats, ties, trails (differs for a count)."),
    "shipped": (list, "What the package ships for the row, each checked again."),
    "highlights": (list, "Where ours beats or ties the published figures, first the new records."),
    "sources": (list, "Each shipped file and how its rows fared when checked again."),
    "unreadable": (None, "Why a shipped file could not be read at all (null: all were read)."),
}


def _shared(name: str) -> Any:
    default, description = _SHARED[name]
    return Field(default_factory=default, description=description) if default is list else Field(default, description=description)


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
    local: Ours | None = _shared("local")
    shipped: list[ShippedView] = _shared("shipped")
    versus: str | None = _shared("versus")


class MatchsticksDashboard(BaseModel):
    """OEIS A294249 by n: the published value (proven or a bound), the restricted
    searches' optima, and ours."""

    puzzle: Literal["matchsticks"] = "matchsticks"
    value_name: str
    source: str
    proven_to: int = Field(description="The published values are proven for every n up to this.")
    bounds_to: int = Field(description="The table's last n (bounds past proven_to).")
    ours_proven: list[int] = Field(description="The n whose optimum is proven here (shipped proofs and this machine's store).")
    rows: list[MatchsticksRow]
    highlights: list[Highlight] = _shared("highlights")
    sources: list[SourceCheck] = _shared("sources")
    unreadable: str | None = _shared("unreadable")


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
    local: Ours | None = _shared("local")
    shipped: list[ShippedView] = _shared("shipped")
    versus: str | None = _shared("versus")


class HexagonCount(BaseModel):
    """A solution count of the write-up's table (level-k grids with the lowest
    level-k penalty) beside ours (recorded: the row DP gives no certificate)."""

    n: int
    level: int
    penalty: int | None = None
    published: int | None = None
    ours: int | None = None
    shipped: ShippedView
    versus: str | None = _shared("versus")


class HexagonDashboard(BaseModel):
    """Hexagonal neighbours by order n: raw score and penalty edges, published and ours,
    with the range of n proven."""

    puzzle: Literal["hexagon"] = "hexagon"
    value_name: str
    source: str
    proven_range: list[int] = Field(description="[first, last]: the published scores are proven for these n.")
    ours_proven: list[int] = Field(description="The n whose optimum is proven here (shipped proofs and this machine's store).")
    ours_reached: list[int] = Field(description="The n where our best raw score equals (or beats) the published one.")
    rows: list[HexagonRow]
    counts: list[HexagonCount] = Field(default_factory=list, description="The solution counts reproduced here.")
    highlights: list[Highlight] = _shared("highlights")
    sources: list[SourceCheck] = _shared("sources")
    unreadable: str | None = _shared("unreadable")


# ---------------------------------------------------------------- coins
class CoinsCounts(BaseModel):
    puzzles: int = Field(description="Puzzles of the font (37 x 36).")
    published: int = Field(description="Puzzles with a shipped published optimum.")
    solved: int = Field(description="Puzzles with a verified optimal answer here.")
    found: int = Field(description="Puzzles with a verified answer not proven optimal.")
    agree: int = Field(description="Solved puzzles whose optimum equals the published one.")
    disagree: int = Field(description="Solved puzzles whose optimum differs from the published one (a defect if ever > 0).")
    local: int = Field(0, description="Puzzles whose answer here is this machine's store's.")


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
    highlights: list[Highlight] = _shared("highlights")
    provenance: dict[str, Any] | None = Field(None, description="How the shipped table was computed.")
    sources: list[SourceCheck] = _shared("sources")
    unreadable: str | None = _shared("unreadable")


# ---------------------------------------------------------------- tiling
class TilingContestRow(BaseModel):
    number: int
    instance: str
    width: int
    height: int
    published: int = Field(description="The proven optimum.")
    ours: Ours | None = None
    answer: bool
    local: Ours | None = _shared("local")
    shipped: list[ShippedView] = _shared("shipped")
    versus: str | None = _shared("versus")


class TilingRectangleRow(BaseModel):
    width: int
    height: int
    instance: str
    published: int | None = None
    ours: Ours | None = None
    answer: bool
    local: Ours | None = _shared("local")
    versus: str | None = _shared("versus")


class TilingFailedCell(BaseModel):
    m: int
    n: int
    value: Any = None
    reason: str


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
    published_m_max: int = Field(10, description="The published table's last m (its entries: published[m-1][n-1]).")
    published_n_max: int = Field(60, description="The published table's last n.")
    computed_rows: list[int] = Field(default_factory=list, description="The rows m computed here and shipped (in `ours`, checked).")
    computed_failed: list[TilingFailedCell] = Field(default_factory=list, description="Shipped entries the checker rejects (not in ours).")
    highlights: list[Highlight] = _shared("highlights")
    sources: list[SourceCheck] = _shared("sources")
    unreadable: str | None = _shared("unreadable")


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
    local: Ours | None = _shared("local")
    shipped: list[ShippedView] = _shared("shipped")
    versus: str | None = _shared("versus")


class MacMahonDashboard(BaseModel):
    """MacMahon's counts: every catalog instance and every counted one, published and ours."""

    puzzle: Literal["macmahon"] = "macmahon"
    value_name: str
    rows: list[MacMahonRow]
    highlights: list[Highlight] = _shared("highlights")
    sources: list[SourceCheck] = _shared("sources")
    unreadable: str | None = _shared("unreadable")


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
