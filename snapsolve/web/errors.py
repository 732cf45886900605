"""Answers other than 200: `ApiError`, the one-line ``{"detail"}`` object, and internal errors logged with an id.

Every refusal the API makes is an `ApiError` whose HTTP status is its kind's
(`snapsolve.errors`); `add_handlers` turns it, an invalid parameter and any
unexpected exception into ``{"detail": "one line"}`` (no stack trace ever
reaches the client: an internal error's detail names an error id, logged
with its traceback).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..errors import Kind

log = logging.getLogger("snapsolve.web")


class ApiError(Exception):
    """An answer other than 200: the error's `kind`, a one-line `detail` for the client, and extra `headers`.

    The HTTP status, `status`, is the kind's (`snapsolve.errors`).
    """

    def __init__(self, kind: Kind, detail: str, headers: dict | None = None):
        super().__init__(detail)
        self.kind, self.detail, self.headers = kind, detail, headers
        self.status = kind.http_status


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


def add_handlers(app: FastAPI) -> None:
    """Answer `ApiError`, invalid parameters (422) and unexpected exceptions (500) with ``{"detail"}``."""

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


#: Every answer other than 200: one line for a person.
ERROR_SCHEMA = {"type": "object", "required": ["detail"], "properties": {"detail": {"type": "string"}}}


def error_doc(description: str, headers: dict | None = None) -> dict:
    """An OpenAPI response of `ERROR_SCHEMA`."""
    answer = {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return {**answer, "headers": headers} if headers else answer


#: The errors every route that uses the worker pool may answer.
POOL_ERRORS: dict[int | str, dict[str, Any]] = {
    "422": error_doc("Not a readable image, not a puzzle, or an invalid parameter (the reason in detail)"),
    "500": error_doc("Internal error: detail names an error id logged with its traceback"),
    "503": error_doc(
        "Too many requests waiting: try again after Retry-After seconds",
        {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    ),
    "504": error_doc("Over the time limit"),
}
