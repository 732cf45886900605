"""Connected pieces of an ink mask, and which of them can be a cell's mark.

OpenCV labels the pieces; their bounding boxes and areas are measured over the
ink pixels alone (`connected_components`). A piece too small, too large, lying
in a ruled line's band or running thin along a line is no mark (`noise_pieces`);
the others belong to the cell that holds most of their pixels (`mark_pieces`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .rectify import CELL_SIZE

#: Pieces of ink smaller than this share of a cell's area are noise.
MIN_PIECE_AREA = 0.002

#: Pieces larger than this (cells, either side) are not one cell's mark.
MAX_PIECE_SIDE = 1.3

#: A piece lying wholly within this share of a cell of a ruled line is a leftover of the ruling.
RULING_BAND = 0.12

#: A long run of ink that the line-shaped opening found, whose middle lies
#: farther than this share of a cell from every ruled line's known position and
#: which is shorter than MAX_PIECE_SIDE cells, is a digit's stroke that reached
#: a line (a 1 written up to its cell's top line makes a vertical run as long
#: as a line's), not ruling (`ruling_of`).
STROKE_INSIDE = 0.2


def noise_pieces(stats: np.ndarray) -> np.ndarray:
    """Which pieces (`connected_components` stats, one row a label) cannot be a cell's mark: too small, too large, lying
    wholly in a ruled line's band, or a long thin stroke along a line. Shape (count,) bool; the background too."""
    n = CELL_SIZE
    x, y, w, h, area = (stats[:, i] for i in range(5))
    long_side, short_side = np.maximum(w, h), np.minimum(w, h)
    noise = (area < MIN_PIECE_AREA * n * n) | (long_side > MAX_PIECE_SIDE * n)
    noise |= in_ruling_band(y, h) | in_ruling_band(x, w)
    # A long thin stroke along a ruled line (a line's remnant where the page bends) is no digit; a handwritten
    # 1 can be as long and thin, but lies inside its cell (STROKE_INSIDE).
    thin = (long_side > 5 * short_side) & (short_side < 0.12 * n) & (long_side > 0.5 * n)
    across = np.where(w < h, x + w / 2, y + h / 2)  # the middle of a vertical stroke's columns, a horizontal one's rows
    noise |= thin & (np.abs(across - nearest_line(across)) <= STROKE_INSIDE * n)
    noise[0] = True  # the background
    return noise


def in_ruling_band(start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """True where a span [start, start + length) lies within RULING_BAND of the nearest ruled line."""
    line = nearest_line(start + length / 2)
    band = RULING_BAND * CELL_SIZE
    return (start >= line - band) & (start + length <= line + band)


def nearest_line(position: np.ndarray) -> np.ndarray:
    """The known position of the ruled line nearest each `position` (pixels along one axis of the rectified
    grid, any shape): the nearest multiple of CELL_SIZE, float64, same shape."""
    return np.round(np.asarray(position, np.float64) / CELL_SIZE) * CELL_SIZE


def connected_components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Connected pieces of an ink mask: `cv2.connectedComponentsWithStats` without the centroids, and the ink.

    OpenCV labels the pieces (``cv2.connectedComponents``, 8-connectivity);
    their stats are measured here over the ink pixels alone, a fraction of the
    cost of OpenCV's measuring every pixel of the image.

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8, nonzero = ink.

    Returns
    -------
    (count, labels, stats, xs, ys, pixel_labels)
        The number of labels (the background, 0, included); the label image
        (H, W) int32; the stats (count, 5) int32: per label its bounding
        box's left x, top y, width and height, and its area in pixels
        (``cv2.CC_STAT_LEFT`` .. ``cv2.CC_STAT_AREA``), the same values as
        ``cv2.connectedComponentsWithStats(ink, connectivity=8)``'s, the
        background's row included (zeros for an image without background,
        where OpenCV's holds its unset extremes); and the ink pixels in raster order, each
        shape (k,): x and y int64, label int32.
    """
    count, labels = cv2.connectedComponents(ink, connectivity=8)
    h, w = labels.shape
    xs, ys, label = _ink_pixels(ink, labels)
    stats = np.zeros((count, 5), np.int32)
    if label.size:
        left = np.full(count, w, np.int64)
        right = np.full(count, -1, np.int64)
        top = np.full(count, h, np.int64)
        bottom = np.full(count, -1, np.int64)
        np.minimum.at(left, label, xs)
        np.maximum.at(right, label, xs)
        np.minimum.at(top, label, ys)
        np.maximum.at(bottom, label, ys)
        stats[1:, 0] = left[1:]
        stats[1:, 1] = top[1:]
        stats[1:, 2] = right[1:] - left[1:] + 1
        stats[1:, 3] = bottom[1:] - top[1:] + 1
        stats[:, 4] = np.bincount(label, minlength=count)
    # The background: the rows and columns not wholly ink (an all-ink image has no background pixel: zeros).
    rows = np.flatnonzero(np.bincount(ys, minlength=h) < w)
    cols = np.flatnonzero(np.bincount(xs, minlength=w) < h)
    if rows.size:
        stats[0] = (cols[0], rows[0], cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1, h * w - label.size)
    return count, labels, stats, xs, ys, label


def _ink_pixels(ink: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nonzero pixels of `ink` in raster order: x, y (int64) and their label in `labels` (int32), each (k,)."""
    points = cv2.findNonZero(ink)
    if points is None:
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0, np.int32)
    xs, ys = points.reshape(-1, 2).T.astype(np.int64)
    return xs, ys, labels[ys, xs]


def mark_pieces(
    strokes: np.ndarray, gray: np.ndarray, components: tuple | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Connected pieces of ink that can belong to a cell's mark.

    `components`, when given, is `connected_components(strokes)` already measured.

    Returns
    -------
    (labels, stats, cell, darkness)
        The label image (int32) and stats of `cv2.connectedComponentsWithStats`
        (measured by `connected_components`); per label, the cell (0..80)
        holding most of its pixels, or -1 for a piece that is noise, ruling or
        too large (and the background); and its mean grey level (0 for those).
    """
    count, labels, stats, xs, ys, pixel_labels = connected_components(strokes) if components is None else components
    n = CELL_SIZE
    area = stats[:, 4]
    noise = noise_pieces(stats)
    # Cell and darkness of the other pieces only, from their pixels (in raster order).
    kept = ~noise[pixel_labels]
    xs, ys, pixel_labels = xs[kept], ys[kept], pixel_labels[kept]
    cell_of_pixel = np.minimum(ys // n, 8) * 9 + np.minimum(xs // n, 8)
    votes = np.bincount(pixel_labels * 81 + cell_of_pixel, minlength=count * 81).reshape(count, 81)
    cell = votes.argmax(axis=1)
    darkness = np.bincount(pixel_labels, weights=gray[ys, xs].astype(np.float64), minlength=count)
    darkness = darkness / np.maximum(area, 1)
    cell[noise] = -1
    return labels, stats, cell, darkness
