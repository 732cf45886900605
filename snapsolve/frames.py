"""Reading one camera frame for the live view: the main grid's place and reading, nothing drawn.

A frame is a small JPEG (about FRAME_SIDE pixels on its longer side) sent by
the phone page many times a second. It is decoded straight to gray at that
size (no colour, no full-size copy), only the main grid is located and read
(`vision.locate_grids`, `vision.read_grid`), and `pipeline.read_puzzle`
decides, solves and checks it with the warm model, without steps or hints and
without an annotated image.

Once the live view is locked on a puzzle, most frames are only followed
(`follow_frame`, a tenth of a full reading's time): the grid's outline
is found again near where it was (`vision.follow.follow_grid`), the ink of its
81 cells is checked against the frame last read in full
(`vision.follow.same_cells`), and the grid's cell quadrilaterals are made for
the new corners; the answer itself is the locked one. A frame that cannot be
followed is read in full at once.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from .errors import Failure, Kind
from .puzzle import Options
from .results import FollowedFrame, FrameResult

#: Longer side, in pixels, frames are read at (larger ones are reduced first).
FRAME_SIDE = 640
#: Options of a frame's reading: the answer only (no steps, no hint, no image).
FRAME_OPTIONS = Options(write_image=False)


class BadFrame(Failure, ValueError):
    """The frame's bytes do not decode as an image (`Kind.NOT_AN_IMAGE`)."""

    kind = Kind.NOT_AN_IMAGE


def decode_frame(data: bytes) -> np.ndarray:
    """A JPEG (or PNG) frame as gray pixels, reduced to FRAME_SIDE on its longer side when larger.

    Parameters
    ----------
    data : bytes
        The encoded frame.

    Returns
    -------
    np.ndarray
        Shape (H, W), uint8.

    Raises
    ------
    BadFrame
        Empty, or not an image OpenCV decodes.
    """
    import cv2

    if not data:
        raise BadFrame("the frame is empty")
    gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if gray is None:
        raise BadFrame("the frame is not a readable JPEG or PNG image")
    side = max(gray.shape)
    if side > FRAME_SIDE * 1.25:
        scale = FRAME_SIDE / side
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return gray


def read_frame(
    gray: np.ndarray, model=None, rotation: int | None = None, candidates: list | None = None
) -> FrameResult:
    """Locate, read and solve the main grid of one frame.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8: the frame (see `decode_frame`).
    model : CellClassifier, optional
        Defaults to the process's warm model (`pipeline.default_model`).
    rotation : int, optional
        Read the grid turned this many degrees (0, 90, 180, 270) instead of
        deciding its orientation from the marks (which classifies the cells
        up to three times): the live view passes the locked grid's rotation
        while the frames follow it.
    candidates : list of GridCandidate, optional
        ``vision.locate_grids(gray, max_grids=1)`` when already known (not
        located again).

    Returns
    -------
    FrameResult
        The frame's size (pixels, the frame of every coordinate), its main
        grid (None when no grid is in view; no steps, no hint), what later
        frames are followed from (``anchor``: the grid's corners as in its
        JSON and its cells' ink), the time to read it and the processor time
        this process spent on it (the cost without other programs' load),
        unrounded: `results.FrameResult.to_json` makes its JSON.
    """
    from .pipeline import default_model, read_puzzle
    from .results import _round_pixels
    from .vision import locate_grids, read_grid

    start, cpu = time.perf_counter(), time.process_time()
    model = model or default_model()
    grid = anchor = None
    if candidates is None:
        candidates = locate_grids(gray, max_grids=1)
    if candidates:
        located = candidates[0]
        reading = read_grid(gray, located.corners, model, rotation=rotation, outline=located.outline, bent=located.bent)
        grid, _ = read_puzzle(reading, FRAME_OPTIONS, model)
        if grid.corners is not None:
            anchor = _anchor(gray, _round_pixels(grid.corners))
    return FrameResult(
        (int(gray.shape[1]), int(gray.shape[0])),
        grid,
        time.perf_counter() - start,
        time.process_time() - cpu,
        anchor,
    )


def _anchor(gray: np.ndarray, corners: list, ink: list | None = None) -> dict:
    """What later frames are followed from: the grid's corners and its cells' ink (measured here unless given)."""
    from .vision.follow import cell_ink

    if ink is None:
        ink = np.round(cell_ink(gray, np.asarray(corners, np.float32)), 3).tolist()
    return {"corners": corners, "ink": ink}


def follow_frame(gray: np.ndarray, anchor: dict, rotation: int, model=None) -> FollowedFrame | FrameResult:
    """Follow a locked grid into a new frame, or read the frame in full when it cannot be followed.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8: the frame (see `decode_frame`).
    anchor : dict
        ``corners`` (4 x [x, y] pixels, TL TR BR BL as seen) of the grid in
        the frame before, and ``ink`` (81 floats) of its cells in the frame
        last read in full (a `read_frame` or `follow_frame` answer's ``anchor``).
    rotation : int
        Degrees (0, 90, 180, 270) the locked grid is read at.
    model : CellClassifier, optional
        For the full reading, as in `read_frame`.

    Returns
    -------
    FollowedFrame or FrameResult
        A `results.FollowedFrame` when the grid's outline was found within
        `vision.follow.FOLLOW_SHIFT` of a side from the anchor's corners (by
        `vision.follow.follow_grid`, else by `vision.locate_grids`: a frame
        blurred by motion) and its cells' ink matches the anchor's
        (`vision.follow.same_cells`). Otherwise the frame read in full (the
        grid `vision.locate_grids` found, if any): `read_frame`'s answer with
        ``followed`` False. The times of both count the attempt to follow.
    """
    from .vision import locate_grids
    from .vision.follow import cell_ink, follow_grid, near, same_cells

    start, cpu = time.perf_counter(), time.process_time()
    previous = np.asarray(anchor["corners"], np.float32)
    found, located = follow_grid(gray, previous), None
    if found is None:  # lost, or blurred so that its outline breaks: the full search, still near?
        located = locate_grids(gray, max_grids=1)
        found = located[0] if located and near(located[0].corners, previous) else None
    if found is not None and same_cells(cell_ink(gray, found.corners), anchor["ink"]):
        return FollowedFrame(
            (int(gray.shape[1]), int(gray.shape[0])),
            found.corners,
            rotation,
            anchor["ink"],
            time.perf_counter() - start,
            time.process_time() - cpu,
        )
    read = read_frame(gray, model, rotation=rotation, candidates=located)
    return replace(read, followed=False, seconds=time.perf_counter() - start, cpu_seconds=time.process_time() - cpu)


def follow_task(data: bytes, anchor: dict, rotation: int) -> dict:
    """`follow_frame` of an encoded frame: the task the server's workers run for a locked ``/api/live`` connection.

    Raises
    ------
    BadFrame
        The bytes are not an image.
    """
    return follow_frame(decode_frame(data), anchor, rotation).to_json()


def frame_task(data: bytes, rotation: int | None = None) -> dict:
    """`read_frame` of an encoded frame (`rotation` as there): the task the server's workers run for ``/api/live``.

    Returns
    -------
    dict
        The frame's JSON (`results.FrameResult.to_json`): ``frame_size``
        ``[width, height]``, ``grid`` (the grid object with ``cell_quads``,
        without ``cell_confidence``, or None), ``anchor`` (when a grid was
        read), ``seconds``, ``cpu_seconds``.

    Raises
    ------
    BadFrame
        The bytes are not an image.
    """
    return read_frame(decode_frame(data), rotation=rotation).to_json()
