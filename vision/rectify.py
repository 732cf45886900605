"""Rectify: the homography from a located grid to a square top-down image."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Side of one cell (pixels) in the rectified grid image.
CELL_SIZE = 48
#: Side of the rectified grid image (pixels).
GRID_SIZE = 9 * CELL_SIZE


@dataclass(frozen=True)
class Rectified:
    """A grid warped top-down.

    Attributes
    ----------
    image : np.ndarray
        Shape (GRID_SIZE, GRID_SIZE), uint8 gray, the grid's outer border on
        the image border.
    homography : np.ndarray
        Shape (3, 3), float64: photo pixels -> rectified pixels.
    inverse : np.ndarray
        Shape (3, 3), float64: rectified pixels -> photo pixels.
    """

    image: np.ndarray
    homography: np.ndarray
    inverse: np.ndarray


def square_corners(size: int = GRID_SIZE) -> np.ndarray:
    """Corners (4, 2) float32 of a size x size square, TL TR BR BL."""
    s = float(size)
    return np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)


def rectify(gray: np.ndarray, corners: np.ndarray, rotation: int = 0, size: int = GRID_SIZE) -> Rectified:
    """Warp the quadrilateral `corners` of `gray` to an upright square.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8.
    corners : np.ndarray
        Shape (4, 2), float32 pixels, TL TR BR BL as they appear in the photo.
    rotation : int
        Degrees (0, 90, 180, 270) the photo is turned: the grid is read after
        turning it back by this much, counter-clockwise.
    size : int
        Side of the output square in pixels.

    Returns
    -------
    Rectified

    Raises
    ------
    ValueError
        Rotation not a multiple of 90.
    """
    if rotation % 90:
        raise ValueError(f"rotation must be a multiple of 90 degrees, got {rotation}")
    turns = (rotation // 90) % 4
    # Photo corner k goes to square corner k - turns: a grid photographed turned
    # 90 degrees clockwise has its upright top-left at the photo's top-right.
    src = np.roll(np.asarray(corners, dtype=np.float32), -turns, axis=0)
    H = cv2.getPerspectiveTransform(src, square_corners(size))
    image = cv2.warpPerspective(gray, H, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return Rectified(image, H, np.linalg.inv(H))


def rotate_cells(values: np.ndarray, rotation: int) -> np.ndarray:
    """Re-index a 9x9 (or 81-long) per-cell array read at rotation 0 to `rotation`.

    Parameters
    ----------
    values : np.ndarray
        Shape (81, ...) indexed by cell of the grid read with rotation 0.
    rotation : int
        Degrees (0, 90, 180, 270), as in `rectify`.

    Returns
    -------
    np.ndarray
        Same shape, indexed by cell of the grid read with `rotation`.
    """
    grid = values.reshape((9, 9) + values.shape[1:])
    return np.rot90(grid, k=(rotation // 90) % 4).reshape(values.shape)
