"""The verified answers behind the records and the jobs: the answer as the
page shows it, its picture, and its exports in the field's formats.

    GET /api/records/{puzzle}/answer?instance=KEY                  the best verified answer known
    GET /api/records/{puzzle}/answer/svg?instance=KEY              its picture
    GET /api/records/{puzzle}/answer/export/{format}?instance=KEY  an export (service.exports)
    GET /api/jobs/{id}/answer                                      a finished job's verified answer
    GET /api/jobs/{id}/export/{format}                             an export of it

A record's answer is checked again by the puzzle's checker before it is served
(`service.answers.checked_result`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import Response

from puzzlelab.core.puzzle import InvalidInstance, Puzzle
from puzzlelab.core.result import Result
from puzzlelab.core.store import Store
from puzzlelab.puzzles import get
from puzzlelab.service.answers import answer_instance, answer_of, checked_result
from puzzlelab.service.dashboard_models import AnswerView
from puzzlelab.service.dependencies import Records, Runner, job_or_404
from puzzlelab.service.errors import documented
from puzzlelab.service.exports import export, filename
from puzzlelab.service.views import answer_view

router = APIRouter(tags=["records"])

ERRORS = documented(404, 422, 503)
SVG = {200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}, "description": "An SVG picture."}}
EXPORT = {
    200: {
        "content": {media: {"schema": {"type": "string"}} for media in ("application/json", "text/plain", "image/svg+xml", "text/html")},
        "description": "The answer in the chosen format, as a file to save (Content-Disposition: attachment).",
    }
}
INSTANCE = Query(..., min_length=1, max_length=4096, description="The instance key, as the dashboard gives it (or a catalog name).")


def _record(store: Store, puzzle_name: str, instance: str) -> tuple[Puzzle, Any, Result, str]:
    """The puzzle, the instance, the re-checked answer and its source; 404 when none."""
    puzzle = get(puzzle_name)
    answer = answer_of(store, puzzle, instance)
    if answer is None:  # perhaps a catalog name or instance text: try its key
        key = _key_of(puzzle, instance)
        answer = None if key is None else answer_of(store, puzzle, key)
    if answer is None:
        raise InvalidInstance(f"instance: no verified {puzzle.name} answer is known for {instance[:60]!r}", "instance", 404)
    loaded = answer_instance(store, puzzle, answer)
    if loaded is None:
        raise InvalidInstance(f"instance: the {puzzle.name} instance {answer.instance[:60]!r} cannot be rebuilt from its key", "instance", 404)
    return puzzle, loaded, checked_result(puzzle, loaded, answer), answer.source


def _key_of(puzzle: Puzzle, text: str) -> str | None:
    """The key of the instance `text` names (a catalog name, its text), None where it
    names none."""
    try:
        return puzzle.instance_key(puzzle.load(text, local=False))
    except (InvalidInstance, ValueError, RecursionError):
        return None


def _download(puzzle: Puzzle, instance: Any, result: Result, key: str, format: str) -> Response:
    chosen, text = export(puzzle, instance, result, format)
    headers = {"Content-Disposition": f'attachment; filename="{filename(puzzle, key, chosen)}"'}
    return Response(text, media_type=chosen.media_type, headers=headers)


@router.get("/api/records/{puzzle}/answer", summary="The best verified answer known for an instance", response_model=AnswerView, responses=ERRORS)
def record_answer(puzzle: str, store: Records, instance: str = INSTANCE) -> dict[str, Any]:
    owner, loaded, result, source = _record(store, puzzle, instance)
    query = "?instance=" + quote(owner.instance_key(loaded), safe="")
    return answer_view(owner, loaded, result, source=source, base=f"/api/records/{owner.name}/answer", query=query)


@router.get("/api/records/{puzzle}/answer/svg", summary="Picture of the best verified answer", response_class=Response,
            responses={**SVG, **ERRORS})
def record_svg(puzzle: str, store: Records, instance: str = INSTANCE) -> Response:
    owner, loaded, result, _ = _record(store, puzzle, instance)
    return Response(owner.render_svg(loaded, result), media_type="image/svg+xml")


@router.get("/api/records/{puzzle}/answer/export/{format}", summary="The best verified answer in a field's format",
            response_class=Response, responses={**EXPORT, **ERRORS})
def record_export(puzzle: str, format: str, store: Records, instance: str = INSTANCE) -> Response:
    owner, loaded, result, _ = _record(store, puzzle, instance)
    return _download(owner, loaded, result, owner.instance_key(loaded), format)


def _job_answer(runner, job_id: str) -> tuple[Puzzle, Any, Result]:
    job = job_or_404(runner, job_id)
    if not job.result or not job.result.get("verified"):
        raise InvalidInstance(f"job {job_id}: no verified answer (yet)", "id", 404)
    puzzle = get(job.puzzle)
    return puzzle, puzzle.parse(job.instance), Result.from_dict(job.result)


@router.get("/api/jobs/{job_id}/answer", summary="A finished job's verified answer, its picture and exports",
            response_model=AnswerView, responses=documented(404, 422))
def job_answer(job_id: str, runner: Runner) -> dict[str, Any]:
    puzzle, instance, result = _job_answer(runner, job_id)
    return answer_view(puzzle, instance, result, source="job", base=f"/api/jobs/{job_id}")


@router.get("/api/jobs/{job_id}/export/{format}", summary="A finished job's verified answer in a field's format",
            response_class=Response, responses={**EXPORT, **documented(404, 422)})
def job_export(job_id: str, format: str, runner: Runner) -> Response:
    puzzle, instance, result = _job_answer(runner, job_id)
    return _download(puzzle, instance, result, puzzle.instance_key(instance), format)
