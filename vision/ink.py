"""The colour of each cell's ink, measured against the grid's own printed ruling.

A grid's printed digits and its ruled lines come off one press in one ink;
a player's pen is often another colour (blue ballpoint above all). So the
ink of a mark whose colour lies far from the ruling's is not print, however
neat the digit. The colour is compared in the CIE L*a*b* space (OpenCV's
8-bit ``COLOR_BGR2Lab``: a* and b* offset by 128), on the chroma plane
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
#: Fewest ink pixels (of the 64-pixel cell) for a colour to be measured.
MIN_INK_PIXELS = 12
#: Least darkness (grey levels) of ink.
MIN_DARKNESS = 20
#: Half width (pixels of a CELL_SIZE cell) of the band around each ruled line taken as the ruling.
RULING_BAND = 2


def _chroma(colour: np.ndarray, gray: np.ndarray, ink: np.ndarray, paper: np.ndarray) -> np.ndarray | None:
    """Median (a*, b*) of the `ink` pixels less the median of the `paper` pixels, or None for too few pixels."""
    if ink.sum() < MIN_INK_PIXELS or paper.sum() < MIN_INK_PIXELS:
        return None
    ab = colour[..., 1:].astype(np.float32)
    return np.median(ab[ink], axis=0) - np.median(ab[paper], axis=0)


def ink_colours(photo: np.ndarray, lattice: np.ndarray, gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
    map_x, map_y = lattice_maps(np.asarray(lattice, np.float32), CELL_SIZE)
    rectified = cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(rectified, cv2.COLOR_BGR2Lab)
    out = np.full((81, 2), np.nan, np.float32)
    # The ruling: a band around each ruled line, its darker half ink, the lighter quarter of the cells' paper.
    positions = np.arange(9 * CELL_SIZE) % CELL_SIZE
    near = (positions <= RULING_BAND) | (positions >= CELL_SIZE - RULING_BAND)
    band = near[:, None] | near[None, :]
    levels = gray[band]
    ruling = band & (gray <= np.percentile(levels, 30))
    paper = ~band & (gray >= np.percentile(gray[~band], 60))
    reference = _chroma(lab, gray, ruling, paper)
    inset = int(round(INSET * CELL_SIZE))
    for cell in range(81):
        r, c = divmod(cell, 9)
        window = (
            slice(r * CELL_SIZE + inset, (r + 1) * CELL_SIZE - inset),
            slice(c * CELL_SIZE + inset, (c + 1) * CELL_SIZE - inset),
        )
        g = gray[window].astype(np.float32)
        level = float(np.percentile(g, 75))
        darkness = level - g
        deepest = float(darkness.max())
        if deepest < MIN_DARKNESS:
            continue
        ink = darkness >= max(MIN_DARKNESS, INK_SHARE * deepest)
        chroma = _chroma(lab[window], gray[window], ink, darkness <= 0.15 * deepest)
        if chroma is not None:
            out[cell] = chroma
    return out, np.full(2, np.nan, np.float32) if reference is None else reference.astype(np.float32)
