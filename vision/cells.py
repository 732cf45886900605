"""Cell marks: find the mark in each of the 81 cells of a rectified grid and measure it.

The grid's strokes (`vision.strokes`: its ink without the ruled lines) are cut
into connected pieces (`vision.components`), and each piece belongs to the
cell that holds most of it: a digit that overflows into its neighbour is still
read in its own cell and leaves nothing behind in the other. Leftovers of the
ruling, shadow edges, specks, and marks much fainter than the darkest mark of
the same cell (print showing through from the other side of the page behind a
pencilled digit) are dropped.

What is left in a cell is its *mark*, described by `MARK_FEATURES` (size and
position in the cell, ink area, number of pieces, contrast relative to the
grid's print, stroke width): enough to tell a printed given, a handwritten
digit, small pencilled candidates, faint show-through and an empty cell apart
(`vision.digits`). The mark's central pieces are also cropped for reading its
digit (`vision.crop`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .components import mark_pieces
from .crop import CropLevels, PieceTable, bounding_box, digit_crop
from .lighting import paper_level
from .rectify import CELL_SIZE, rotate_cells
from .strokes import GridStrokes, grid_strokes

#: Names of the columns of `CellMarks.features`, in order. Sizes and positions
#: are shares of a cell; `relative_contrast` is the mark's contrast over the
#: grid's typical digit contrast; `stroke_width` is twice the mean distance
#: from ink to paper inside the mark, as a share of a cell.
MARK_FEATURES = (
    "height",
    "width",
    "centre_x",
    "centre_y",
    "ink_area",
    "pieces",
    "largest_height",
    "relative_contrast",
    "stroke_width",
)


#: A cell's paper is not one grey level when its level (`_shadowed_cells`) varies within it by at least this
#: share of its brightest: a shadow's edge crosses it, and its mark's crop is measured against the paper beside
#: each pixel (`vision.crop.digit_crop`); against one level, print on the edge would look faint or broken, and
#: unlike the grid's other copies of its digit.
SHADOW_STEP = 0.15

#: A piece fainter than this share of its cell's darkest piece shows through from the other side.
MIN_RELATIVE_PIECE_CONTRAST = 0.5

#: A piece smaller than this share of its cell's largest piece, and not next to it, is a speck.
SPECK_SHARE = 0.3

#: "Next to" for specks: within this share of a cell of the largest piece's bounding box.
SPECK_GAP = 0.08


@dataclass(frozen=True)
class CellMarks:
    """The marks found in the 81 cells of a rectified grid.

    Attributes
    ----------
    present : np.ndarray
        Shape (81,), bool: the cell holds a mark.
    features : np.ndarray
        Shape (81, len(MARK_FEATURES)), float32: the mark's description
        (zeros where there is none).
    crops : list
        81 entries: a uint8 ink-strength crop (0 paper .. 255 darkest ink) of
        the mark's central piece(s), tight around them, or None where there
        is no mark.
    at_ruling : np.ndarray
        Shape (81,), bool: the mark's strokes border ink taken away as ruling
        (at least RULING_CONTACT pixels next to it), so a stroke of it may
        have gone with a ruled line (`reaches_a_line` for the other test).
    """

    present: np.ndarray
    features: np.ndarray
    crops: list
    at_ruling: np.ndarray

    def turned(self, rotation: int) -> CellMarks:
        """The same marks as read after turning the grid image by `rotation` degrees counter-clockwise.

        Cell order follows `vision.rectify.rotate_cells`; crops and the
        features that depend on direction (`turn_features`) are turned with them.
        """
        turns = (rotation // 90) % 4
        if turns == 0:
            return self
        order = rotate_cells(np.arange(81), rotation)
        features = turn_features(self.features[order], turns)
        features[~self.present[order]] = 0.0
        crops = [
            None if self.crops[i] is None else np.ascontiguousarray(np.rot90(self.crops[i], k=turns)) for i in order
        ]
        return CellMarks(self.present[order], features, crops, self.at_ruling[order])


def turn_features(features: np.ndarray, turns: int) -> np.ndarray:
    """Mark features (n, len(MARK_FEATURES)) of marks turned by `turns` quarter turns counter-clockwise.

    Height and width swap; the centre (x, y), as a share of the cell, goes
    to (y, 1 - x) per quarter turn. Returns a new float32 array.
    """
    out = np.array(features, np.float32, copy=True)
    h, w, x, y = (MARK_FEATURES.index(n) for n in ("height", "width", "centre_x", "centre_y"))
    for _ in range(turns % 4):
        out[:, [h, w]] = out[:, [w, h]]
        out[:, [x, y]] = np.stack([out[:, y], 1.0 - out[:, x]], axis=1)
    return out


#: A mark with at least this many stroke pixels next to ink taken away as ruling touches a ruled line
#: (`CellMarks.at_ruling`): a stroke of it may have gone with the line (a 2's base written along the bottom
#: line, the rest reading as a 7) though what is left lies clear of the cell's edges.
RULING_CONTACT = 3

#: A mark whose bounding box comes nearer than this share of a cell to the
#: cell's edge reaches a ruled line (`reaches_a_line`).
LINE_TOUCH = 0.05


def reaches_a_line(features: np.ndarray) -> np.ndarray:
    """Whether each mark reaches a ruled line of its cell, where a stroke of it may be lost.

    `strokes_of` puts the ruling back only where a stroke crosses it: a
    stroke that lies along a ruled line (a 2's base written on the cell's
    bottom line, a 7's bar on its top line) goes with the ruling, and what is
    left can read as another digit (that 2 as a 7). A mark whose bounding box
    comes within LINE_TOUCH of its cell's edge may be such a mark.

    Parameters
    ----------
    features : np.ndarray
        Shape (n, len(MARK_FEATURES)), float: marks as `find_marks` describes them.

    Returns
    -------
    np.ndarray
        Shape (n,), bool.
    """
    f = np.asarray(features, np.float64).reshape(-1, len(MARK_FEATURES))
    half_w = f[:, MARK_FEATURES.index("width")] / 2
    half_h = f[:, MARK_FEATURES.index("height")] / 2
    x, y = f[:, MARK_FEATURES.index("centre_x")], f[:, MARK_FEATURES.index("centre_y")]
    margin = np.minimum.reduce([x - half_w, 1.0 - x - half_w, y - half_h, 1.0 - y - half_h])
    return margin < LINE_TOUCH


def _paper_levels(gray: np.ndarray, ink: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Median grey level of each given cell's paper (its pixels without ink, borders excluded).

    Parameters
    ----------
    gray, ink : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the rectified grid and its ink mask.
    cells : np.ndarray
        Shape (k,), int, cell indices (0..80, row-major).

    Returns
    -------
    np.ndarray
        Shape (k,), float64 grey levels (0..255); 255 for a cell with no paper
        pixel. Exactly `np.median` of each cell's paper pixels, computed from one
        256-bin histogram per cell.
    """
    n, m = CELL_SIZE, CELL_SIZE // 16
    rows, cols = np.divmod(np.asarray(cells, np.int64), 9)
    inner = (slice(m, n - m),)
    levels = gray.reshape(9, n, 9, n)[rows, inner[0], cols, inner[0]].astype(np.int64)  # (k, n-2m, n-2m)
    on_ink = ink.reshape(9, n, 9, n)[rows, inner[0], cols, inner[0]] > 0
    levels[on_ink] = 256  # out of the histogram's paper bins
    hist = np.bincount((levels + 257 * np.arange(len(rows))[:, None, None]).ravel(), minlength=257 * len(rows)).reshape(
        len(rows), 257
    )[:, :256]
    count = hist.sum(axis=1)
    cumulative = hist.cumsum(axis=1)
    lower = (cumulative <= ((count - 1) // 2)[:, None]).sum(axis=1)  # the middle order statistics' grey levels
    upper = (cumulative <= (count // 2)[:, None]).sum(axis=1)
    return np.where(count > 0, (lower + upper) / 2.0, 255.0)


def _percentile(ascending: np.ndarray, q: float) -> float:
    """`np.percentile(values, q)` (linear method) of values already sorted ascending, without its overhead."""
    position = (len(ascending) - 1) * (q / 100)
    below = int(position)
    above = min(below + 1, len(ascending) - 1)
    a, b, t = float(ascending[below]), float(ascending[above]), position - below
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def find_marks(grid_image: np.ndarray, strokes: GridStrokes | None = None) -> CellMarks:
    """Find and describe the mark in every cell of a rectified grid.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray, ruling at multiples of
        CELL_SIZE (see `vision.rectify`), upright or not.
    strokes : GridStrokes, optional
        `vision.strokes.grid_strokes` of `grid_image` when the caller has them (else measured here).

    Returns
    -------
    CellMarks
        Cells in row-major order of `grid_image` as given.
    """
    gray = grid_image
    measured = grid_strokes(gray) if strokes is None else strokes
    labels, stats, cell_of, darkness = mark_pieces(measured.strokes, gray, measured.components)
    # ink taken away as ruling, grown by a pixel: a mark's strokes on it border a stroke that may have gone
    next_to_ruling = cv2.dilate(cv2.subtract(measured.ink, measured.strokes), np.ones((3, 3), np.uint8))
    by_cell: dict[int, list[int]] = {}
    for label in np.flatnonzero(cell_of >= 0).tolist():
        by_cell.setdefault(int(cell_of[label]), []).append(label)
    table = PieceTable(labels, stats.tolist(), np.zeros(len(stats), bool))
    papers = dict(zip(by_cell, _paper_levels(gray, measured.ink, np.array(list(by_cell), np.int64)).tolist()))
    shades = darkness.tolist()
    shadowed, papers_map = _shadowed_cells(gray) if by_cell else (np.zeros(81, bool), gray)  # no mark: unused
    present, at_ruling = np.zeros(81, bool), np.zeros(81, bool)
    features = np.zeros((81, len(MARK_FEATURES)), np.float32)
    contrast = np.zeros(81, np.float32)
    crops: list = [None] * 81
    for idx, found in by_cell.items():
        pieces = _mark_pieces(found, papers[idx], shades, table.boxes)
        if not pieces:
            continue
        mark = _measure(table, pieces, idx, gray, papers[idx], next_to_ruling)
        present[idx], features[idx], contrast[idx], at_ruling[idx] = True, mark.features, mark.contrast, mark.at_ruling
        # under a shadow's edge, each pixel's darkness is measured against the paper's own level beside it
        levels = CropLevels(papers[idx], mark.ink, papers_map if shadowed[idx] else None)
        crops[idx] = digit_crop(table, pieces, idx, gray, levels)
    tall = present & (features[:, MARK_FEATURES.index("height")] > 0.3)
    reference = max(float(np.percentile(contrast[tall], 75)), 0.05) if tall.any() else 1.0
    features[:, MARK_FEATURES.index("relative_contrast")] = contrast / reference
    return CellMarks(present, features, crops, at_ruling)


def _mark_pieces(pieces: list[int], paper: float, shades: list[float], boxes: list) -> list[int]:
    """The pieces of one cell that make its mark: darker than its `paper` grey level, and not much fainter than
    its darkest piece (MIN_RELATIVE_PIECE_CONTRAST: print showing through from the other side), specks left out
    (`_without_specks`). `shades` holds each label's mean grey level, `boxes` its x, y, w, h, area."""
    piece_contrast = {p: (paper - shades[p]) / max(paper, 1.0) for p in pieces}
    darkest = max(piece_contrast.values())
    kept = [p for p in pieces if piece_contrast[p] > 0 and piece_contrast[p] >= MIN_RELATIVE_PIECE_CONTRAST * darkest]
    return _without_specks(kept, boxes) if kept else []


@dataclass(frozen=True)
class _Mark:
    """One cell's mark as `_measure` describes it: its `MARK_FEATURES` (relative contrast 0, set once the grid's
    reference contrast is known), its contrast against its paper (0..1), whether it borders ink taken away as
    ruling (`CellMarks.at_ruling`), and its darkest grey level (5th percentile)."""

    features: tuple[float, ...]
    contrast: float
    at_ruling: bool
    ink: float


def _measure(
    table: PieceTable, pieces: list[int], cell: int, gray: np.ndarray, paper: float, next_to_ruling: np.ndarray
) -> _Mark:
    """The mark made of `pieces` in `cell` (0..80) of the rectified grid `gray`, its paper grey level `paper`;
    `next_to_ruling` (the grid's shape, uint8) is the ink taken away as ruling, grown by a pixel."""
    n = CELL_SIZE
    r, c = divmod(cell, 9)
    x0, y0 = c * n, r * n
    boxes = table.boxes
    box = bounding_box(pieces, boxes)
    bx0, by0, bx1, by1 = box
    mask = table.mask(pieces, box)
    values = np.sort(gray[by0:by1, bx0:bx1][mask])
    at_ruling = np.count_nonzero(next_to_ruling[by0:by1, bx0:bx1][mask]) >= RULING_CONTACT
    contrast = max(0.0, (paper - _percentile(values, 20)) / max(paper, 1.0))
    padded = np.zeros((by1 - by0 + 2, bx1 - bx0 + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    distance = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
    largest = max(pieces, key=lambda p: boxes[p][4])
    features = (
        (by1 - by0) / n,
        (bx1 - bx0) / n,
        ((bx0 + bx1) / 2 - x0) / n,
        ((by0 + by1) / 2 - y0) / n,
        values.size / (n * n),
        len(pieces),
        boxes[largest][3] / n,
        0.0,
        2 * float(distance[mask].mean()) / n,
    )
    return _Mark(features, contrast, bool(at_ruling), _percentile(values, 5))


def _without_specks(pieces: list[int], boxes: list) -> list[int]:
    """Drop pieces much smaller than the cell's largest piece and not next to it.

    `boxes` holds per label x, y, width, height, area (Python ints).
    """
    largest = max(pieces, key=lambda p: boxes[p][4])
    lx, ly, lw, lh, big = boxes[largest]
    gap = SPECK_GAP * CELL_SIZE
    keep = []
    for p in pieces:
        x, y, w, h, area = boxes[p]
        near = x <= lx + lw + gap and x + w >= lx - gap and y <= ly + lh + gap and y + h >= ly - gap
        if area >= SPECK_SHARE * big or near:
            keep.append(p)
    return keep


def _shadowed_cells(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells of a rectified grid that a shadow's edge crosses, and the grid's paper level.

    The paper level is `vision.lighting.paper_level` closed with a square of
    half a cell (wider than the boldest pen stroke). A cell is crossed when
    that level within it (its borders left out, as `_paper_levels`) varies
    by at least SHADOW_STEP of its brightest: a cast shadow's edge (sharp,
    or a penumbra of a few pixels) does; the fall of light across a page
    varies it by a few percent over a cell.

    Parameters
    ----------
    gray : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8: the rectified grid.

    Returns
    -------
    (np.ndarray, np.ndarray)
        Shape (81,) bool, cells row-major; and the paper level, `gray`'s shape, uint8.
    """
    n, m = CELL_SIZE, CELL_SIZE // 16
    papers = paper_level(gray, n // 2 + 1)
    inner = papers.reshape(9, n, 9, n)[:, m : n - m, :, m : n - m].transpose(0, 2, 1, 3).reshape(81, -1)  # a copy
    top = inner.max(axis=1).astype(np.float32)
    low = inner.min(axis=1).astype(np.float32)
    return (top - low) >= SHADOW_STEP * top, papers
