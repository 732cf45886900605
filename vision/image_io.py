"""Decode and encode image files with clear errors."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

#: Images with more pixels than this are refused (a 600 dpi A3 scan is ~70 Mpx).
MAX_PIXELS = 100_000_000


#: Image files OpenCV decodes.
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
#: Phone photos that need the optional ``heic`` extra (pillow-heif).
HEIF_SUFFIXES = {".heic", ".heif"}


class ImageReadError(ValueError):
    """A file that cannot be decoded as an image."""


def _read_heif(path: str | Path) -> np.ndarray:
    """Decode HEIC/HEIF through pillow-heif (the optional ``heic`` extra)."""
    try:
        import pillow_heif
    except ImportError:
        raise ImageReadError("HEIC images need the optional extra: pip install 'snapsolve[heic]'") from None
    from PIL import Image, ImageOps

    pillow_heif.register_heif_opener()
    try:
        with Image.open(path) as im:
            rgb = np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
    except Exception as exc:
        raise ImageReadError(f"not a readable HEIC image: {exc}") from None
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def read_image(path: str | Path) -> np.ndarray:
    """Decode an image file to BGR, honouring EXIF orientation.

    Parameters
    ----------
    path : str or Path
        Any format OpenCV decodes (JPEG, PNG, TIFF, WebP, BMP, ...). Gray,
        16-bit and alpha images are converted to 8-bit BGR.

    Returns
    -------
    np.ndarray
        Shape (H, W, 3), uint8, BGR.

    Raises
    ------
    ImageReadError
        The file is empty, not an image, truncated beyond decoding, or larger
        than MAX_PIXELS.
    OSError
        The file cannot be read at all.
    """
    data = np.fromfile(str(path), dtype=np.uint8)
    if data.size == 0:
        raise ImageReadError("empty file")
    check_pixel_count(path)
    if Path(path).suffix.lower() in HEIF_SUFFIXES:
        return _read_heif(path)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError("not a readable image (unknown format or corrupt data)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageReadError(f"image of {image.shape[1]}x{image.shape[0]} pixels is over the {MAX_PIXELS:,}-pixel limit")
    return image


def to_gray(image: np.ndarray) -> np.ndarray:
    """Shape (H, W) uint8 gray version of a BGR (H, W, 3) or gray (H, W) uint8 image."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def check_pixel_count(path: str | Path) -> None:
    """Refuse an image over MAX_PIXELS from its header alone, before decoding it.

    Raises
    ------
    ImageReadError
        The header declares more than MAX_PIXELS pixels.
    """
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None  # the limit is ours, checked below
    try:
        with Image.open(path) as im:
            width, height = im.size
    except Exception:  # not a format Pillow knows: OpenCV may still decode it
        return
    if width * height > MAX_PIXELS:
        raise ImageReadError(f"image of {width}x{height} pixels is over the {MAX_PIXELS:,}-pixel limit")


def render_pdf_page(path: str | Path, page: int, dpi: int = 200) -> np.ndarray:
    """Render one PDF page (0-based) to a BGR image with pypdfium2.

    Returns
    -------
    np.ndarray
        Shape (H, W, 3), uint8, BGR, at `dpi` dots per inch.

    Raises
    ------
    ImageReadError
        The PDF cannot be opened or has no such page.
    """
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
        try:
            bitmap = doc[page].render(scale=dpi / 72.0)
            image = bitmap.to_numpy()
        finally:
            doc.close()
    except (pdfium.PdfiumError, IndexError) as exc:
        raise ImageReadError(f"cannot render PDF page {page + 1}: {exc}") from None
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(image[:, :, :3])


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


def write_image(path: str | Path, image: np.ndarray, quality: int = 90) -> None:
    """Encode and write an image atomically (temporary file in the same folder, then rename).

    The format follows the file suffix. Raises OSError when it cannot be written.
    """
    path = Path(path)
    ok, encoded = cv2.imencode(path.suffix or ".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"cannot encode an image as {path.suffix}")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(encoded.tobytes())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
