"""Read one located grid: rectify, find each cell's mark, classify it, choose the orientation.

Orientation is decided from the marks together (`best_turn`): their shape
tells upright from sideways, and the printed digits they resemble tell up from
down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cells import MARK_FEATURES, CellMarks, find_marks, turn_features
from .digits import CLASSES, PRINTED, CellClassifier
from .rectify import GRID_SIZE, Rectified, find_lattice, rectify, reduce_for


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

    def scaled(self, factor: float) -> GridReading:
        """The same reading located in a photo `factor` times as large (corners, lattice, homographies)."""
        if factor == 1:
            return self
        return GridReading(self.corners * np.float32(factor), self.rotation, self.probabilities,
                           self.rectified.scaled(factor), self.marks)

    def text(self) -> str:
        """The most probable reading as 81 ``.cells`` tokens (``.``, ``1``-``9``, ``h1``-``h9``, ``c``)."""
        return " ".join(CLASSES[c] for c in self.classes)


#: Most crops compared with the printed digits to choose between a half turn and none.
TURN_CROPS = 16


def best_turn(marks: CellMarks, model: CellClassifier) -> int:
    """Quarter turns (0..3, counter-clockwise) after which the grid's marks read upright.

    First the axis: digits are taller than wide, so when the digit-sized marks
    are mostly wider than tall, the photo is on its side (one or three quarter
    turns). Then the direction: the TURN_CROPS marks most like printed digits
    by their layout (handwriting is no guide to orientation) are compared, in
    both remaining turns, with the printed digits in one nearest-neighbour
    query; the turn with the smaller median distance wins. A single 6 or 9
    cannot tell, a dozen digits together can.
    """
    height, width = (MARK_FEATURES.index(n) for n in ("height", "width"))
    digits = np.flatnonzero(marks.present & (np.maximum(marks.features[:, height], marks.features[:, width]) > 0.35))
    if digits.size == 0:
        return 0
    sideways = bool(np.median(marks.features[digits, width] / np.maximum(marks.features[digits, height], 1e-6)) > 1)
    turns = (1, 3) if sideways else (0, 2)
    printed = model.kind_probabilities(turn_features(marks.features[digits], turns[0]))[:, PRINTED]
    chosen = digits[np.argsort(-printed, kind="stable")[:TURN_CROPS]]
    crops = [marks.crops[i] for i in chosen]
    turned = [np.ascontiguousarray(np.rot90(c, k=turn)) for turn in turns for c in crops]
    distances = model.printed_distances(turned).reshape(2, len(crops))
    return turns[int(np.argmin(np.median(distances, axis=1)))]


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
    corners = np.asarray(corners, np.float32)
    side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
    reduced, scale = reduce_for(gray, side, GRID_SIZE)  # one pyramid for the lattice and the resampling
    small = corners * np.float32(scale)
    seen = rectify(reduced, small, 0, lattice=find_lattice(reduced, small)).scaled(1 / scale)
    marks = find_marks(seen.image)
    if rotation is None:
        rotation = 90 * best_turn(marks, model)
    upright = marks.turned(rotation)
    probs = model.predict_proba(upright)
    return GridReading(corners, rotation, probs, seen.turned(rotation), upright)
