"""Follow a grid from one camera frame to the next without reading it again.

The live view reads a grid in full (`vision.read_grid`: some 100 to 200 ms
for a 640 x 480 frame) only now and then. In between, `follow_grid` finds
the grid's outline again near where it was in the frame before (one
contour pass over a window around it and the same 9 x 9 ruling score as
`locate.locate_grids`, a few milliseconds), and `cell_ink` measures how
much ink each cell's middle holds: the pattern of printed digits is a
fingerprint of the puzzle, so a frame whose cells' ink matches the last full
reading's (`same_cells`) still shows the same puzzle at the same turn.
"""

from __future__ import annotations

import cv2
import numpy as np

from .image_io import to_gray
from .locate import MIN_GRID_SCORE, GridCandidate, _quad_from_contour, binarize, grid_line_score, order_corners

#: Largest move of any corner between two followed frames, as a share of the grid's longest side.
FOLLOW_SHIFT = 0.2
#: A followed outline's area may be this many times larger or smaller than the one before.
FOLLOW_AREA = 1.6
#: Side, pixels, of one cell in the small top-down view `cell_ink` measures.
INK_CELL = 16
#: Share of a cell's side around its centre that `cell_ink` measures (clear of the ruled lines).
INK_WINDOW = 0.6


def _side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())


def near(corners: np.ndarray, previous: np.ndarray, max_shift: float = FOLLOW_SHIFT) -> bool:
    """Whether every corner moved at most `max_shift` of the grid's longest side from `previous`.

    Parameters
    ----------
    corners, previous : array-like
        Shape (4, 2), float, pixels, TL TR BR BL as seen: the grid now and before.
    max_shift : float
        Share of `previous`'s longest side.
    """
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    previous = np.asarray(previous, np.float32).reshape(4, 2)
    return bool(np.linalg.norm(corners - previous, axis=1).max() <= max_shift * _side(previous))


def follow_grid(image: np.ndarray, previous: np.ndarray, max_shift: float = FOLLOW_SHIFT) -> GridCandidate | None:
    """The grid near `previous` in a new frame: its outline within a window around the old one.

    Parameters
    ----------
    image : np.ndarray
        Shape (H, W, 3) BGR or (H, W) gray, uint8: the new frame.
    previous : np.ndarray
        Shape (4, 2), float, pixels: the grid's corners in the frame before
        (TL TR BR BL as seen, as `locate.GridCandidate.corners`).
    max_shift : float
        Largest move of any corner, as a share of the grid's longest side.

    Returns
    -------
    GridCandidate or None
        The outline whose corners (same order, TL TR BR BL as seen) each
        moved at most `max_shift` of a side, whose area changed at most
        FOLLOW_AREA times and whose ruling scores at least
        `locate.MIN_GRID_SCORE` (the best scored when several do); None when
        there is none (the grid left the view, is blurred beyond its lines,
        moved too far, or turned past 45 degrees so that its corners are
        named differently).
    """
    gray = to_gray(image)
    previous = np.asarray(previous, np.float32).reshape(4, 2)
    h, w = gray.shape[:2]
    limit = max_shift * _side(previous)
    x0, y0 = np.maximum(np.floor(previous.min(axis=0) - limit - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(previous.max(axis=0) + limit + 2), [w, h]).astype(int)
    if x1 - x0 < 32 or y1 - y0 < 32:
        return None
    origin = np.array([x0, y0], np.float32)
    ink = binarize(gray[y0:y1, x0:x1])
    local = previous - origin
    area = cv2.contourArea(local)
    # The outlines of the ink's outermost pieces first (the grid's is one, unless a frame or a shadow encloses it),
    # then every outline.
    for mode in (cv2.RETR_EXTERNAL, cv2.RETR_LIST):
        best = _best_outline(ink, local, max_shift, area, cv2.findContours(ink, mode, cv2.CHAIN_APPROX_SIMPLE)[0])
        if best is not None:
            return GridCandidate(best.corners + origin, best.score)
    return None


def _best_outline(ink: np.ndarray, local: np.ndarray, max_shift: float, area: float, contours) -> GridCandidate | None:
    """The best-scored grid outline among `contours` `near` `local` (see `follow_grid`), in `ink`'s pixels."""
    best: GridCandidate | None = None
    for contour in contours:
        if not area / FOLLOW_AREA <= cv2.contourArea(contour) <= area * FOLLOW_AREA:
            continue
        quad = _quad_from_contour(contour)
        if quad is None:
            continue
        quad = order_corners(quad)
        if not near(quad, local, max_shift):
            continue
        if not area / FOLLOW_AREA <= cv2.contourArea(quad) <= area * FOLLOW_AREA:
            continue
        score = grid_line_score(ink, quad)
        if score >= MIN_GRID_SCORE and (best is None or score > best.score):
            best = GridCandidate(quad, score)
    return best


def cell_ink(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Share of ink in the middle of each of the 81 cells, as seen (not turned upright).

    Parameters
    ----------
    image : np.ndarray
        Shape (H, W, 3) BGR or (H, W) gray, uint8.
    corners : np.ndarray
        Shape (4, 2), float, pixels: the grid's corners, TL TR BR BL as seen.

    Returns
    -------
    np.ndarray
        Shape (81,), float32 in 0..1, indexed ``row * 9 + column`` of the
        grid as seen from `corners` (rotation 0): the share of ink pixels
        (`locate.binarize` of a top-down view, INK_CELL pixels a cell) in the
        central INK_WINDOW of the cell.
    """
    gray = to_gray(image)
    n = 9 * INK_CELL
    square = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    H = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), square)
    top = cv2.warpPerspective(gray, H, (n, n), flags=cv2.INTER_AREA)
    ink = (binarize(top) > 0).reshape(9, INK_CELL, 9, INK_CELL)
    pad = int(round(INK_CELL * (1 - INK_WINDOW) / 2))
    middle = ink[:, pad : INK_CELL - pad, :, pad : INK_CELL - pad]
    return middle.mean(axis=(1, 3)).astype(np.float32).ravel()


#: `same_cells`: a cell holds a mark above this share of ink, and is clear below CLEAR_INK (between: either).
MARK_INK, CLEAR_INK = 0.15, 0.05
#: `same_cells`: least correlation of the 81 cells' ink with the reference's.
MIN_INK_CORRELATION = 0.9


def same_cells(ink: np.ndarray, reference: np.ndarray) -> bool:
    """Whether the cells' ink (`cell_ink`) shows the same marks in the same cells as `reference`.

    Parameters
    ----------
    ink, reference : array-like
        Shape (81,), float in 0..1: `cell_ink` of a new frame and of the
        frame last read in full, both as seen from corners named alike.

    Returns
    -------
    bool
        True when no cell went from clearly marked (over MARK_INK) to clearly
        clear (under CLEAR_INK) or back, and the two patterns correlate at
        least MIN_INK_CORRELATION (the digits' ink amounts agree, not only
        their places). A new entry written, a different puzzle, the same
        puzzle turned or shifted by a cell: False.
    """
    ink = np.asarray(ink, np.float64).ravel()
    reference = np.asarray(reference, np.float64).ravel()
    if ink.shape != (81,) or reference.shape != (81,):
        raise ValueError("cell ink must have 81 values")
    changed = ((reference > MARK_INK) & (ink < CLEAR_INK)) | ((reference < CLEAR_INK) & (ink > MARK_INK))
    if changed.any():
        return False
    if ink.std() == 0 or reference.std() == 0:
        return False
    return bool(np.corrcoef(ink, reference)[0, 1] >= MIN_INK_CORRELATION)
