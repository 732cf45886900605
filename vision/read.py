"""Read one located grid: rectify, find cell ink, classify digits, choose the orientation.

Orientation is decided from all digits at once: the crops are classified in
each of the four turns and the turn whose digits lie nearest to the training
digits (smallest median nearest-neighbour distance) wins. A single 6 or 9
cannot tell, twenty-odd digits together can.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cells import find_cell_ink
from .digits import DigitModel, features_of
from .rectify import Rectified, rectify, rotate_cells

#: Probability that a clear digit-sized mark is not a digit.
INK_EMPTY_PROBABILITY = 0.01
#: Probability that a faint mark (see `vision.cells`) is not a digit.
FAINT_EMPTY_PROBABILITY = 0.9


@dataclass(frozen=True)
class GridReading:
    """The digits read from one grid, upright.

    Attributes
    ----------
    corners : np.ndarray
        Shape (4, 2) float32, the grid's corners in the photo (TL TR BR BL as
        they appear in the photo).
    rotation : int
        Degrees (0, 90, 180, 270) the photo was turned to read the grid.
    probabilities : np.ndarray
        Shape (81, 10), float64: per upright cell, probability of empty
        (column 0) and of digits 1..9 (columns 1..9); rows sum to 1.
    rectified : Rectified
        The upright top-down grid and its homographies.
    """

    corners: np.ndarray
    rotation: int
    probabilities: np.ndarray
    rectified: Rectified

    @property
    def digits(self) -> list[int]:
        """Most probable reading: 81 values, 0 for empty."""
        return [int(v) for v in self.probabilities.argmax(axis=1)]

    @property
    def cell_confidence(self) -> np.ndarray:
        """Shape (81,) float64: probability of each cell's most probable class."""
        return self.probabilities.max(axis=1)

    @property
    def confidence(self) -> float:
        """Probability of the most probable reading: product over cells of their top probability."""
        return float(np.prod(self.cell_confidence))


def best_turn(crops: list, model: DigitModel) -> int:
    """Quarter turns (0..3, counter-clockwise) after which the crops look most like training digits.

    All four turns of all crops are measured in one nearest-neighbour query;
    the turn with the smallest median distance wins.
    """
    if not crops:
        return 0
    turned = [np.ascontiguousarray(np.rot90(c, k=turn)) for turn in range(4) for c in crops]
    distances = model.nearest_distances(features_of(turned)).reshape(4, len(crops))
    return int(np.argmin(np.median(distances, axis=1)))


def read_grid(gray: np.ndarray, corners: np.ndarray, model: DigitModel, rotation: int | None = None) -> GridReading:
    """Read the 81 cells of a located grid.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8, the whole photo.
    corners : np.ndarray
        Shape (4, 2), float32 pixels, TL TR BR BL as they appear in the photo.
    model : DigitModel
        The digit classifier.
    rotation : int, optional
        Force this orientation (degrees) instead of deciding it from the digits.

    Returns
    -------
    GridReading
    """
    flat = rectify(gray, corners, 0)
    ink = find_cell_ink(flat.image)
    inked = np.flatnonzero(ink.has_ink)
    if rotation is None:
        rotation = 90 * best_turn([ink.crops[i] for i in inked], model)
    turn = (rotation // 90) % 4
    marked = np.flatnonzero(ink.has_ink | ink.faint)
    turned = [np.ascontiguousarray(np.rot90(ink.crops[i], k=turn)) for i in marked]
    digit_probs = model.predict_proba(features_of(turned))
    probs = np.zeros((81, 10))
    probs[:, 0] = 1.0
    # A clear mark is a digit with a small chance of being a smudge; a faint
    # one is probably empty, with its digit reading kept as the alternative.
    p_empty = np.where(ink.faint[marked], FAINT_EMPTY_PROBABILITY, INK_EMPTY_PROBABILITY)
    probs[marked, 0] = p_empty
    probs[marked, 1:] = digit_probs * (1.0 - p_empty)[:, None]
    probs = rotate_cells(probs, rotation)
    upright = flat if rotation == 0 else rectify(gray, corners, rotation)
    return GridReading(np.asarray(corners, np.float32), rotation, probs, upright)
