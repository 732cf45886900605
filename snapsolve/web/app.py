"""The web application: the page for the phone and the JSON API (FastAPI), reading in a process pool.

`create_app` joins the routers, one module a job: `solve` (``POST /api/solve``),
`generate` (``GET /api/generate``), `page` (the page and ``GET /api/health``)
and `live` (the live camera's WebSocket); `pool` runs the worker processes,
`upload` reads request bodies under their limits, `errors` makes every
answer other than 200.

Routes
------
``GET /``
    The page (``static/index.html``; its script and style under ``/static``).
``POST /api/solve``
    ``multipart/form-data`` with the photo in a file field (``image``) and
    optional fields ``hint``, ``explain``, ``photo`` (``true``/``1``); or
    ``application/json`` ``{"puzzle": "81 givens [81 entries]",
    "hint": false, "explain": false}``. Answers the ``snapsolve --json``
    object plus the annotated image (see `snapsolve.web.work`).
``GET /api/generate?level=medium&count=4``
    A printable PDF of new puzzles.
``GET /api/health``
    ``{"status": "ok", ...}``.
``WebSocket /api/live``
    The live camera: JPEG frames in, one JSON reading per frame out (see
    `snapsolve.web.live`).
``GET /docs``
    OpenAPI documentation.

With a token (`Settings.token`, made by ``snapsolve serve`` off the
loopback), every ``/api/`` call without it is refused with 401 (see
`snapsolve.web.auth`).

Limits and safety: an upload over MAX_UPLOAD_BYTES (counted while it
streams in) or over 100 megapixels (from its header, or once decoded) is
refused with 413; the content is checked by decoding it, never by its name
or type header (422 when it is no image); the upload and the annotated image
live only in a private temporary folder (mode 0700) removed as soon as the
answer is built; reading runs in a pool of worker processes (`snapsolve.workers`)
with a time limit per request (504 when over; the worker is stopped), so a
slow photo does not stall other requests and a crashing decoder costs only
its own request (500); no stack trace ever reaches the client: errors are
``{"detail": "one line"}``.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .. import __version__
from . import generate, live, page, pool, solve
from .auth import TokenGate
from .errors import ApiError, add_handlers, internal_error
from .page import STATIC
from .pool import RETRY_AFTER
from .settings import Settings
from .upload import MAX_FIELD_BYTES, MAX_UPLOAD_BYTES

__all__ = [
    "MAX_FIELD_BYTES",
    "MAX_UPLOAD_BYTES",
    "RETRY_AFTER",
    "STATIC",
    "ApiError",
    "Settings",
    "create_app",
    "internal_error",
]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, with its worker pool started and stopped by the app's lifespan.

    Parameters
    ----------
    settings : Settings, optional
        Workers, time limit, queue bound, token; defaults to `Settings()`.
    """
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.work = pool.start(settings)
        try:
            yield
        finally:
            pool.stop(app.state.work)

    app = FastAPI(
        title="snapsolve",
        version=__version__,
        lifespan=lifespan,
        description="A photo of a Sudoku in, its solution out. The JSON object is the one of "
        "`snapsolve --json` (docs/DESIGN.md), plus the annotated image.",
    )
    app.state.settings = settings
    add_handlers(app)
    app.include_router(solve.router)
    app.include_router(generate.router)
    app.include_router(page.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(live.router)  # /api/live: the live camera's frames
    if settings.token:
        app.add_middleware(TokenGate, token=settings.token)
    return app
