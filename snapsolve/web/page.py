"""The page for the phone (``GET /``, its files under ``/static``) and the server's health (``GET /api/health``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from .. import __version__
from ..vision.formats import MAX_PIXELS
from .pool import settings_of, work_of
from .upload import MAX_UPLOAD_BYTES

#: Folder of the page's files, shipped as package data.
STATIC = Path(__file__).with_name("static")

router = APIRouter()


@router.get("/api/health", summary="Is the server up")
async def health(request: Request):
    """``{"status": "ok", "version", "workers", "pending", "limits"}``."""
    settings = settings_of(request.app)
    return {
        "status": "ok",
        "version": __version__,
        "workers": settings.workers,
        "pending": work_of(request.app).pending,
        "limits": {
            "upload_bytes": MAX_UPLOAD_BYTES,
            "megapixels": MAX_PIXELS // 1_000_000,
            "seconds": settings.timeout,
        },
    }


@router.get("/", include_in_schema=False)
async def page():
    return FileResponse(STATIC / "index.html", media_type="text/html")
