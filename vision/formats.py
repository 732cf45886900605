"""File formats the vision stage accepts, what can be learnt of a file without decoding it, and
writing encoded files atomically.

Kept apart from `image_io` so that finding inputs (``snapsolve.inputs``) and the cluster's client do
not import OpenCV.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from ..errors import Failure, Kind

#: Images with more pixels than this are refused (a 600 dpi A3 scan is ~70 Mpx).
MAX_PIXELS = 100_000_000


#: Image files OpenCV decodes.
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
#: Phone photos that need the optional ``heic`` extra (pillow-heif).
HEIF_SUFFIXES = {".heic", ".heif"}


class ImageReadError(Failure, ValueError):
    """A file that cannot be decoded as an image (`Kind.NOT_AN_IMAGE`)."""

    kind = Kind.NOT_AN_IMAGE


class ImageTooLarge(ImageReadError):
    """An image over the pixel limit, MAX_PIXELS (`Kind.TOO_LARGE`)."""

    kind = Kind.TOO_LARGE


#: check_pixels' refusal unless the caller words it otherwise (users and tests see it).
PIXEL_LIMIT_MESSAGE = "image of {width}x{height} pixels is over the {limit:,}-pixel limit"


def check_pixels(width: int, height: int, message: str = PIXEL_LIMIT_MESSAGE, **fields: object) -> None:
    """Refuse an image of `width` x `height` pixels when it has more than MAX_PIXELS pixels.

    The one comparison with the limit: every reader (header, decoded image,
    HEIC, PDF page, the web's upload) asks this function.

    Parameters
    ----------
    width, height : int
        The image's size, pixels (as declared by a header, decoded, or a PDF
        page's size at the dpi it is rendered at).
    message : str
        The refusal's text, a ``str.format`` template. It may use ``width``,
        ``height``, ``megapixels`` (width * height / 1e6, float), ``limit``
        (MAX_PIXELS), ``limit_megapixels`` (MAX_PIXELS / 1e6, float) and the
        names in `fields`. Default PIXEL_LIMIT_MESSAGE: "image of WxH pixels
        is over the 100,000,000-pixel limit".
    **fields
        More values for `message` (say the page number of a PDF).

    Raises
    ------
    ImageTooLarge
        ``width * height > MAX_PIXELS``, with `message` filled in. An image of
        exactly MAX_PIXELS pixels passes.
    """
    if width * height > MAX_PIXELS:
        raise ImageTooLarge(
            message.format(
                width=width,
                height=height,
                megapixels=width * height / 1e6,
                limit=MAX_PIXELS,
                limit_megapixels=MAX_PIXELS / 1e6,
                **fields,
            )
        )


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
    temporary file behind. The file gets the mode any new file gets (0666
    less the process's umask): the temporary file is created with that mode
    by the system, not owner-only as `tempfile.mkstemp` makes it.

    Raises
    ------
    OSError
        The folder cannot be written to.
    """
    path = Path(path)
    fd, tmp = _new_file(path.parent, path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _new_file(folder: Path, suffix: str) -> tuple[int, Path]:
    """A new file ``.tmp-RANDOM{suffix}`` in `folder`, opened for writing, mode 0666 less the umask.

    Made with ``O_CREAT | O_EXCL`` (a name already there is never opened: another is drawn), as
    `tempfile.mkstemp` does, but with the mode every new file gets.
    """
    for _ in range(100):
        candidate = folder / f".tmp-{secrets.token_hex(8)}{suffix}"
        try:
            return os.open(
                candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666
            ), candidate
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")
