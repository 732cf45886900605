"""Request bodies read as they stream in, under their size limits: a photo's multipart form, small JSON and forms.

The photo goes to a file in the request's private folder as it arrives and
is refused (413) as soon as it passes MAX_UPLOAD_BYTES, before the rest is
read; small fields and bodies are held in memory up to MAX_FIELD_BYTES.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from fastapi import Request
from python_multipart.multipart import MultipartParser, parse_options_header

from ..errors import Kind
from ..vision.formats import HEIF_SUFFIXES, IMAGE_SUFFIXES
from .errors import ApiError

#: Largest upload accepted, in bytes (20 MB).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
#: Largest JSON body or form field accepted, in bytes.
MAX_FIELD_BYTES = 64 * 1024
#: Field values read as true (``hint``, ``explain``, ``photo``).
TRUE_WORDS = {"1", "true", "on", "yes"}


def truthy(value) -> bool:
    """A form or JSON field's value as a bool: True, or one of TRUE_WORDS."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in TRUE_WORDS


class FormUpload:
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


async def receive_form(request: Request, folder: Path) -> FormUpload:
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
    upload = FormUpload(folder)
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
