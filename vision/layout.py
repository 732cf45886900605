"""The reading order of the grids on a page: top to bottom, then left to right, by recursive XY cuts.

A page is cut across where a band of it, the page's whole width, holds no
grid: the parts are read top to bottom. A part that cannot be cut across is
cut down where a band of its whole height holds none: its columns are read
left to right. Each part is cut again the same way until it holds one grid
(G. Nagy and S. Seth, "Hierarchical representation of optically scanned
documents", 1984: the X-Y tree). So the grids of a page laid out in rows
(a generated page's #1 #2 / #3 #4) are read row by row, and those of a
multi-column page whose columns do not line up (a newspaper's) column by
column, each top to bottom. Grids are compared by their bounding boxes, in
the upright page (`upright`: the photo turned as it was to read them).
"""

from __future__ import annotations

import numpy as np

#: Two grids' extents along one axis that overlap by at most this share of the shorter one do not overlap (the
#: boxes of a photographed page's neighbouring grids, tilted a little, overlap by a few pixels).
OVERLAP_TOLERANCE = 0.2


def upright(corners: np.ndarray, rotation: int) -> np.ndarray:
    """Points of the photo as seen in the upright page: turned counter-clockwise by `rotation` degrees.

    Parameters
    ----------
    corners : np.ndarray
        Shape (..., 2), float, photo pixels (x right, y down).
    rotation : int
        0, 90, 180 or 270: the degrees the photo was turned (counter-clockwise, as ``np.rot90``) to read the
        grids upright (the JSON's ``rotation``).

    Returns
    -------
    np.ndarray
        The same shape: coordinates up to a translation, which an order does not need.
    """
    x, y = corners[..., 0], corners[..., 1]
    turned = {0: (x, y), 90: (y, -x), 180: (-x, -y), 270: (-y, x)}[rotation % 360]
    return np.stack(turned, axis=-1)


def _bands(items: list[int], lows: np.ndarray, highs: np.ndarray) -> list[list[int]]:
    """`items` grouped into bands along one axis, in order: a band's extents overlap (beyond the tolerance)."""
    bands: list[list[int]] = []
    end = -np.inf
    for i in sorted(items, key=lambda i: (lows[i], highs[i])):
        overlap = end - lows[i]
        if bands and overlap > OVERLAP_TOLERANCE * min(highs[i] - lows[i], end - lows[bands[-1][0]]):
            bands[-1].append(i)
            end = max(end, highs[i])
        else:
            bands.append([i])
            end = highs[i]
    return bands


def _cut(items: list[int], boxes: np.ndarray) -> list[int]:
    if len(items) <= 1:
        return items
    for low, high in ((1, 3), (0, 2)):  # across first (rows of grids, top to bottom), then down (columns)
        parts = _bands(items, boxes[:, low], boxes[:, high])
        if len(parts) > 1:
            return [i for part in parts for i in _cut(part, boxes)]
    return sorted(items, key=lambda i: (boxes[i, 1], boxes[i, 0]))  # overlapping both ways: top, then left


def reading_order(quads: list[np.ndarray], rotation: int = 0) -> list[int]:
    """The order a person reads the grids of a page in: top to bottom, then left to right (see the module).

    Parameters
    ----------
    quads : list of np.ndarray
        Each shape (4, 2), float, the grid's corners in the photo, pixels.
    rotation : int
        Degrees (0, 90, 180, 270) the photo was turned to read the page upright.

    Returns
    -------
    list of int
        Indices into `quads`, first read first.
    """
    if not quads:
        return []
    points = upright(np.asarray(quads, dtype=np.float64), rotation)
    boxes = np.concatenate([points.min(axis=1), points.max(axis=1)], axis=1)  # (n, 4): x0, y0, x1, y1
    return _cut(list(range(len(quads))), boxes)
