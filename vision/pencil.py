"""Read the small candidate digits a player pencils into a cell, or say they cannot be read.

A cell of candidates holds one to a few small digits side by side (the
player's notes: "23" in a corner). They are cut apart as the cell's pieces of
ink (connected components of the strokes, the ruling removed as for the cell
marks: `vision.strokes.strokes_of`); a piece wider than a digit is two digits
that touch and is cut at its thinnest column. Each piece is read by the
handwritten-digit model (`vision.digits.CellClassifier.sure_handwritten_digits`).
The cell's digits are given only when every piece is read surely and no
digit repeats; otherwise the cell is
unread (None), never guessed: a wrong candidate list misleads a player more
than none.
"""

from __future__ import annotations

import cv2
import numpy as np

from .digits import CellClassifier
from .rectify import CELL_SIZE
from .strokes import GridStrokes, grid_strokes

#: Pixels (of a CELL_SIZE cell) left out at each edge of the cell: the ruled lines' remains.
EDGE = 3
#: Least area (pixels) of a piece of a candidate digit; smaller ones are specks.
MIN_PIECE_AREA = 6
#: Two pieces are one digit when the narrower's width overlaps the other's this much and it is the
#: smaller (the flag of a 5, a 4's cross-bar drawn apart).
SAME_DIGIT_OVERLAP = 0.7
#: Widest (width / height) a single candidate digit is; a wider piece is cut in two at its thinnest column.
MAX_DIGIT_ASPECT = 1.0
#: A candidate digit is read surely when the handwritten model's probability is at least SURE and the nearest
#: sample of any other digit lies MARGIN times as far as the nearest of its own; fitted by ``python
#: benchmarks/pencil_marks.py --split training`` (the labelled candidate cells of the training photos), one
#: step past the first margin that reads one wrong.
SURE = 0.9
MARGIN = 1.2
#: Most candidate digits in one cell (a player's notes; more is a scribble).
MAX_DIGITS = 6


def _pieces(strokes: np.ndarray) -> list[np.ndarray]:
    """Masks (uint8 0/255, the window's shape) of the window's candidate digits, left to right."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    boxes = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area >= MIN_PIECE_AREA:
            boxes.append([x, x + w, area, [i]])
    boxes.sort(key=lambda b: b[0])
    merged: list[list] = []
    for box in boxes:
        if merged:
            last = merged[-1]
            overlap = min(last[1], box[1]) - max(last[0], box[0])
            narrower = min(last[1] - last[0], box[1] - box[0])
            if overlap >= SAME_DIGIT_OVERLAP * narrower and min(last[2], box[2]) < 0.5 * max(last[2], box[2]):
                merged[-1] = [min(last[0], box[0]), max(last[1], box[1]), last[2] + box[2], last[3] + box[3]]
                continue
        merged.append(box)
    masks = []
    for _, _, _, ids in merged:
        mask = np.isin(labels, ids).astype(np.uint8) * 255
        masks.extend(_split_if_wide(mask))
    return masks


def _split_if_wide(mask: np.ndarray) -> list[np.ndarray]:
    """One mask, or two when it is wider than a digit: cut at the column with least ink in its middle half."""
    ys, xs = np.nonzero(mask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    if (x1 - x0) <= MAX_DIGIT_ASPECT * (y1 - y0):
        return [mask]
    columns = (mask[y0:y1, x0:x1] > 0).sum(axis=0)
    lo, hi = (x1 - x0) // 4, 3 * (x1 - x0) // 4
    cut = x0 + lo + int(np.argmin(columns[lo:hi])) if hi > lo else x0 + (x1 - x0) // 2
    left, right = mask.copy(), mask.copy()
    left[:, cut:] = 0
    right[:, :cut] = 0
    return [m for m in (left, right) if m.any()]


def read_pencil_marks(
    grid_image: np.ndarray, cells: list[int], model: CellClassifier, strokes: GridStrokes | None = None
) -> list[str | None]:
    """The candidate digits pencilled in some cells of an upright rectified grid.

    The pieces are cut from the grid's strokes (`vision.strokes.grid_strokes`),
    those `vision.cells.find_marks` measured when the caller has them.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9 * CELL_SIZE, 9 * CELL_SIZE), uint8 grey: the grid upright
        (`vision.read.GridReading.rectified.image`).
    cells : list of int
        Cells (0..80) that hold candidates.
    model : CellClassifier
        The cell model; its handwritten-digit model reads each candidate.
    strokes : GridStrokes, optional
        `grid_strokes(grid_image)` when the caller has them (`vision.read.GridReading.strokes`); else measured
        here.

    Returns
    -------
    list of (str or None)
        For each cell in order: its candidate digits in increasing order (for
        example ``"239"``), or None when they cannot all be read surely (a
        piece not read surely, see SURE, a digit twice, none or more than
        MAX_DIGITS pieces).
    """
    if not cells:
        return []
    measured = (grid_strokes(grid_image) if strokes is None else strokes).strokes
    crops: list[np.ndarray] = []
    owners: list[int | None] = []  # each cell's number of pieces, None when it has none or too many
    for cell in cells:
        r, c = divmod(cell, 9)
        window = (
            slice(r * CELL_SIZE + EDGE, (r + 1) * CELL_SIZE - EDGE),
            slice(c * CELL_SIZE + EDGE, (c + 1) * CELL_SIZE - EDGE),
        )
        gray = grid_image[window].astype(np.int16)
        paper = float(np.percentile(gray, 75))
        darkness = np.clip(paper - gray, 0, 255).astype(np.uint8)
        pieces = _pieces(measured[window])
        if not 1 <= len(pieces) <= MAX_DIGITS:
            owners.append(None)
            continue
        for mask in pieces:
            ys, xs = np.nonzero(mask)
            box = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
            crops.append(np.where(mask[box] > 0, darkness[box], 0).astype(np.uint8))
        owners.append(len(pieces))
    read, surely = model.sure_handwritten_digits(crops, SURE, MARGIN)
    out: list[str | None] = []
    start = 0
    for count in owners:
        if count is None:
            out.append(None)
            continue
        rows = range(start, start + count)
        start += count
        digits = [int(read[i]) for i in rows]
        sure = all(surely[i] for i in rows) and len(set(digits)) == len(digits)
        out.append("".join(str(d) for d in sorted(digits)) if sure else None)
    return out
