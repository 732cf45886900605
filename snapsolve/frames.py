"""Reading one camera frame for the live view: the main grid's place and reading, nothing drawn.

A frame is a small JPEG (about FRAME_SIDE pixels on its longer side) sent by
the phone page many times a second. It is decoded straight to gray at that
size (no colour, no full-size copy), only the main grid is located and read
(`vision.locate_grids`, `vision.read_grid`), and `pipeline.read_puzzle`
decides, solves and checks it with the warm model, without steps or hints and
without an annotated image.
"""

from __future__ import annotations

import time

import numpy as np

from .errors import Failure, Kind
from .puzzle import Options
from .results import FrameResult

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


def read_frame(gray: np.ndarray, model=None, rotation: int | None = None) -> FrameResult:
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

    Returns
    -------
    FrameResult
        The frame's size (pixels, the frame of every coordinate), its main
        grid (None when no grid is in view; no steps, no hint), the time to
        read it and the processor time this process spent on it (the cost
        without other programs' load), unrounded: `FrameResult.to_json`
        makes its JSON.
    """
    from .pipeline import default_model, read_puzzle
    from .vision import locate_grids, read_grid

    start, cpu = time.perf_counter(), time.process_time()
    model = model or default_model()
    grid = None
    candidates = locate_grids(gray, max_grids=1)
    if candidates:
        reading = read_grid(gray, candidates[0].corners, model, rotation=rotation)
        grid, _ = read_puzzle(reading, FRAME_OPTIONS, model)
    return FrameResult(
        (int(gray.shape[1]), int(gray.shape[0])), grid, time.perf_counter() - start, time.process_time() - cpu
    )


def frame_task(data: bytes, rotation: int | None = None) -> dict:
    """`read_frame` of an encoded frame (`rotation` as there): the task the server's workers run for ``/api/live``.

    Returns
    -------
    dict
        The frame's JSON (`results.FrameResult.to_json`): ``frame_size``
        ``[width, height]``, ``grid`` (the grid object with ``cell_quads``,
        without ``cell_confidence``, or None), ``seconds``, ``cpu_seconds``.

    Raises
    ------
    BadFrame
        The bytes are not an image.
    """
    return read_frame(decode_frame(data), rotation=rotation).to_json()
