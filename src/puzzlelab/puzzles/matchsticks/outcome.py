"""Turning a search outcome into the `Result` every method returns (shared by the
method modules)."""

from __future__ import annotations

from typing import Any

from puzzlelab.core.result import Result, Status
from puzzlelab.puzzles.matchsticks.model import format_solution
from puzzlelab.puzzles.matchsticks.search import SearchOutcome

__all__ = ["to_result", "empty_result", "assumption", "classify"]


def assumption(roam: int) -> str:
    """The assumption under which a complete search proves its value optimal."""
    if roam == 0:
        return "every square lies inside the largest one (as in the A294249 record)"
    return f"every square lies within {roam} of the largest one"


def _restriction(method: str, stats: dict[str, Any]) -> str:
    """The method with the options that restrict it, as a user would type them."""
    words = [method]
    if stats.get("max_added"):
        words.append("--max-added")
    if stats.get("slack"):
        words.append(f"--slack {stats['slack']}")
    if stats.get("free_below") is not None:
        words.append(f"--free-below {stats['free_below']}")
    return " ".join(words)


def classify(answers: list[list[list[int]]]) -> list[dict[str, Any]]:
    """The write-up's description of optimal solutions (its "diagonal" and "ladder"
    families), grouped: how many squares have their corner on the main diagonal and the
    largest square off it (None: all on it) as `render.classify` prints them under a
    drawing, and how many solutions are so. Each answer is recounted by the independent
    checker first (`verify.count_matches`, kept in `matches`)."""
    from puzzlelab.puzzles.matchsticks.render import classify as on_diagonal
    from puzzlelab.puzzles.matchsticks.verify import count_matches

    groups: dict[tuple[int, int | None, int], int] = {}
    for squares in answers:
        key = (*on_diagonal({"roam": 0, "squares": squares}), count_matches(squares))
        groups[key] = groups.get(key, 0) + 1
    return [
        {"on_diagonal": k[0], "first_off_diagonal": k[1], "matches": k[2], "solutions": count}
        for k, count in sorted(groups.items(), key=lambda item: (-item[0][0], -(item[0][1] or 0)))
    ]


def empty_result(method: str) -> Result:
    """n = 0: no squares, no matches."""
    return Result(0, format_solution([], 0), Status.OPTIMAL, method, bound=0, stats={"nodes": 0})


def to_result(
    outcome: SearchOutcome,
    method: str,
    *,
    roam: int,
    proves: bool,
    counted: bool,
    extra: dict[str, Any] | None = None,
) -> Result:
    """A Result from an outcome. `proves`: a complete run of this search proves the
    value optimal (unrestricted search); otherwise its value is the optimum of the
    restricted search only (`stats.restricted_optimum`), which bounds the true one."""
    stats: dict[str, Any] = {
        "nodes": outcome.nodes,
        "subtrees": outcome.subtrees,
        "subtrees_done": outcome.subtrees_done,
        "complete": outcome.complete,
        "search_seconds": round(outcome.seconds, 6),
    }
    if outcome.resumed:
        stats["resumed_subtrees"] = outcome.resumed
    if outcome.seconds > 0 and outcome.nodes:
        stats["nodes_per_second"] = round(outcome.nodes / outcome.seconds)
    if extra:
        stats.update(extra)
    if outcome.best is None or outcome.solution is None:
        bound = stats.get("bound_given")
        if outcome.complete and bound is not None:
            # a bounded search run to the end is an answer too: nothing of at most `bound`
            scope = f"where {assumption(roam)}" if proves else f"in the restricted search ({_restriction(method, stats)})"
            stats["no_answer"] = f"the search is complete: no answer of at most {bound} matches exists {scope}"
        return Result(None, None, Status.UNKNOWN, method, stats=stats)
    if counted and outcome.complete:
        stats["optimal_solutions"] = outcome.count
        if outcome.answers and len(outcome.answers) == outcome.count:
            stats["solution_classes"] = classify(outcome.answers)
            if any(c["matches"] != outcome.best for c in stats["solution_classes"]):
                raise RuntimeError(f"matchsticks: a listed optimal solution does not recount to {outcome.best} matches")
    solution = format_solution([tuple(s) for s in outcome.solution], roam)
    if outcome.complete and proves:
        stats["assumption"] = assumption(roam)
        return Result(outcome.best, solution, Status.OPTIMAL, method, bound=outcome.best, stats=stats)
    if outcome.complete:
        stats["restricted_optimum"] = True
    return Result(outcome.best, solution, Status.FEASIBLE, method, stats=stats)
