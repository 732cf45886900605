"""``POST /api/solve``: a photo (multipart) or a puzzle string (JSON or a plain form) in, the ``--json`` object out.

The photo is streamed into the request's private folder (`upload`) and read
in a worker (`work.solve_upload`), a puzzle string solved there too
(`work.solve_puzzle_text`); the answer is the ``snapsolve --json`` object
plus the annotated image (see `snapsolve.web.work`).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import Kind
from . import work
from .errors import POOL_ERRORS, ApiError, error_doc
from .pool import admitted, in_pool, private_folder
from .upload import receive_body, receive_form, receive_json, truthy

router = APIRouter()

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
        "400": error_doc("Malformed request, or a missing or wrong field (detail names the expected one)"),
        "413": error_doc("Over 20 MB or 100 megapixels"),
        "415": error_doc("Neither multipart nor JSON"),
        **POOL_ERRORS,
    },
}


@router.post("/api/solve", openapi_extra=SOLVE_DOC, summary="Solve a photo or a puzzle string")
async def solve(request: Request):
    """Solve an uploaded photo (multipart) or a puzzle string (JSON); the ``--json`` object plus the image."""
    async with admitted(request.app):
        return await _solve_admitted(request)


async def _answer_puzzle(request: Request, puzzle: str, fields: dict) -> JSONResponse:
    options = tuple(truthy(fields.get(k, "")) for k in ("hint", "explain"))
    return JSONResponse(await in_pool(request.app, work.solve_puzzle_text, (puzzle, *options), "the puzzle"))


async def _solve_admitted(request: Request) -> JSONResponse:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    async with private_folder(request.app) as folder:
        if kind == "multipart/form-data":
            form = await receive_form(request, folder)
            if form.path is None:
                if "puzzle" in form.fields:
                    return await _answer_puzzle(request, form.fields["puzzle"], form.fields)
                raise ApiError(Kind.USAGE, "no image: send the photo as the file field 'image'")
            options = tuple(truthy(form.fields.get(k, "")) for k in ("hint", "explain", "photo"))
            return JSONResponse(
                await in_pool(request.app, work.solve_upload, (str(form.path), form.filename, *options), "this photo")
            )
        if kind == "application/x-www-form-urlencoded":  # a plain HTML form: a puzzle, no file
            fields = {k: v[-1] for k, v in parse_qs((await receive_body(request)).decode("utf-8", "replace")).items()}
            if "puzzle" not in fields:
                raise ApiError(Kind.USAGE, "no image: send the photo as the file field 'image' (multipart/form-data)")
            return await _answer_puzzle(request, fields["puzzle"], fields)
        if kind == "application/json":
            data = await receive_json(request)
            if not isinstance(data.get("puzzle"), str):
                raise ApiError(Kind.USAGE, 'no puzzle: send {"puzzle": "81 characters, . or 0 for empty"}')
            return await _answer_puzzle(request, data["puzzle"], data)
        raise ApiError(
            Kind.UNSUPPORTED_MEDIA,
            "send multipart/form-data with the photo in the field 'image', or application/json with a puzzle",
        )
