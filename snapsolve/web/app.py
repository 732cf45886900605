"""The web application: the page for the phone and the JSON API (FastAPI), reading in a process pool.

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
answer is built; reading runs in a pool of ``spawn``-started worker processes
with a time limit per request (504 when over; the worker is stopped), so a
slow photo does not stall other requests and a crashing decoder costs only
its own request (500); no stack trace ever reaches the client: errors are
``{"detail": "one line"}``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import multiprocessing
import shutil
import tempfile
import uuid
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from python_multipart.multipart import MultipartParser, parse_options_header

from .. import __version__
from ..batch import warm_worker
from ..errors import Kind, kind_of
from ..solver.grading import LEVELS
from ..vision.formats import HEIF_SUFFIXES, IMAGE_SUFFIXES, MAX_PIXELS
from . import DEFAULT_QUEUE_PER_WORKER, DEFAULT_TIMEOUT, DEFAULT_WORKERS, work
from .auth import TokenGate
from .live import add_live_route

log = logging.getLogger("snapsolve.web")

#: Largest upload accepted, in bytes (20 MB).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
#: Largest JSON body or form field accepted, in bytes.
MAX_FIELD_BYTES = 64 * 1024
#: Folder of the page's files, shipped as package data.
STATIC = Path(__file__).with_name("static")

TRUE_WORDS = {"1", "true", "on", "yes"}
#: Seconds a client told 503 (server busy) is asked to wait before trying again.
RETRY_AFTER = 2


@dataclass
class Settings:
    """How the server works.

    Attributes
    ----------
    workers : int
        Worker processes reading photos (each holds the cell model, about 190 MiB).
    timeout : float
        Seconds one request may run in a worker before it is stopped (504).
    queue_per_worker : int
        Requests that may wait for a busy worker, per worker; beyond them a new
        request gets 503 with ``Retry-After`` before its body is read.
    token : str or None
        The access token every ``/api/`` call must carry (401 otherwise; see
        `snapsolve.web.auth`); None leaves the API open (the loopback default).
    """

    workers: int = DEFAULT_WORKERS
    timeout: float = DEFAULT_TIMEOUT
    queue_per_worker: int = DEFAULT_QUEUE_PER_WORKER
    token: str | None = None

    @property
    def max_pending(self) -> int:
        """Requests admitted at once (running in a worker or waiting for one)."""
        return self.workers * (1 + self.queue_per_worker)


class ApiError(Exception):
    """An answer other than 200: the error's `kind`, a one-line `detail` for the client, and extra `headers`.

    The HTTP status, `status`, is the kind's (`snapsolve.errors`).
    """

    def __init__(self, kind: Kind, detail: str, headers: dict | None = None):
        super().__init__(detail)
        self.kind, self.detail, self.headers = kind, detail, headers
        self.status = kind.http_status


def _truthy(value) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in TRUE_WORDS


class _Upload:
    """State of one streamed ``multipart/form-data`` body: small fields in memory, the first file on disk.

    The file goes to ``folder/upload`` (with its suffix when it is an image
    suffix snapsolve knows, for HEIC). Raises ApiError 413 as soon as the file
    passes MAX_UPLOAD_BYTES, 400 for more than one file or an oversized field.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.fields: dict[str, str] = {}
        self.path: Path | None = None
        self.filename = ""
        self.size = 0
        self._headers: dict[bytes, bytes] = {}
        self._field = self._value = b""
        self._name = ""
        self._sink = None

    def callbacks(self) -> dict:
        return {
            "on_part_begin": self._begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_done,
            "on_part_data": self._data,
            "on_part_end": self._end,
        }

    def _begin(self):
        self._headers, self._field, self._value = {}, b"", b""

    def _header_field(self, data, start, end):
        self._field += data[start:end]

    def _header_value(self, data, start, end):
        self._value += data[start:end]

    def _header_end(self):
        self._headers[self._field.lower()] = self._value
        self._field, self._value = b"", b""

    def _headers_done(self):
        _, params = parse_options_header(self._headers.get(b"content-disposition", b""))
        self._name = params.get(b"name", b"").decode("utf-8", "replace")
        filename = params.get(b"filename")
        if filename is None:
            self._sink = bytearray()
            return
        if self._name != "image":
            raise ApiError(Kind.USAGE, f"send the photo in the form field 'image', not {self._name[:40]!r}")
        if self.path is not None:
            raise ApiError(Kind.USAGE, "send one image per request")
        self.filename = Path(filename.decode("utf-8", "replace").replace("\\", "/")).name[:120] or "upload"
        suffix = Path(self.filename).suffix.lower()
        self.path = self.folder / ("upload" + (suffix if suffix in IMAGE_SUFFIXES | HEIF_SUFFIXES else ""))
        self._sink = open(self.path, "wb")

    def _data(self, data, start, end):
        chunk = data[start:end]
        if isinstance(self._sink, bytearray):
            self._sink += chunk
            if len(self._sink) > MAX_FIELD_BYTES:
                raise ApiError(Kind.USAGE, f"form field {self._name!r} is over {MAX_FIELD_BYTES // 1024} KB")
            return
        self.size += len(chunk)
        if self.size > MAX_UPLOAD_BYTES:
            raise ApiError(Kind.TOO_LARGE, f"the upload is over the {MAX_UPLOAD_BYTES // 2**20} MB limit")
        self._sink.write(chunk)

    def _end(self):
        if isinstance(self._sink, bytearray):
            self.fields[self._name] = self._sink.decode("utf-8", "replace")
        elif self._sink is not None:
            self._sink.close()
        self._sink = None

    def close(self):
        if self._sink is not None and not isinstance(self._sink, bytearray):
            self._sink.close()


async def receive_form(request: Request, folder: Path) -> _Upload:
    """Stream a ``multipart/form-data`` body into `folder`, enforcing the size limits as it arrives.

    Raises
    ------
    ApiError
        413 when the declared or received size is over MAX_UPLOAD_BYTES (plus
        room for the form's fields), 400 when the body is not valid multipart.
    """
    _, params = parse_options_header(request.headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if not boundary:
        raise ApiError(Kind.USAGE, "multipart/form-data without a boundary")
    limit = MAX_UPLOAD_BYTES + 4 * MAX_FIELD_BYTES
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ApiError(Kind.TOO_LARGE, f"the upload is over the {MAX_UPLOAD_BYTES // 2**20} MB limit")
    upload = _Upload(folder)
    parser = MultipartParser(boundary, cast(Any, upload.callbacks()))  # a dict of callbacks, typed alike by no version
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > limit:
                raise ApiError(Kind.TOO_LARGE, f"the upload is over the {MAX_UPLOAD_BYTES // 2**20} MB limit")
            parser.write(chunk)
        parser.finalize()
    except ApiError:
        raise
    except Exception as exc:  # the parser's errors: a malformed body
        raise ApiError(Kind.USAGE, f"malformed multipart body: {type(exc).__name__}") from None
    finally:
        upload.close()
    return upload


async def receive_body(request: Request) -> bytes:
    """A small body (JSON, URL-encoded form) of at most MAX_FIELD_BYTES; ApiError 413 otherwise."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FIELD_BYTES:
            raise ApiError(
                Kind.TOO_LARGE, f"the request body is over {MAX_FIELD_BYTES // 1024} KB (send photos as multipart)"
            )
    return bytes(body)


async def receive_json(request: Request) -> dict:
    """A JSON object body of at most MAX_FIELD_BYTES; ApiError 413 or 400 otherwise."""
    body = await receive_body(request)
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(Kind.USAGE, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(Kind.USAGE, 'send a JSON object: {"puzzle": "...", "hint": false, "explain": false}')
    return data


def internal_error(what: str, exc: BaseException, detail: str = "internal error") -> str:
    """Log an unexpected failure with its traceback under a new error id; the one-line detail for the client.

    The traceback is the one raised in a worker process when there is one (pebble keeps it as
    ``exc.traceback``), else this process's. The client's detail names the id, never the traceback.
    """
    error_id = uuid.uuid4().hex[:12]
    remote = getattr(exc, "traceback", None)
    if isinstance(remote, str):
        log.error("error %s on %s: %r\n%s", error_id, what, exc, remote)
    else:
        log.error("error %s on %s: %r", error_id, what, exc, exc_info=exc)
    return f"{detail} (error id {error_id}; the details are in the server's log)"


#: Every answer other than 200: one line for a person.
ERROR_SCHEMA = {"type": "object", "required": ["detail"], "properties": {"detail": {"type": "string"}}}


def _error(description: str, headers: dict | None = None) -> dict:
    """An OpenAPI response of `ERROR_SCHEMA`."""
    answer = {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return {**answer, "headers": headers} if headers else answer


#: The errors every route that uses the worker pool may answer.
POOL_ERRORS: dict[int | str, dict[str, Any]] = {
    "422": _error("Not a readable image, not a puzzle, or an invalid parameter (the reason in detail)"),
    "500": _error("Internal error: detail names an error id logged with its traceback"),
    "503": _error(
        "Too many requests waiting: try again after Retry-After seconds",
        {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    ),
    "504": _error("Over the time limit"),
}

SOLVE_DOC = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["image"],
                    "properties": {
                        "image": {
                            "type": "string",
                            "format": "binary",
                            "description": "the photo (JPEG, PNG, WebP, TIFF, BMP; HEIC with the heic extra), "
                            "at most 20 MB and 100 megapixels",
                        },
                        "hint": {"type": "boolean", "description": "only the next step, drawn on the photo"},
                        "explain": {"type": "boolean", "description": "every logical step, each with its cells"},
                        "photo": {"type": "boolean", "description": "also send the plain photo back (base64 JPEG)"},
                    },
                }
            },
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["puzzle"],
                    "properties": {
                        "puzzle": {
                            "type": "string",
                            "description": "81 givens ('.' or '0' empty), optionally a "
                            "space and 81 entries (a position)",
                        },
                        "hint": {"type": "boolean"},
                        "explain": {"type": "boolean"},
                    },
                }
            },
        },
    },
    "responses": {
        "200": {
            "description": "The snapsolve --json object, plus image (base64 JPEG of the annotated photo, "
            "or null), image_size, and per grid cell_quads; per step cells.",
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["input", "error", "seconds", "grids", "image"],
                        "properties": {
                            "input": {"type": "string"},
                            "error": {"type": ["string", "null"]},
                            "seconds": {"type": "number"},
                            "grids": {"type": "array"},
                            "image": {"type": ["string", "null"]},
                        },
                    }
                }
            },
        },
        "400": _error("Malformed request, or a missing or wrong field (detail names the expected one)"),
        "413": _error("Over 20 MB or 100 megapixels"),
        "415": _error("Neither multipart nor JSON"),
        **POOL_ERRORS,
    },
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, with its worker pool started and stopped by the app's lifespan.

    Parameters
    ----------
    settings : Settings, optional
        Workers, time limit, queue bound; defaults to `Settings()`.
    """
    settings = settings or Settings()
    state: dict = {"pending": 0}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        from pebble import ProcessPool

        state["root"] = Path(tempfile.mkdtemp(prefix="snapsolve-serve-"))  # mode 0700: private to this user
        state["pool"] = ProcessPool(
            max_workers=settings.workers,
            initializer=warm_worker,
            initargs=(True,),
            context=multiprocessing.get_context("spawn"),
        )
        state["pool"].schedule(work.ping)  # start the workers (and load the model) now, not on the first photo
        try:
            yield
        finally:
            state["pool"].stop()
            state["pool"].join()
            shutil.rmtree(state["root"], ignore_errors=True)

    app = FastAPI(
        title="snapsolve",
        version=__version__,
        lifespan=lifespan,
        description="A photo of a Sudoku in, its solution out. The JSON object is the one of "
        "`snapsolve --json` (docs/DESIGN.md), plus the annotated image.",
    )
    app.state.settings = settings
    app.state.work = state

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())[1:])}: {e.get('msg')}" for e in exc.errors())
        return JSONResponse({"detail": problems or "invalid request"}, status_code=Kind.BAD_PARAMETER.http_status)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception):
        detail = internal_error(f"{request.method} {request.url.path}", exc)
        return JSONResponse({"detail": detail}, status_code=Kind.INTERNAL.http_status)

    async def in_pool(function, args: tuple, what: str):
        """Run `function(*args)` in the pool under the time limit; the worker's refusals become ApiErrors.

        A refusal is an exception whose kind (`snapsolve.errors.kind_of`, by its class) is the
        client's fault: its message goes to the client with the kind's status. Anything else
        is a bug or a fault of the server: 500 with a logged error id.
        """
        from pebble import ProcessExpired

        try:
            future = state["pool"].schedule(function, args=args, timeout=settings.timeout)
            return await asyncio.wrap_future(future)
        except concurrent.futures.TimeoutError:
            raise ApiError(
                Kind.TIMEOUT, f"{what} took longer than the {settings.timeout:g} s limit and was stopped"
            ) from None
        except ProcessExpired as exc:
            raise ApiError(
                Kind.WORKER_DIED,
                internal_error(
                    what,
                    exc,
                    f"the worker process died while working on {what} (exit code {exc.exitcode}); the server goes on",
                ),
            ) from None
        except Exception as exc:
            kind = kind_of(exc)
            if kind.client_error:  # not an image, not a puzzle, too large, an unknown level
                raise ApiError(kind, str(exc)) from None
            raise ApiError(Kind.INTERNAL, internal_error(what, exc)) from None  # a bug: 500, never a 4xx

    @asynccontextmanager
    async def admitted():
        """Count a request from before its body is read to its answer; 503 with Retry-After when too many."""
        if state["pending"] >= settings.max_pending:
            raise ApiError(
                Kind.OVERLOADED,
                f"busy: {state['pending']} requests in progress; try again in {RETRY_AFTER} s",
                {"Retry-After": str(RETRY_AFTER)},
            )
        state["pending"] += 1
        try:
            yield
        finally:
            state["pending"] -= 1

    @app.post("/api/solve", openapi_extra=SOLVE_DOC, summary="Solve a photo or a puzzle string")
    async def solve(request: Request):
        """Solve an uploaded photo (multipart) or a puzzle string (JSON); the ``--json`` object plus the image."""
        async with admitted():
            return await solve_admitted(request)

    async def solve_admitted(request: Request):
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        folder = Path(tempfile.mkdtemp(dir=state["root"]))

        async def answer_puzzle(puzzle: str, fields: dict) -> JSONResponse:
            options = tuple(_truthy(fields.get(k, "")) for k in ("hint", "explain"))
            return JSONResponse(await in_pool(work.solve_puzzle_text, (puzzle, *options), "the puzzle"))

        try:
            if kind == "multipart/form-data":
                form = await receive_form(request, folder)
                if form.path is None:
                    if "puzzle" in form.fields:
                        return await answer_puzzle(form.fields["puzzle"], form.fields)
                    raise ApiError(Kind.USAGE, "no image: send the photo as the file field 'image'")
                options = tuple(_truthy(form.fields.get(k, "")) for k in ("hint", "explain", "photo"))
                return JSONResponse(
                    await in_pool(work.solve_upload, (str(form.path), form.filename, *options), "this photo")
                )
            if kind == "application/x-www-form-urlencoded":  # a plain HTML form: a puzzle, no file
                fields = {
                    k: v[-1] for k, v in parse_qs((await receive_body(request)).decode("utf-8", "replace")).items()
                }
                if "puzzle" not in fields:
                    raise ApiError(
                        Kind.USAGE, "no image: send the photo as the file field 'image' (multipart/form-data)"
                    )
                return await answer_puzzle(fields["puzzle"], fields)
            if kind == "application/json":
                data = await receive_json(request)
                if not isinstance(data.get("puzzle"), str):
                    raise ApiError(Kind.USAGE, 'no puzzle: send {"puzzle": "81 characters, . or 0 for empty"}')
                return await answer_puzzle(data["puzzle"], data)
            raise ApiError(
                Kind.UNSUPPORTED_MEDIA,
                "send multipart/form-data with the photo in the field 'image', or application/json with a puzzle",
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @app.get(
        "/api/generate",
        summary="A printable PDF of new puzzles",
        responses={200: {"content": {"application/pdf": {}}, "description": "The PDF"}, **POOL_ERRORS},
    )
    async def generate(
        level: str = Query("medium", description=f"one of {', '.join(LEVELS)}"),
        count: int = Query(4, ge=1, le=work.MAX_GENERATE, description="puzzles, 4 per page"),
        seed: int | None = Query(None, description="the same seed gives the same puzzles"),
    ):
        """New puzzles with one solution that grade at `level`, as a PDF (4 per page)."""
        folder = Path(tempfile.mkdtemp(dir=state["root"]))
        try:
            async with admitted():
                pdf = await in_pool(work.make_pdf, (str(folder), level, count, seed), "the puzzles")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return Response(
            pdf, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="sudoku-{level}.pdf"'}
        )

    @app.get("/api/health", summary="Is the server up")
    async def health():
        """``{"status": "ok", "version", "workers", "pending", "limits"}``."""
        return {
            "status": "ok",
            "version": __version__,
            "workers": settings.workers,
            "pending": state["pending"],
            "limits": {
                "upload_bytes": MAX_UPLOAD_BYTES,
                "megapixels": MAX_PIXELS // 1_000_000,
                "seconds": settings.timeout,
            },
        }

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_live_route(app)  # /api/live: the live camera's frames (snapsolve.web.live)
    if settings.token:
        app.add_middleware(TokenGate, token=settings.token)
    return app
