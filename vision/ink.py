"""The colour of each cell's ink, and of the grid's printed ruling.

A grid's printed digits and its ruled lines come off one press in one ink;
a player's pen is often another colour (blue ballpoint above all). So a mark
whose ink lies far from the colour of the grid's print is not print, however
neat the digit (`snapsolve.repair.unlike_the_print`, which takes the print's
colour from the givens, the ruling telling which of them are print). The
colour is compared in the CIE L*a*b* space (OpenCV's 8-bit
``COLOR_BGR2Lab``: a* and b* offset by 128), on the chroma plane
(a*, b*) alone, so that light and shadow, which change L*, do not count; each
cell's paper is taken as the white point of its own ink (a tinted box or a
yellowed page shifts ink and paper alike).

The grid is resampled in colour along the same lattice as the grey reading
(`vision.rectify.lattice_maps`), straight from the photo: an average over a
stroke's pixels needs no anti-aliasing pyramid.
"""

from __future__ import annotations

import cv2
import numpy as np

from .rectify import CELL_SIZE, lattice_maps

#: Share of a cell's side left out at each edge when looking for its ink (the ruled lines).
INSET = 0.14
#: A pixel is ink when its darkness (the cell's paper level minus its grey level) is at least this share of
#: the cell's darkest ink (the core of the strokes, where the colour is least mixed with the paper's).
INK_SHARE = 0.55
#: Side (pixels) of a cell where colours are measured: half the grey reading's CELL_SIZE (an average over a
#: stroke's pixels needs no finer sampling, and a quarter of the pixels costs a quarter of the time).
COLOUR_CELL = CELL_SIZE // 2
#: Fewest ink pixels (of a COLOUR_CELL cell) for a colour to be measured.
MIN_INK_PIXELS = 4
#: Least darkness (grey levels) of ink.
MIN_DARKNESS = 20
#: Half width (pixels of a COLOUR_CELL cell) of the band around each ruled line taken as the ruling.
RULING_BAND = 1


def _percentile_u8(values: np.ndarray, q: float) -> float:
    """The `q`-th percentile (0..100, lower value) of uint8 `values` from their histogram (no sort)."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    return float(np.searchsorted(counts, q / 100.0 * (counts[-1] - 1), side="right"))


def _median_u8(values: np.ndarray) -> float:
    """`np.median` of uint8 `values` (at least one) from their histogram (no sort)."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    low, high = np.searchsorted(counts, [(n - 1) // 2, n // 2], side="right")
    return (float(low) + float(high)) / 2


def _row_medians(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Median of each row's kept values: `values` (n, m, 2) float32, `keep` (n, m) bool, every row keeping
    some; returns (n, 2) float32, as `np.median` of each row's kept values (the mean of the middle two for an
    even count)."""
    ordered = np.sort(np.where(keep[..., None], values, np.inf), axis=1)
    count = keep.sum(axis=1)
    low = np.take_along_axis(ordered, ((count - 1) // 2)[:, None, None], axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None, None], axis=1)[:, 0]
    return (low + high) / 2


def prepare_colour_tables() -> None:
    """Have OpenCV build its tables for BGR to CIE L*a*b* conversion now, which its first conversion does.

    `ink_colours` converts every grid it measures; the first conversion in a
    process takes about 0.1 s of CPU, without Python's GIL, so a thread of
    its own can do it while another reads the photo or imports.
    """
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)


def ink_colours(
    photo: np.ndarray, lattice: np.ndarray, gray: np.ndarray, cells: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The colour of each cell's ink and of the grid's ruling, on the chroma plane.

    Parameters
    ----------
    photo : np.ndarray
        Shape (H, W, 3), uint8 BGR: the whole photo.
    lattice : np.ndarray
        Shape (10, 10, 2): the grid's ruled-line crossings in `photo`'s pixels,
        as rectified (`vision.rectify.Rectified.lattice`, at the photo's scale).
    gray : np.ndarray
        Shape (9 * CELL_SIZE, 9 * CELL_SIZE), uint8: the grey grid rectified
        along the same lattice (`vision.rectify.Rectified.image`).
    cells : np.ndarray, optional
        Shape (81,) bool: the cells to measure (those holding a mark); the
        others are NaN. Default: every cell.

    Returns
    -------
    (np.ndarray, np.ndarray)
        The cells' ink, shape (81, 2) float32, cells in the order of
        `lattice`, and the ruling's ink, shape (2,) float32: the median (a*,
        b*) of the ink's pixels less that of the paper around it (8-bit Lab
        units; black ink is near (0, 0), blue ballpoint some 15 to 40 units
        away); NaN where a cell holds too little ink to tell (or, for the
        ruling, where it cannot be measured).
    """
    side = 9 * COLOUR_CELL
    gray = cv2.resize(gray, (side, side), interpolation=cv2.INTER_AREA)
    map_x, map_y = lattice_maps(np.asarray(lattice, np.float32), COLOUR_CELL)
    rectified = cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(rectified, cv2.COLOR_BGR2Lab)
    # The ruling: a band around each ruled line, its darker part ink; the lighter part of the cells paper.
    positions = np.arange(9 * COLOUR_CELL) % COLOUR_CELL
    near = (positions <= RULING_BAND) | (positions >= COLOUR_CELL - RULING_BAND)
    band = near[:, None] | near[None, :]
    ruling = band & (gray <= _percentile_u8(gray[band], 30))
    paper = ~band & (gray >= _percentile_u8(gray[~band], 60))
    reference = np.full(2, np.nan, np.float32)
    if ruling.sum() >= MIN_INK_PIXELS and paper.sum() >= MIN_INK_PIXELS:
        reference = np.array([_median_u8(lab[..., k][ruling]) - _median_u8(lab[..., k][paper]) for k in (1, 2)])
    # Each measured cell's inner window, as rows of pixels.
    rows = np.arange(81) if cells is None else np.flatnonzero(cells)
    out = np.full((81, 2), np.nan, np.float32)
    if rows.size == 0:
        return out, reference.astype(np.float32)
    lo = int(round(INSET * COLOUR_CELL))
    hi = COLOUR_CELL - lo
    spans = [(r * COLOUR_CELL, c * COLOUR_CELL) for r, c in (divmod(int(cell), 9) for cell in rows)]
    g = np.stack([gray[y + lo : y + hi, x + lo : x + hi] for y, x in spans]).reshape(rows.size, -1)
    chroma = np.stack([lab[y + lo : y + hi, x + lo : x + hi, 1:] for y, x in spans]).reshape(rows.size, -1, 2)
    # The paper level: each window's 75th percentile (as np.percentile, linear), from a partial sort.
    rank = 0.75 * (g.shape[1] - 1)
    low = int(rank)
    part = np.partition(g, (low, low + 1), axis=1)[:, low : low + 2].astype(np.float32)
    level = part[:, :1] + (rank - low) * (part[:, 1:] - part[:, :1])
    darkness = level - g
    deepest = darkness.max(axis=1, keepdims=True)
    ink = darkness >= np.maximum(MIN_DARKNESS, INK_SHARE * deepest)
    clear = darkness <= 0.15 * deepest
    enough = (deepest[:, 0] >= MIN_DARKNESS) & (np.minimum(ink.sum(axis=1), clear.sum(axis=1)) >= MIN_INK_PIXELS)
    if enough.any():
        sub = chroma[enough].astype(np.float32)
        out[rows[enough]] = _row_medians(sub, ink[enough]) - _row_medians(sub, clear[enough])
    return out, reference.astype(np.float32)
