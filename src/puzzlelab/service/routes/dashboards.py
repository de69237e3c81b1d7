"""GET /api/records/{puzzle}/dashboard: each puzzle's published table beside the best
verified answers known here (what the package ships, checked, and this machine's
store), one route and one response model per puzzle
(`service.dashboards`, `service.dashboard_models`). A puzzle without a dashboard (a
plugin's) gets 404 naming those that have one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from puzzlelab.core.puzzle import InvalidInstance
from puzzlelab.puzzles import REGISTRY, get
from puzzlelab.service.dashboard_models import (
    CoinsDashboard,
    DashboardIndexEntry,
    HexagonDashboard,
    MacMahonDashboard,
    MatchsticksDashboard,
    TilingDashboard,
)
from puzzlelab.service.dashboards import coins, hexagon, macmahon, matchsticks, tiling
from puzzlelab.service.dependencies import Records
from puzzlelab.service.errors import documented

router = APIRouter(prefix="/api/records", tags=["records"])

DASHBOARDS = ("matchsticks", "hexagon", "coins", "tiling", "macmahon")
ERRORS = documented(503)


@router.get("/dashboards", summary="The puzzles that have a records dashboard", response_model=list[DashboardIndexEntry])
def dashboards() -> list[dict[str, Any]]:
    return [{"puzzle": name, "title": REGISTRY[name].title, "url": f"/api/records/{name}/dashboard"}
            for name in DASHBOARDS if name in REGISTRY]


@router.get("/matchsticks/dashboard", summary="A294249 by n: proven, bound, ours", response_model=MatchsticksDashboard, responses=ERRORS)
def matchsticks_dashboard(store: Records) -> dict[str, Any]:
    return matchsticks.build(store)


@router.get("/hexagon/dashboard", summary="Hexagon raw score and penalties by n, the proven range, ours",
            response_model=HexagonDashboard, responses=ERRORS)
def hexagon_dashboard(store: Records) -> dict[str, Any]:
    return hexagon.build(store)


@router.get("/coins/dashboard", summary="A 37 x 37 grid per coin font: published and our optimal lengths",
            response_model=CoinsDashboard, responses=documented(422, 503))
def coins_dashboard(store: Records, font: str | None = Query(None, max_length=100, description="One font (font5x7, font5x9); all when omitted.")) -> dict[str, Any]:
    return coins.build(store, font)


@router.get("/tiling/dashboard", summary="A219158 as a heat map, the contest puzzles, ours", response_model=TilingDashboard, responses=ERRORS)
def tiling_dashboard(store: Records) -> dict[str, Any]:
    return tiling.build(store)


@router.get("/macmahon/dashboard", summary="MacMahon's counts, published and ours", response_model=MacMahonDashboard, responses=ERRORS)
def macmahon_dashboard(store: Records) -> dict[str, Any]:
    return macmahon.build(store)


@router.get("/{puzzle}/dashboard", summary="Any other puzzle: 404 naming those with a dashboard", responses=documented(404, 422))
def no_dashboard(puzzle: str) -> None:
    get(puzzle)
    raise InvalidInstance(f"puzzle: {puzzle} has no records dashboard; expected one of {', '.join(DASHBOARDS)}", "puzzle", 404)
