"""The web server's work, run in its worker processes: a photo, a puzzle string or a PDF of new puzzles.

Every function here takes and returns plain picklable values (paths,
strings, dicts, bytes) so that it runs in a worker process of the
server's process pool; none imports the web framework. A result is the JSON
object of ``docs/DESIGN.md`` (as ``snapsolve --json`` prints it) with fields
added for the page; the JSON, the page's per-grid and per-step fields too, is
made by `results.InputResult.to_json` (``with_cells``), and this module adds
only the images:

- ``image``: the annotated photo (the answers or the hint drawn, as on the
  command line) as base64 JPEG, at most IMAGE_SIDE pixels on its longer side;
  ``photo``: the plain photo the same way (when asked for); ``image_size``:
  ``[width, height]`` of the full photo in pixels, the frame of ``corners``
  and ``cell_quads`` (the JPEGs are smaller: scale by their own size);
- per grid ``cell_quads``: 81 quadrilaterals (4 x [x, y] pixels of the full
  photo), one per upright cell ``row * 9 + column``, for drawing steps on the
  photo (`vision.rectify.cell_quads`);
- per step (``steps``, ``hint``) ``cells``: the cells carrying the pattern.
"""

from __future__ import annotations

import base64
from pathlib import Path

from ..errors import Failure, Kind
from ..puzzle import Options, solve_text

#: Longest side, in pixels, of the JPEGs sent back (the phone shows them a few hundred pixels wide).
IMAGE_SIDE = 1600
#: JPEG quality of the images sent back.
JPEG_QUALITY = 85
#: Largest number of puzzles one generated PDF may hold.
MAX_GENERATE = 12


class BadInput(Failure, ValueError):
    """The request's content cannot be worked on (`Kind.BAD_PARAMETER`: the server answers 422 with the message)."""

    kind = Kind.BAD_PARAMETER


class InputTooLarge(BadInput):
    """The upload declares more pixels than the limit (`Kind.TOO_LARGE`: the server answers 413)."""

    kind = Kind.TOO_LARGE


class NotAnImage(BadInput):
    """The upload does not decode as an image (`Kind.NOT_AN_IMAGE`: the server answers 422)."""

    kind = Kind.NOT_AN_IMAGE


class NotAPuzzle(BadInput):
    """The puzzle string is malformed: wrong length, unknown characters (`Kind.NOT_A_PUZZLE`: 422)."""

    kind = Kind.NOT_A_PUZZLE


#: The upload's refusal by the kind of the pipeline's failure to read it.
_REFUSALS: dict[Kind, type[BadInput]] = {Kind.TOO_LARGE: InputTooLarge, Kind.NOT_AN_IMAGE: NotAnImage}


def ping() -> bool:
    """Nothing: a task that makes the pool start its workers."""
    return True


def _jpeg_base64(image) -> str:
    """A BGR uint8 image, shrunk to IMAGE_SIDE at most, as base64 JPEG text."""
    import cv2

    side = max(image.shape[:2])
    if side > IMAGE_SIDE:
        scale = IMAGE_SIDE / side
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise OSError("cannot encode the image as JPEG")
    return base64.b64encode(data.tobytes()).decode("ascii")


def _read_small(path: Path):
    """Decode an image at the largest reduction (1, 2, 4) that keeps its longer side at least IMAGE_SIDE."""
    from ..vision import read_image
    from ..vision.image_io import reduction_for

    return read_image(path, reduction_for(path, IMAGE_SIDE, longer=True))


def check_upload(path: Path) -> tuple[int, int] | None:
    """Refuse an upload by its header: over the pixel limit raises InputTooLarge; returns (width, height) or None.

    Raises
    ------
    InputTooLarge
        The header declares more than ``vision.formats.MAX_PIXELS`` pixels.
    NotAnImage
        The file is empty.
    """
    from ..vision.formats import MAX_PIXELS, ImageTooLarge, check_pixels
    from ..vision.image_io import header_size

    if path.stat().st_size == 0:
        raise NotAnImage("the upload is empty")
    try:
        size = header_size(path)
    except ImageTooLarge:  # a header over Pillow's own limit whose size no plugin could read
        raise InputTooLarge(f"the image is over the limit of {MAX_PIXELS / 1e6:.0f} megapixels") from None
    if size:
        try:
            check_pixels(
                *size,
                "the image is {width}x{height} = {megapixels:.0f} megapixels; "
                "the limit is {limit_megapixels:.0f} megapixels",
            )
        except ImageTooLarge as exc:
            raise InputTooLarge(str(exc)) from None
    return size


def solve_upload(path: str, label: str, hint: bool = False, explain: bool = False, photo: bool = False) -> dict:
    """Read, solve and draw one uploaded photo; the JSON object of ``--json`` plus the page's fields.

    Parameters
    ----------
    path : str
        The uploaded file, in a private temporary folder (the caller removes it).
    label : str
        The result's ``input`` (the file name the client gave).
    hint, explain : bool
        As ``--hint`` and ``--explain``.
    photo : bool
        Also send the plain photo back (``photo``), for drawing steps on it.

    Returns
    -------
    dict
        The result object, with ``image`` (base64 JPEG or None when nothing
        was solved), ``image_size``, per grid ``cell_quads``, per step ``cells``.

    Raises
    ------
    InputTooLarge
        Over the pixel limit (from the header, or once decoded).
    NotAnImage
        Empty, or does not decode as an image.
    """
    from ..pipeline import default_model, solve_and_draw
    from ..vision import ImageReadError

    file = Path(path)
    size = check_upload(file)
    options = Options(explain=explain, hint=hint)
    result, annotated = solve_and_draw(file, options, default_model(), label=label)
    refusal = _REFUSALS.get(result.kind) if result.kind else None
    if refusal is not None:  # the photo could not be read: the client's fault, said in the same words
        assert result.error is not None  # a result with a kind has its error
        reason = result.error.removeprefix("cannot read image: ")
        if refusal is InputTooLarge:
            raise InputTooLarge(f"the image is over the limit: {reason}")
        raise NotAnImage(reason if reason.startswith("not a readable image") else f"not a readable image: {reason}")
    data = result.to_json(with_cells=True)
    image = None
    try:
        plain = _read_small(file) if photo else None
        if annotated is not None:
            image = _jpeg_base64(annotated)
        data["photo"] = _jpeg_base64(plain) if photo and plain is not None else None
    except (ImageReadError, OSError) as exc:
        raise NotAnImage(f"not a readable image: {exc}") from None
    if size is None:  # a format Pillow does not know: the decoded size
        full = _read_small(file) if plain is None else plain
        size = (full.shape[1], full.shape[0])
    data["image"] = image
    data["image_size"] = list(size)
    return data


def solve_puzzle_text(text: str, hint: bool = False, explain: bool = False) -> dict:
    """Solve a puzzle string (81 givens, optionally whitespace and 81 entries); the ``--json`` object.

    The result's ``input`` is ``puzzle``; ``image`` is None. A readable
    puzzle without exactly one solution gives the object with its ``error``
    and ``status`` set.

    Raises
    ------
    NotAPuzzle
        The string is not a puzzle (see `solver.parse_position`).
    """
    from ..solver import InvalidPuzzleError, parse_position

    try:
        parse_position(text)
    except InvalidPuzzleError as exc:
        raise NotAPuzzle(f"not a puzzle: {exc}") from None
    result = solve_text("puzzle", text, Options(write_image=False, explain=explain, hint=hint))
    data = result.to_json(with_cells=True)
    data["image"] = None
    return data


def make_pdf(folder: str, level: str, count: int, seed: int | None = None) -> bytes:
    """A printable PDF of `count` new puzzles (4 per page) that grade at `level`; the file's bytes.

    The PDF is written in `folder` (the request's private folder) and read back.

    Raises
    ------
    BadInput
        Unknown level, or count outside 1..MAX_GENERATE.
    RuntimeError
        The generator could not reach the level.
    """
    from ..generate import write_pages
    from ..solver.generator import generate
    from ..solver.grading import LEVELS

    if level not in LEVELS:
        raise BadInput(f"unknown level {level!r} (use one of {', '.join(LEVELS)})")
    if not 1 <= count <= MAX_GENERATE:
        raise BadInput(f"count must be 1 to {MAX_GENERATE}")
    puzzles = list(generate(level, count, seed=seed))
    target = Path(folder) / f"sudoku-{level}.pdf"
    write_pages(puzzles, level, target, 4)
    return target.read_bytes()
