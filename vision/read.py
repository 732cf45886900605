"""Read one located grid: rectify, find each cell's mark, classify it, choose the orientation.

Orientation is decided from all marks at once: the digit crops are compared
with the printed digits in each of the four turns, and the turn whose crops
lie nearest to them (smallest median nearest-neighbour distance) wins. A
single 6 or 9 cannot tell, twenty-odd digits together can.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cells import CellMarks, find_marks
from .digits import CLASSES, CellClassifier
from .rectify import Rectified, find_lattice, rectify


@dataclass(frozen=True)
class GridReading:
    """What was read from one grid, upright.

    Attributes
    ----------
    corners : np.ndarray
        Shape (4, 2) float32, the grid's corners in the photo (TL TR BR BL as
        they appear in the photo).
    rotation : int
        Degrees (0, 90, 180, 270) the photo was turned to read the grid.
    probabilities : np.ndarray
        Shape (81, len(CLASSES)), float64: per upright cell, the probability
        of each class of `vision.digits.CLASSES` (empty, printed 1..9,
        handwritten 1..9, candidates); rows sum to 1.
    rectified : Rectified
        The upright top-down grid, its lattice and homographies.
    marks : CellMarks
        The upright cells' marks.
    """

    corners: np.ndarray
    rotation: int
    probabilities: np.ndarray
    rectified: Rectified
    marks: CellMarks

    @property
    def classes(self) -> list[int]:
        """Most probable class of each cell: 81 columns of `CLASSES`."""
        return [int(v) for v in self.probabilities.argmax(axis=1)]

    @property
    def givens(self) -> list[int]:
        """The printed digits of the most probable reading: 81 values, 0 where no digit is printed."""
        return [c if 1 <= c <= 9 else 0 for c in self.classes]

    @property
    def given_probabilities(self) -> np.ndarray:
        """Shape (81, 10) float64: probability of no printed digit (column 0) and of printed 1..9."""
        out = np.empty((81, 10))
        out[:, 1:] = self.probabilities[:, 1:10]
        out[:, 0] = 1.0 - out[:, 1:].sum(axis=1)
        return out

    @property
    def cell_confidence(self) -> np.ndarray:
        """Shape (81,) float64: probability of each cell's most probable class."""
        return self.probabilities.max(axis=1)

    @property
    def confidence(self) -> float:
        """Probability of the most probable reading: product over cells of their top probability."""
        return float(np.prod(self.cell_confidence))

    def text(self) -> str:
        """The most probable reading as 81 ``.cells`` tokens (``.``, ``1``-``9``, ``h1``-``h9``, ``c``)."""
        return " ".join(CLASSES[c] for c in self.classes)


def best_turn(crops: list, model: CellClassifier) -> int:
    """Quarter turns (0..3, counter-clockwise) after which the crops look most like printed digits.

    All four turns of all crops are measured in one nearest-neighbour query;
    the turn with the smallest median distance wins.
    """
    if not crops:
        return 0
    turned = [np.ascontiguousarray(np.rot90(c, k=turn)) for turn in range(4) for c in crops]
    distances = model.printed_distances(turned).reshape(4, len(crops))
    return int(np.argmin(np.median(distances, axis=1)))


def read_grid(gray: np.ndarray, corners: np.ndarray, model: CellClassifier, rotation: int | None = None) -> GridReading:
    """Read the 81 cells of a located grid.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8, the whole photo.
    corners : np.ndarray
        Shape (4, 2), float32 pixels, TL TR BR BL as they appear in the photo.
    model : CellClassifier
        The cell classifier.
    rotation : int, optional
        Force this orientation (degrees) instead of deciding it from the marks.

    Returns
    -------
    GridReading
    """
    seen = rectify(gray, corners, 0, lattice=find_lattice(gray, corners))
    marks = find_marks(seen.image)
    if rotation is None:
        rotation = 90 * best_turn([c for c in marks.crops if c is not None], model)
    upright = marks.turned(rotation)
    probs = model.predict_proba(upright)
    return GridReading(np.asarray(corners, np.float32), rotation, probs, seen.turned(rotation), upright)
