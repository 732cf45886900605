"""Decode and encode image files with clear errors."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

#: Images with more pixels than this are refused (a 600 dpi A3 scan is ~70 Mpx).
MAX_PIXELS = 100_000_000


class ImageReadError(ValueError):
    """A file that cannot be decoded as an image."""


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
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError("not a readable image (unknown format or corrupt data)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageReadError(f"image of {image.shape[1]}x{image.shape[0]} pixels is over the {MAX_PIXELS:,}-pixel limit")
    return image


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
