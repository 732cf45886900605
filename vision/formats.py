"""File formats the vision stage accepts, what can be learnt of a file without decoding it, and
writing encoded files atomically.

Kept apart from `image_io` so that finding inputs (``snapsolve.inputs``) and the cluster's client do
not import OpenCV.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: Images with more pixels than this are refused (a 600 dpi A3 scan is ~70 Mpx).
MAX_PIXELS = 100_000_000


#: Image files OpenCV decodes.
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
#: Phone photos that need the optional ``heic`` extra (pillow-heif).
HEIF_SUFFIXES = {".heic", ".heif"}


class ImageReadError(ValueError):
    """A file that cannot be decoded as an image."""


def pdf_page_count(path: str | Path) -> int:
    """Number of pages of a PDF. Raises ImageReadError when it is not a readable PDF."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise ImageReadError(f"not a readable PDF: {exc}") from None
    try:
        return len(doc)
    finally:
        doc.close()


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename.

    A reader never sees a half-written file, and a failed write leaves no
    temporary file behind.

    Raises
    ------
    OSError
        The folder cannot be written to.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
