"""Decode and encode image files with clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .formats import HEIF_SUFFIXES, MAX_PIXELS, ImageReadError, ImageTooLarge, check_pixels, write_atomically


def _declared_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) that a file's header declares, read by Pillow's format plugins themselves, or None.

    ``Image.open`` refuses a header of more than twice Pillow's limit before it tells the size; its
    plugins (``Image.OPEN``, the registry ``Image.register_open`` fills, tried in ``Image.ID``'s order
    as ``Image.open`` tries them) read the header without that check.
    """
    from PIL import Image

    Image.init()
    with open(path, "rb") as fp:
        prefix = fp.read(16)
        for name in Image.ID:
            factory, accept = Image.OPEN[name]
            if accept is not None and not accept(prefix):
                continue
            fp.seek(0)
            try:
                return factory(fp, str(path)).size
            except Exception:  # not this format: the next plugin
                continue
    return None


def _pillow_refused(path: str | Path) -> ImageTooLarge:
    """The refusal of an image whose header Pillow's own limit stopped: its size and our limit, in our words.

    The size comes from `_declared_size`; over MAX_PIXELS it is `check_pixels`' refusal, as for any
    other size. Under it (the user lowered Pillow's limit), the refusal names Pillow's limit.
    """
    from PIL import Image

    size = _declared_size(path)
    if size is None:
        return ImageTooLarge(f"image is over the {MAX_PIXELS:,}-pixel limit")
    try:
        check_pixels(*size)
    except ImageTooLarge as exc:
        return exc
    limit = 2 * (Image.MAX_IMAGE_PIXELS or 0)
    return ImageTooLarge(f"image of {size[0]}x{size[1]} pixels is over Pillow's limit of {limit:,} pixels")


def _heif_opener() -> bool:
    """Let Pillow open HEIC/HEIF through pillow-heif (the optional ``heic`` extra); False when it is missing."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


def _read_heif(path: str | Path) -> np.ndarray:
    """Decode HEIC/HEIF through pillow-heif (the optional ``heic`` extra)."""
    if not _heif_opener():
        raise ImageReadError("HEIC images need the optional extra: pip install 'snapsolve[heic]'")
    import warnings

    from PIL import Image, ImageOps

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                check_pixels(*im.size)
                rgb = np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
    except Image.DecompressionBombError:
        raise _pillow_refused(path) from None
    except ImageReadError:
        raise
    except Exception as exc:
        raise ImageReadError(f"not a readable HEIC image: {exc}") from None
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


#: OpenCV's flags for decoding at 1/1, 1/2, 1/4 and 1/8 of the size (JPEG decodes
#: straight to the smaller size, much faster; other formats are resized).
_REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}
#: The same, decoding to one grey channel (a JPEG's own luminance: no colour conversion).
_REDUCED_GREY = {
    1: cv2.IMREAD_GRAYSCALE,
    2: cv2.IMREAD_REDUCED_GRAYSCALE_2,
    4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
    8: cv2.IMREAD_REDUCED_GRAYSCALE_8,
}


def read_image(path: str | Path, reduce: int = 1, grey: bool = False) -> np.ndarray:
    """Decode an image file to BGR (or grey), honouring EXIF orientation.

    Parameters
    ----------
    path : str or Path
        Any format OpenCV decodes (JPEG, PNG, TIFF, WebP, BMP, ...). Gray,
        16-bit and alpha images are converted to 8-bit BGR.
    reduce : int
        1, 2, 4 or 8: decode at 1/`reduce` of the width and height.
    grey : bool
        Decode to one grey channel instead: a JPEG's own luminance (Y), which
        skips the colour conversion (a 12-megapixel photo at half size in about
        2/3 of the time); other formats are converted by their decoder.

    Returns
    -------
    np.ndarray
        Shape (H, W, 3), uint8, BGR; with `grey`, shape (H, W), uint8.

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
        heif = _read_heif(path)
        if reduce > 1:
            heif = cv2.resize(heif, None, fx=1 / reduce, fy=1 / reduce, interpolation=cv2.INTER_AREA)
        return to_gray(heif) if grey else heif
    image = cv2.imdecode(data, (_REDUCED_GREY if grey else _REDUCED)[reduce])
    if image is None:
        raise ImageReadError("not a readable image (unknown format or corrupt data)")
    check_pixels(image.shape[1] * reduce, image.shape[0] * reduce)
    return image


def is_jpeg(path: str | Path) -> bool:
    """Whether the file's contents are a JPEG (its first bytes, whatever its name); False when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read(3) == b"\xff\xd8\xff"
    except OSError:
        return False


def reduction_for(path: str | Path, min_side: int, longer: bool = False) -> int:
    """The largest decoding reduction (1, 2 or 4) that keeps the image's shorter side (or, with `longer`,
    its longer side) at least `min_side` pixels.

    Reads only the file's header (Pillow); 1 when the size cannot be told.
    """
    size = header_size(path)
    if size is None:
        return 1
    side = max(size) if longer else min(size)
    reduce = 1
    while reduce < 4 and side // (2 * reduce) >= min_side:
        reduce *= 2
    return reduce


def to_gray(image: np.ndarray) -> np.ndarray:
    """Shape (H, W) uint8 gray version of a BGR (H, W, 3) or gray (H, W) uint8 image."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def header_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) in pixels from an image file's header (Pillow), or None for a format Pillow does not know.

    HEIC/HEIF (by the file's suffix) is opened through pillow-heif when it is installed.

    Pillow's process-wide decompression-bomb limit (``PIL.Image.MAX_IMAGE_PIXELS``) is left as it
    is: its warning is silenced here (the caller compares the size with MAX_PIXELS itself).

    A header of more pixels than Pillow opens at all (twice its limit, refused before it tells
    the size) is read by Pillow's format plugins themselves (`_declared_size`).

    Raises
    ------
    ImageReadError
        No plugin reads the size of a header that Pillow refused (`ImageTooLarge`).
    """
    import warnings

    from PIL import Image

    if Path(path).suffix.lower() in HEIF_SUFFIXES and not _heif_opener():
        return None  # read_image says what to install
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                return im.size
    except Image.DecompressionBombError:
        size = _declared_size(path)
        if size is None:
            raise ImageTooLarge(f"image is over the {MAX_PIXELS:,}-pixel limit") from None
        return size
    except Exception:  # not a format Pillow knows: OpenCV may still decode it
        return None


def check_pixel_count(path: str | Path) -> None:
    """Refuse an image over MAX_PIXELS from its header alone, before decoding it.

    Raises
    ------
    ImageReadError
        The header declares more than MAX_PIXELS pixels.
    """
    size = header_size(path)
    if size:
        check_pixels(*size)


def render_pdf_page(path: str | Path, page: int, dpi: int = 200) -> np.ndarray:
    """Render one PDF page (0-based) to a BGR image with pypdfium2.

    Returns
    -------
    np.ndarray
        Shape (H, W, 3), uint8, BGR, at `dpi` dots per inch.

    Raises
    ------
    ImageReadError
        The PDF cannot be opened, has no such page, or the page at `dpi` would
        be over MAX_PIXELS (told from its size in points, before rendering).
    """
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
        try:
            scale = dpi / 72.0
            width, height = (round(side * scale) for side in doc[page].get_size())
            check_pixels(
                width,
                height,
                "PDF page {page} at {dpi} dpi is {width}x{height} pixels, over the {limit:,}-pixel limit",
                page=page + 1,
                dpi=dpi,
            )
            bitmap = doc[page].render(scale=scale)
            image = bitmap.to_numpy()
        finally:
            doc.close()
    except (pdfium.PdfiumError, IndexError) as exc:
        raise ImageReadError(f"cannot render PDF page {page + 1}: {exc}") from None
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(image[:, :, :3])


def encode_image(image: np.ndarray, suffix: str = ".jpg", quality: int = 90) -> bytes:
    """An image encoded as the file format of `suffix`, in memory.

    Parameters
    ----------
    image : np.ndarray
        (H, W, 3) uint8 BGR, or (H, W) uint8 gray.
    suffix : str
        The format, as a file suffix (``".jpg"``, ``".png"``, ...); ``""`` means JPEG.
    quality : int
        JPEG quality, 0 to 100 (other formats ignore it).

    Returns
    -------
    bytes
        The encoded file's contents.

    Raises
    ------
    OSError
        OpenCV cannot encode the image in that format.
    """
    ok, encoded = cv2.imencode(suffix or ".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"cannot encode an image as {suffix}")
    return encoded.tobytes()


def write_image(path: str | Path, image: np.ndarray, quality: int = 90) -> None:
    """Encode (`encode_image`) and write an image atomically (temporary file in the same folder, then rename).

    The format follows the file suffix. Raises OSError when it cannot be encoded or written.
    """
    path = Path(path)
    write_atomically(path, encode_image(image, path.suffix, quality))
