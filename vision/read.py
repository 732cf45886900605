"""Read one located grid: rectify, find each cell's mark, classify it, choose the orientation.

Orientation is decided from the marks together (`orient_and_read`): their
shape tells upright from sideways, and the printed digits they resemble tell up
from down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .cells import MARK_FEATURES, CellMarks, find_marks
from .classes import CLASSES, PRINTED, ClassProbabilities, kind_of
from .digits import CellClassifier
from .features import FEATURE_LENGTH, features_of
from .ink import ink_colours
from .rectify import GRID_SIZE, Rectified, find_lattice, lattice_is_regular, rectify, reduce_for, rotate_cells
from .restore import restored_grid
from .strokes import GridStrokes, grid_strokes


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
        of each class of `vision.classes.CLASSES` (empty, printed 1..9,
        handwritten 1..9, candidates); rows sum to 1.
    rectified : Rectified
        The upright top-down grid, its lattice and homographies.
    marks : CellMarks
        The upright cells' marks.
    shapes : np.ndarray or None
        Shape (81, FEATURE_LENGTH) float32: `vision.features.features_of` each
        upright cell's mark as measured for reading it (NaN rows where there
        is no mark), kept so that the grid's print can be compared without
        measuring again; None when not kept.
    inks : np.ndarray or None
        Shape (81, 2) float32: each upright cell's ink colour on the chroma
        plane (`vision.ink.ink_colours`; NaN rows where there is too little
        ink); None when the photo was read in grey only.
    ruling_ink : np.ndarray or None
        Shape (2,) float32: the ruled lines' ink colour, likewise.
    strokes : GridStrokes or None
        `vision.strokes.grid_strokes` of ``rectified.image``, as measured for
        finding the marks, to read the pencilled candidates from; None when
        the grid was measured otherwise turned.
    restored : bool
        The grid was read in a restored image (`vision.restore`: a dark photo
        brightened, a dim grid brought up or a noisy one denoised): its marks
        are surer than the photo's, less sure than a good photo's.
    """

    corners: np.ndarray
    rotation: int
    probabilities: np.ndarray
    rectified: Rectified
    marks: CellMarks
    shapes: np.ndarray | None = None
    inks: np.ndarray | None = None
    ruling_ink: np.ndarray | None = None
    strokes: GridStrokes | None = None
    restored: bool = False

    @property
    def classes(self) -> list[int]:
        """Most probable class of each cell: 81 columns of `CLASSES`."""
        return [int(v) for v in self.probabilities.argmax(axis=1)]

    @property
    def givens(self) -> list[int]:
        """The printed digits of the most probable reading: 81 values, 0 where no digit is printed."""
        return [c if kind_of(c) == PRINTED else 0 for c in self.classes]

    @property
    def given_probabilities(self) -> np.ndarray:
        """Shape (81, 10) float64: probability of no printed digit (column 0) and of printed 1..9."""
        return self.by_kind.givens()

    @property
    def by_kind(self) -> ClassProbabilities:
        """`probabilities` by kind: the empty, printed, handwritten and candidates columns."""
        return ClassProbabilities(self.probabilities)

    @property
    def cell_confidence(self) -> np.ndarray:
        """Shape (81,) float64: probability of each cell's most probable class."""
        return self.probabilities.max(axis=1)

    def scaled(self, factor: float) -> GridReading:
        """The same reading located in a photo `factor` times as large (corners, lattice, homographies)."""
        if factor == 1:
            return self
        return replace(self, corners=self.corners * np.float32(factor), rectified=self.rectified.scaled(factor))

    def text(self) -> str:
        """The most probable reading as 81 ``.cells`` tokens (``.``, ``1``-``9``, ``h1``-``h9``, ``c``)."""
        return " ".join(CLASSES[c] for c in self.classes)


#: Most crops compared with the printed digits to choose between a half turn and none.
TURN_CROPS = 16


def orient_and_read(marks: CellMarks, model: CellClassifier) -> tuple[int, CellMarks, np.ndarray, np.ndarray]:
    """Turn a grid's marks upright and read them, with one neighbour query per model in the usual case.

    First the axis: digits are taller than wide, so when the digit-sized marks
    are mostly wider than tall, the photo is on its side (one or three quarter
    turns). Then the direction: the TURN_CROPS marks most like printed digits
    by their layout (handwriting is no guide to orientation) are compared, in
    both remaining turns, with the printed digits; the turn with the smaller
    median distance to the nearest printed sample wins. A single 6 or 9 cannot
    tell, a dozen digits together can. Every marked cell is measured in the
    first of the two turns (its kind, its shape, its printed digit) in the
    same queries that give those distances, so when the first turn wins (an
    upright or a sideways photo turned the usual way) nothing is queried
    again; otherwise the cells are read anew in the other turn.

    Parameters
    ----------
    marks : CellMarks
        The marks of a grid as rectified (`vision.cells.find_marks`).
    model : CellClassifier

    Returns
    -------
    (int, CellMarks, np.ndarray, np.ndarray)
        The quarter turns (0..3), the marks turned by them, their cells'
        class probabilities (81, len(CLASSES)) float64 (`CellClassifier.predict_proba`),
        and their marks' shape features (81, FEATURE_LENGTH) float32 (NaN rows where there is no mark).
    """
    height, width = (MARK_FEATURES.index(n) for n in ("height", "width"))
    digit_sized = marks.present & (np.maximum(marks.features[:, height], marks.features[:, width]) > 0.35)
    if not digit_sized.any():
        return 0, marks, *_read_marks(marks, model)
    digits = np.flatnonzero(digit_sized)
    sideways = bool(np.median(marks.features[digits, width] / np.maximum(marks.features[digits, height], 1e-6)) > 1)
    turns = (1, 3) if sideways else (0, 2)
    first = marks.turned(90 * turns[0])
    cells = np.flatnonzero(first.present)
    kind = model.kind_probabilities(first.features[cells])
    # The digit-sized marks most like printed digits (ties: the earlier cell as rectified first).
    rectified_cell = rotate_cells(np.arange(81), 90 * turns[0])[cells]
    candidates = np.flatnonzero(digit_sized[rectified_cell])
    chosen = candidates[np.lexsort((rectified_cell[candidates], -kind[candidates, PRINTED]))[:TURN_CROPS]]
    crops = [first.crops[i] for i in cells]
    half_turned = [np.ascontiguousarray(np.rot90(crops[i], k=2)) for i in chosen]
    shapes = features_of(crops + half_turned)
    printed, nearest = model.printed_proba_and_nearest(shapes)
    distances = np.stack([nearest[chosen], nearest[len(cells) :]])
    if int(np.argmin(np.median(distances, axis=1))) == 0:
        n = len(cells)
        return turns[0], first, model.predict_proba(first, kind, shapes[:n], printed[:n]), _by_cell(cells, shapes[:n])
    upright = marks.turned(90 * turns[1])
    return turns[1], upright, *_read_marks(upright, model)


def _by_cell(cells: np.ndarray, shapes: np.ndarray) -> np.ndarray:
    """Shape features of the marked `cells` (m, FEATURE_LENGTH) spread to (81, FEATURE_LENGTH), NaN elsewhere."""
    out = np.full((81, FEATURE_LENGTH), np.nan, np.float32)
    out[cells] = shapes
    return out


def _read_marks(marks: CellMarks, model: CellClassifier) -> tuple[np.ndarray, np.ndarray]:
    """Class probabilities (81, len(CLASSES)) and shape features (81, FEATURE_LENGTH) of upright marks."""
    cells = np.flatnonzero(marks.present)
    shapes = features_of([marks.crops[i] for i in cells])
    return model.predict_proba(marks, shapes=shapes), _by_cell(cells, shapes)


def read_grid(
    gray: np.ndarray,
    corners: np.ndarray,
    model: CellClassifier,
    rotation: int | None = None,
    colour: np.ndarray | Callable[[], np.ndarray | None] | None = None,
    outline: np.ndarray | None = None,
    bent: bool = False,
    lines: np.ndarray | None = None,
) -> GridReading:
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
    colour : np.ndarray or callable, optional
        Shape (h, w, 3), uint8 BGR: the same photo in colour, to measure each
        cell's ink colour (`GridReading.inks`), at `gray`'s size or smaller
        (its pixels scaled by w / W); a grey (h, w) image is no colour and is
        ignored. Or a function that returns it (or None), called once the
        marks are read: a decode running meanwhile.
    outline : np.ndarray, optional
        Shape (n, 2), pixels: a contour along the grid's outer border
        (`locate.GridCandidate.outline`). The lines are followed from the
        corners' homography (`rectify.find_lattice`); when that lattice is not
        regular (`rectify.lattice_is_regular`: a line taken along a digit or a
        page's edge on a bent page), from the Coons patch of this border, if
        that one is.
    bent : bool
        The grid was found only through its outline (`locate.GridCandidate.bent`):
        its lines are followed from the outline first, and from the corners if that is not regular.
    lines : np.ndarray, optional
        Shape (H, W), uint8: the photo to follow the grid's ruled lines in,
        when not `gray` (a blurred photo's sharpened copy,
        `locate.locate_sharpened`); the cells are read in `gray`.

    Returns
    -------
    GridReading
    """
    corners = np.asarray(corners, np.float32)
    side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
    reduced, scale = reduce_for(gray, side, GRID_SIZE)  # one pyramid for the lattice and the resampling
    ruled = reduced if lines is None else reduce_for(lines, side, GRID_SIZE)[0]
    small = corners * np.float32(scale)
    border = None if outline is None else np.asarray(outline, np.float32) * np.float32(scale)
    lattice = find_lattice(ruled, small, border if bent else None)
    if border is not None and not lattice_is_regular(lattice):
        other = find_lattice(ruled, small, None if bent else border)
        if lattice_is_regular(other):
            lattice = other
    seen = rectify(reduced, small, 0, lattice=lattice).scaled(1 / scale)
    rectified_image = seen.image
    restored = restored_grid(rectified_image)  # the same image unless dim or noisy
    if restored is not seen.image:
        seen = replace(seen, image=restored)
    measured = grid_strokes(seen.image)
    marks = find_marks(seen.image, measured)
    if rotation is None:
        turns, upright, probs, shapes = orient_and_read(marks, model)
        rotation = 90 * turns
    else:
        upright = marks.turned(rotation)
        probs, shapes = _read_marks(upright, model)
    grid = seen.turned(rotation)
    inks = ruling = None
    if callable(colour):
        colour = colour()
    if colour is not None and colour.ndim == 3:
        scale = np.float32(colour.shape[1] / gray.shape[1])  # the colour photo may be decoded smaller
        inks, ruling = ink_colours(colour, grid.lattice * scale, grid.image, upright.present)
    strokes = measured if grid is seen else None  # the strokes of the grid as measured, not turned
    was_restored = restored is not rectified_image
    return GridReading(corners, rotation, probs, grid, upright, shapes, inks, ruling, strokes, was_restored)
