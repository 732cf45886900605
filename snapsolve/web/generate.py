"""``GET /api/generate``: new puzzles at a chosen level, as a printable PDF (made in a worker)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ..solver.grading import LEVELS
from . import work
from .errors import POOL_ERRORS
from .pool import admitted, in_pool, private_folder

router = APIRouter()


@router.get(
    "/api/generate",
    summary="A printable PDF of new puzzles",
    responses={200: {"content": {"application/pdf": {}}, "description": "The PDF"}, **POOL_ERRORS},
)
async def generate(
    request: Request,
    level: str = Query("medium", description=f"one of {', '.join(LEVELS)}"),
    count: int = Query(4, ge=1, le=work.MAX_GENERATE, description="puzzles, 4 per page"),
    seed: int | None = Query(None, description="the same seed gives the same puzzles"),
):
    """New puzzles with one solution that grade at `level`, as a PDF (4 per page)."""
    async with private_folder(request.app) as folder, admitted(request.app):
        pdf = await in_pool(request.app, work.make_pdf, (str(folder), level, count, seed), "the puzzles")
    return Response(
        pdf, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="sudoku-{level}.pdf"'}
    )
