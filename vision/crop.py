"""The digit crop of a cell's mark: its central pieces, tight, as ink strength between paper and ink.

A cell's mark may hold pieces that are not its digit (a stroke of the
neighbour's digit, a pencilled note in a corner); the digit is the pieces
centred in the cell and those attached to them. The crop keeps grey levels,
not a binary mask: a blurred photo's faint strokes (the upper loop of an 8
that the threshold filled in) are part of the digit's shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .components import MIN_PIECE_AREA
from .rectify import CELL_SIZE

#: The digit crop keeps the pieces centred in this central share of the cell (when there are any).
CENTRAL = (0.25, 0.75)
#: ... and the pieces that reach within this share of a cell of those pieces' bounding box: a part of the same
#: digit written as a stroke of its own (a 5's top bar, a 4's upright, a 3's top arc that the photo broke off),
#: whose own centre lies off the cell's middle.
ATTACHED_GAP = 0.03


@dataclass(frozen=True)
class PieceTable:
    """A grid's labelled pieces of ink, as `vision.cells.find_marks` measures them.

    Attributes
    ----------
    labels : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), int32: each pixel's piece (`components.connected_components`).
    boxes : list
        Per label [x, y, width, height, area] (pixels; Python ints, cheap to index one at a time).
    member : np.ndarray
        Shape (len(boxes),), bool, all False: a lookup table over the labels (`mask`), left all False.
    """

    labels: np.ndarray
    boxes: list
    member: np.ndarray

    def mask(self, pieces: list[int], box: tuple[int, int, int, int]) -> np.ndarray:
        """Shape of `box` (x0, y0, x1, y1), bool: the pixels of `pieces` within it."""
        x0, y0, x1, y1 = box
        self.member[pieces] = True
        inside = self.member[self.labels[y0:y1, x0:x1]]
        self.member[pieces] = False
        return inside


@dataclass(frozen=True)
class CropLevels:
    """The grey levels a crop's ink strength is measured between.

    Attributes
    ----------
    paper : float
        The cell's paper grey level (ink strength 0).
    ink : float
        The mark's darkest grey level (its 5th percentile; ink strength 255).
    papers : np.ndarray or None
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the grid's paper level at each pixel, when a shadow's edge
        crosses the cell so that no one grey level is its paper (`vision.cells.SHADOW_STEP`); else None.
    """

    paper: float
    ink: float
    papers: np.ndarray | None = None


def digit_crop(table: PieceTable, pieces: list[int], cell: int, gray: np.ndarray, levels: CropLevels) -> np.ndarray:
    """Ink-strength crop of the pieces of a cell's mark centred in the cell and those attached to them (all
    its pieces when none is centred; `_with_attached`).

    Tight around those pieces; each pixel within two pixels of them is its
    darkness between the cell's paper grey level (0) and the mark's darkest
    ink (255), and 0 elsewhere. With ``levels.papers`` the darkness is each
    pixel's share of the light its own paper reflects (1 - grey / paper
    level), and 255 is the mark's 95th percentile of it.

    Parameters
    ----------
    table : PieceTable
        The grid's pieces.
    pieces : list of int
        The labels of the cell's mark.
    cell : int
        The cell (0..80, row-major).
    gray : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the rectified grid.
    levels : CropLevels
        The paper and ink levels.

    Returns
    -------
    np.ndarray
        Shape (h, w), uint8: 0 paper .. 255 darkest ink.
    """
    n = CELL_SIZE
    boxes = table.boxes
    r, c = divmod(cell, 9)
    x0, y0 = c * n, r * n
    lo, hi = CENTRAL
    central = []
    for p in pieces:
        x, y, w, h, area = boxes[p]
        cx, cy = (x + w / 2 - x0) / n, (y + h / 2 - y0) / n
        if lo <= cx <= hi and lo <= cy <= hi and area >= 2 * MIN_PIECE_AREA * n * n:
            central.append(p)
    chosen = _with_attached(central, pieces, boxes) if central else pieces
    box = bounding_box(chosen, boxes)
    bx0, by0, bx1, by1 = box
    mask = table.mask(chosen, box)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    if levels.papers is None:
        level = (levels.paper - gray[by0:by1, bx0:bx1].astype(np.float32)) / max(levels.paper - levels.ink, 1.0)
    else:
        share = 1.0 - gray[by0:by1, bx0:bx1].astype(np.float32) / np.maximum(levels.papers[by0:by1, bx0:bx1], 1)
        level = share / max(float(np.percentile(share[mask], 95)), 1e-3)
    return (np.clip(level, 0, 1) * near * 255).astype(np.uint8)


def bounding_box(pieces: list[int], boxes: list) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around the given pieces, pixels of the grid image (`boxes`: per label x, y, w, h, area)."""
    x0, y0, w, h, _ = boxes[pieces[0]]
    x1, y1 = x0 + w, y0 + h
    for p in pieces[1:]:
        x, y, w, h, _ = boxes[p]
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
    return x0, y0, x1, y1


def _with_attached(chosen: list[int], pieces: list[int], boxes: list) -> list[int]:
    """`chosen` and every other of `pieces` whose bounding box reaches within ATTACHED_GAP of a cell of theirs.

    Grown until no more piece is attached (a piece attached to an attached piece is taken too). `boxes` holds
    per label x, y, width, height, area (Python ints).
    """
    gap = ATTACHED_GAP * CELL_SIZE
    chosen = list(chosen)
    rest = [p for p in pieces if p not in chosen]
    grown = True
    while grown and rest:
        x0, y0, x1, y1 = bounding_box(chosen, boxes)
        near = [
            p
            for p in rest
            if boxes[p][0] <= x1 + gap
            and boxes[p][0] + boxes[p][2] >= x0 - gap
            and boxes[p][1] <= y1 + gap
            and boxes[p][1] + boxes[p][3] >= y0 - gap
        ]
        grown = bool(near)
        chosen += near
        rest = [p for p in rest if p not in near]
    return chosen
