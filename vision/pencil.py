"""Read the small candidate digits a player pencils into a cell, or say they cannot be read.

A cell of candidates holds one to a few small digits side by side (the
player's notes: "23" in a corner). They are cut apart as the cell's pieces of
ink (connected components of the strokes, the ruling removed as for the cell
marks: `vision.strokes.strokes_of`), a small speck apart from the digits left
out; a piece wider than a digit is two digits that touch and is cut at its
thinnest column. A piece that may be either (a wide 2, 4 or 7, or a 1 and an
8 that touch, whose halves are both of a digit's height) is read both ways,
and the cell only when exactly one way reads surely. Each piece is read by the
handwritten-digit model (`vision.digits.CellClassifier.handwritten_odds`, one search);
one it doubts is looked at again by the image distortion model
(`vision.digits.CellClassifier.second_look`), which bends a digit's strokes
before comparing and so forgives the small, hasty shapes of pencil notes,
against the model's samples and against the player's own candidate digits
read surely elsewhere in the grid (one hand writes its notes alike). The
cell's digits are given only when every piece is read surely and no digit
repeats; otherwise the cell is unread (None), never guessed: a wrong
candidate list misleads a player more than none.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from .digits import CellClassifier
from .evidence import HandwrittenOdds
from .rectify import CELL_SIZE
from .strokes import GridStrokes, grid_strokes

#: Pixels (of a CELL_SIZE cell) left out at each edge of the cell: the ruled lines' remains.
EDGE = 3
#: Least area (pixels) of a piece of a candidate digit; smaller ones are specks.
MIN_PIECE_AREA = 6
#: A piece of ink whose area is below SPECK_AREA of the cell's largest piece and that lies at least SPECK_GAP of
#: that piece's height from every larger piece is a speck of the paper or of graphite, no part of a digit: a
#: digit's own fragment (the bar of a 7 drawn apart) lies close to the rest of it.
SPECK_AREA = 0.1
SPECK_GAP = 0.25
#: Two pieces are one digit when the narrower's width overlaps the other's this much and it is the
#: smaller (the flag of a 5, a 4's cross-bar drawn apart).
SAME_DIGIT_OVERLAP = 0.7
#: Widest (width / height) a single candidate digit is; a wider piece is cut in two at its thinnest column.
MAX_DIGIT_ASPECT = 1.0
#: A piece wider than PAIR_ASPECT of its height (and no wider than MAX_DIGIT_ASPECT) may be one digit or two
#: that touch: a player's single candidate digit is up to about as wide as it is high (a 2, a 4, a 7), two
#: touching ones from about 0.85. It is read both whole and cut in two, and the cell only when exactly one of
#: the ways reads surely.
PAIR_ASPECT = 0.85
#: A piece is read as two digits that touch only when both halves are at least PAIR_HEIGHT of its height: a
#: player's candidate digits in one cell are about of a height, and a wide digit cut at its thinnest column
#: leaves a sliver (the hook of a 2).
PAIR_HEIGHT = 0.5
#: Most pieces of one cell read both ways (each doubles the cell's ways of reading).
MAX_PAIRS = 3
#: A candidate digit is read surely when the handwritten model's probability is at least SURE and the nearest
#: sample of any other digit lies MARGIN times as far as the nearest of its own; fitted by ``python
#: benchmarks/pencil_marks.py --split training`` (the labelled candidate cells of the training photos), one
#: step past the first probability that reads one wrong; MARGIN and the LOOK_ thresholds likewise.
SURE = 0.9
MARGIN = 1.1
#: The margin for a piece read whole that may be two digits that touch (see PAIR_ASPECT): a 1 and an 8 that
#: touch lie near an 8.
PAIR_MARGIN = 1.2
#: A piece not read surely is looked at again by the image distortion model (`CellClassifier.second_look`)
#: when the handwritten model gives its digit at least LOOK_SURE. It is read surely when no other digit's
#: sample is nearer in the handwritten model's space, at least LOOK_VOTES of the least distorted samples' votes
#: are that digit's and its least distortion is at most LOOK_RATIO of any other digit's
#: (`vision.evidence.SecondLook.ratio`); or when its least distortion to the player's own copies of that digit
#: (the grid's pieces read surely) is at most OWN_RATIO of any other digit's, the model's samples and the
#: player's copies together (`vision.evidence.SecondLook.own_ratio`): one hand's copies of a digit outweigh
#: the model's nearest sample of another. A half of a piece that may be two digits (PAIR_ASPECT) is looked at
#: again only when no other digit's sample is nearer: the cut half of one wide digit (a 4's stem) can pass for a
#: bent digit of its own.
LOOK_SURE = 0.5
LOOK_VOTES = 0.5
LOOK_RATIO = 0.7
OWN_RATIO = 0.7
#: Most candidate digits in one cell (a player's notes; more is a scribble).
MAX_DIGITS = 6


def _pieces(strokes: np.ndarray) -> list[np.ndarray]:
    """Masks (uint8 0/255, the window's shape) of the window's candidate digits, left to right."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    boxes = []
    specks = _specks(stats)
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area >= MIN_PIECE_AREA and not specks[i]:
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
    return [np.isin(labels, ids).astype(np.uint8) * 255 for _, _, _, ids in merged]


def _specks(stats: np.ndarray) -> np.ndarray:
    """Which components of `cv2.connectedComponentsWithStats`'s `stats` (k, 5) int32 (row 0 the background)
    are specks: each under SPECK_AREA of the largest component's area, at least SPECK_GAP of its height from
    every component that is not (the gap between bounding boxes), and together (those of MIN_PIECE_AREA or more)
    under SPECK_AREA of it (a faint digit broken into small pieces is no speck). Shape (k,) bool."""
    area = stats[:, cv2.CC_STAT_AREA].astype(np.int64)
    out = np.zeros(len(stats), bool)
    if len(stats) < 3:
        return out
    largest = 1 + int(np.argmax(area[1:]))
    small = area < SPECK_AREA * area[largest]
    small[0] = False
    big = stats[1:][~small[1:]]
    x, y, w, h = (stats[:, k][:, None] for k in range(4))
    gap_x = np.maximum(big[:, 0][None] - (x + w), x - (big[:, 0] + big[:, 2])[None])
    gap_y = np.maximum(big[:, 1][None] - (y + h), y - (big[:, 1] + big[:, 3])[None])
    apart = np.maximum(gap_x, gap_y).min(axis=1) >= SPECK_GAP * stats[largest, cv2.CC_STAT_HEIGHT]
    out = small & apart
    if area[out & (area >= MIN_PIECE_AREA)].sum() >= SPECK_AREA * area[largest]:
        out[:] = False
    return out


def _split_if_wide(mask: np.ndarray, aspect: float = MAX_DIGIT_ASPECT) -> list[np.ndarray]:
    """One mask, or two when it is wider than `aspect` of its height: cut at the column with least ink in its
    middle half."""
    ys, xs = np.nonzero(mask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    if (x1 - x0) <= aspect * (y1 - y0):
        return [mask]
    columns = (mask[y0:y1, x0:x1] > 0).sum(axis=0)
    lo, hi = (x1 - x0) // 4, 3 * (x1 - x0) // 4
    cut = x0 + lo + int(np.argmin(columns[lo:hi])) if hi > lo else x0 + (x1 - x0) // 2
    left, right = mask.copy(), mask.copy()
    left[:, cut:] = 0
    right[:, :cut] = 0
    return [m for m in (left, right) if m.any()]


def _ways_to_read(mask: np.ndarray) -> list[np.ndarray]:
    """``[mask]``, or ``[mask, left, right]`` when the piece may be one digit or two that touch (wider than
    PAIR_ASPECT of its height): the whole and its two halves."""
    halves = _split_if_wide(mask, PAIR_ASPECT)
    if len(halves) < 2 or min(_height(half) for half in halves) < PAIR_HEIGHT * _height(mask):
        return [mask]
    return [mask, *halves]


def _height(mask: np.ndarray) -> int:
    """Rows (pixels) from a mask's first inked row to its last."""
    rows = np.flatnonzero(mask.any(axis=1))
    return int(rows[-1] - rows[0] + 1)


def _second_look(
    model: CellClassifier,
    crops: list[np.ndarray],
    odds: HandwrittenOdds,
    surely: np.ndarray,
    doubtful: list[int],
    halves: list[int],
    ways: list[list[list[int]]],
) -> np.ndarray:
    """`surely` with the crops read surely at a second look added.

    A crop the handwritten model doubts, but leans to (`LOOK_SURE`), is
    measured by the image distortion model (`CellClassifier.second_look`)
    against the model's samples and against the crops of this grid read
    surely, the player's own pencil digits: it is read surely when no other
    digit's sample is nearer in the handwritten model's space, the least
    distorted samples mostly vote for its digit (`LOOK_VOTES`) and bend
    clearly less to it than to any other (`LOOK_RATIO`), or when the player's
    own copies of its digit are clearly the nearest (`OWN_RATIO`).

    Parameters
    ----------
    model : CellClassifier
    crops : list of np.ndarray
        Each shape (h, w), uint8 ink strength (0 = paper): one candidate digit or a piece read whole.
    odds : HandwrittenOdds
        The handwritten model's reading of `crops` (`CellClassifier.handwritten_odds`).
    surely : np.ndarray
        Shape (n,) bool: the crops read surely at the first look.
    doubtful : list of int
        The crops of whole pieces that may be two digits: neither looked at again nor taken as the player's
        own copies.
    halves : list of int
        The crops of those pieces' halves: looked at again only when no other digit's sample is nearer in the
        handwritten model's space (as for the model's own reading, `LOOK_RATIO`).
    ways : list of list of list of int
        Each cell's ways of reading (lists of indices into `crops`): a crop is looked at again only in a way
        whose every crop is read surely or leaned to, the only ways a second look can complete (the image
        distortion model takes milliseconds a crop).

    Returns
    -------
    np.ndarray
        Shape (n,) bool.
    """
    read = odds.digits
    leaning = odds.sure(LOOK_SURE, 1.0)
    left_as_they_are = set(doubtful)
    hopeful = (odds.probability >= LOOK_SURE) & ~surely
    hopeful[halves] &= leaning[halves]  # the cut half of one wide digit (a 4's stem) passes for a bent digit
    hopeful[list(left_as_they_are)] = False
    completed = {
        i for cell_ways in ways for rows in cell_ways if all(surely[j] or hopeful[j] for j in rows) for i in rows
    }
    asked = sorted(i for i in completed if hopeful[i])
    if not asked:
        return surely
    own_rows = [i for i in range(len(crops)) if surely[i] and i not in left_as_they_are]
    look = model.second_look(
        [crops[i] for i in asked], own=([crops[i] for i in own_rows], [int(read[i]) for i in own_rows])
    )
    out = surely.copy()
    for row, i in enumerate(asked):
        digit = int(read[i])
        by_model = leaning[i] and look.votes[row, digit - 1] >= LOOK_VOTES and look.ratio(row, digit) <= LOOK_RATIO
        out[i] = by_model or look.own_ratio(row, digit) <= OWN_RATIO
    return out


def _window(cell: int) -> tuple[slice, slice]:
    """The rows and columns of a cell in the rectified grid, EDGE left out at each side."""
    r, c = divmod(cell, 9)
    return (
        slice(r * CELL_SIZE + EDGE, (r + 1) * CELL_SIZE - EDGE),
        slice(c * CELL_SIZE + EDGE, (c + 1) * CELL_SIZE - EDGE),
    )


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
        piece not read surely, see SURE and LOOK_RATIO, a digit twice, none
        or more than MAX_DIGITS pieces, a piece that may be one digit or two
        read surely both ways or neither).
    """
    if not cells:
        return []
    measured = (grid_strokes(grid_image) if strokes is None else strokes).strokes
    crops: list[np.ndarray] = []
    doubtful: list[int] = []  # the crops of whole pieces that may be two digits
    halves: list[int] = []  # the crops of their halves
    ways: list[list[list[int]]] = []  # per cell, its ways of reading: lists of indices into crops
    for cell in cells:
        window = _window(cell)
        gray = grid_image[window].astype(np.int16)
        paper = float(np.percentile(gray, 75))
        darkness = np.clip(paper - gray, 0, 255).astype(np.uint8)
        pieces = [_ways_to_read(half) for mask in _pieces(measured[window]) for half in _split_if_wide(mask)]
        if not 1 <= len(pieces) <= MAX_DIGITS or sum(len(p) > 1 for p in pieces) > MAX_PAIRS:
            ways.append([])
            continue
        options: list[list[list[int]]] = []
        for masks in pieces:
            first = len(crops)
            for mask in masks:
                ys, xs = np.nonzero(mask)
                box = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
                crops.append(np.where(mask[box] > 0, darkness[box], 0).astype(np.uint8))
            options.append([[first]] if len(masks) == 1 else [[first], [first + 1, first + 2]])
            if len(masks) > 1:
                doubtful.append(first)
                halves += [first + 1, first + 2]
        ways.append([sum(choice, []) for choice in itertools.product(*options)])
    odds = model.handwritten_odds(crops, max(MARGIN, PAIR_MARGIN, 1.0))
    read, surely = odds.digits, odds.sure(SURE, MARGIN)
    surely[doubtful] = odds.sure(SURE, PAIR_MARGIN)[doubtful]
    surely = _second_look(model, crops, odds, surely, doubtful, halves, ways)
    out: list[str | None] = []
    for cell_ways in ways:
        found = set()
        for rows in cell_ways:
            digits = [int(read[i]) for i in rows]
            if len(rows) <= MAX_DIGITS and all(surely[i] for i in rows) and len(set(digits)) == len(digits):
                found.add("".join(str(d) for d in sorted(digits)))
        out.append(found.pop() if len(found) == 1 else None)
    return out
