"""Cells: split a rectified grid into 81 cells, remove ruled lines, find digit ink.

The rectified grid is binarized with an adaptive threshold (so shadows and
uneven light do not matter), the long horizontal and vertical strokes of the
ruling are opened away, and in every cell the connected components of ink near
the cell centre are kept. A cell with no such component of digit height is
empty; so is one whose mark is much fainter than the grid's other digits (a
fold, a shadow edge, print showing through the paper). Otherwise its digit is
cropped to the components' bounding box.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .rectify import CELL_SIZE

#: A digit's ink must span at least this share of the cell (its longer side).
MIN_DIGIT_HEIGHT = 0.28
#: ... and at most this share (taller strokes are ruling, not print).
MAX_DIGIT_HEIGHT = 0.95
#: A mark whose contrast is below this share of the grid's median digit
#: contrast is shading, a fold or show-through, not print.
MIN_RELATIVE_CONTRAST = 0.45


@dataclass(frozen=True)
class CellInk:
    """The digit ink found in the 81 cells of a rectified grid.

    Attributes
    ----------
    has_ink : np.ndarray
        Shape (81,), bool: True where a cell holds a digit-sized mark.
    faint : np.ndarray
        Shape (81,), bool: True where a digit-sized mark was found but is much
        fainter than the grid's digits (probably a fold or show-through; read
        as empty, but kept as the alternative for consistency repair).
    crops : list of np.ndarray or None
        81 entries; for inked and faint cells a uint8 binary crop (255 = ink)
        tight around the mark, else None.
    contrast : np.ndarray
        Shape (81,), float32: (paper - ink) / paper brightness of each cell's
        mark (0 where there is none).
    ink_height : np.ndarray
        Shape (81,), float32: longer side of the digit ink's bounding box as a
        share of the cell (0 for empty cells); a weak mark sits near
        MIN_DIGIT_HEIGHT.
    """

    has_ink: np.ndarray
    faint: np.ndarray
    crops: list
    ink_height: np.ndarray
    contrast: np.ndarray


def binarize_grid(grid_image: np.ndarray) -> np.ndarray:
    """Ink mask of a rectified grid (255 = ink), ruling included.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray.
    """
    block = (CELL_SIZE // 2) | 1
    blurred = cv2.GaussianBlur(grid_image, (3, 3), 0)
    return cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 9)


def remove_ruling(ink: np.ndarray) -> np.ndarray:
    """Remove the grid's ruled lines from an ink mask (morphological opening).

    Strokes longer than 0.85 of a cell in one direction are ruling; digits,
    even a tall 1, are shorter. The ruling is dilated by one pixel before it is removed so its
    anti-aliased edge goes too.
    """
    length = int(CELL_SIZE * 0.85)
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1)))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length)))
    ruling = cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((3, 3), np.uint8))
    return cv2.bitwise_and(ink, cv2.bitwise_not(ruling))


def digit_in_cell(cell: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The digit ink of one cell's mask.

    Parameters
    ----------
    cell : np.ndarray
        Shape (CELL_SIZE, CELL_SIZE), uint8 ink mask without ruling.

    Returns
    -------
    (np.ndarray or None, float)
        Tight binary crop of the digit (or None when empty) and the longer
        side of its bounding box as a share of the cell.
    """
    n = cell.shape[0]
    margin = max(2, n // 16)
    inner = np.zeros_like(cell)
    inner[margin : n - margin, margin : n - margin] = cell[margin : n - margin, margin : n - margin]
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(inner, connectivity=8)
    keep = []
    lo, hi = 0.25 * n, 0.75 * n
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        cx, cy = x + w / 2.0, y + h / 2.0
        if area < n * n * 0.004:
            continue
        if not (lo <= cx <= hi and lo <= cy <= hi):
            continue
        if max(h, w) > MAX_DIGIT_HEIGHT * n:
            continue
        keep.append(i)
    if not keep:
        return None, 0.0
    x0 = min(stats[i][0] for i in keep)
    y0 = min(stats[i][1] for i in keep)
    x1 = max(stats[i][0] + stats[i][2] for i in keep)
    y1 = max(stats[i][1] + stats[i][3] for i in keep)
    # The longer side: a 1 seen sideways (photo turned 90 degrees) is wide, not tall.
    height = max(y1 - y0, x1 - x0) / n
    if height < MIN_DIGIT_HEIGHT:
        return None, float(height)
    mask = np.isin(labels[y0:y1, x0:x1], keep)
    return (mask * 255).astype(np.uint8), float(height)


def mark_contrast(cell_gray: np.ndarray, cell_ink: np.ndarray) -> float:
    """Contrast of a cell's ink against its paper: (paper - ink) / paper.

    Parameters
    ----------
    cell_gray : np.ndarray
        Shape (n, n), uint8 gray cell.
    cell_ink : np.ndarray
        Shape (n, n), bool, the cell's digit ink.

    Returns
    -------
    float
        Median paper brightness minus the 20th percentile of ink brightness,
        over the paper brightness; about 0.2-0.6 for print, under 0.15 for
        shading and folds.
    """
    if not cell_ink.any() or cell_ink.all():
        return 0.0
    paper = float(np.median(cell_gray[~cell_ink]))
    ink = float(np.percentile(cell_gray[cell_ink], 20))
    return max(0.0, (paper - ink) / max(paper, 1.0))


def find_cell_ink(grid_image: np.ndarray) -> CellInk:
    """Split a rectified grid into cells and find the digit ink in each.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray, upright or not.

    Returns
    -------
    CellInk
        Cells in row-major order of `grid_image` as given.
    """
    ink = remove_ruling(binarize_grid(grid_image))
    n = CELL_SIZE
    m = max(2, n // 8)
    has_ink = np.zeros(81, dtype=bool)
    heights = np.zeros(81, dtype=np.float32)
    contrast = np.zeros(81, dtype=np.float32)
    crops: list = [None] * 81
    for idx in range(81):
        r, c = divmod(idx, 9)
        cell_ink = ink[r * n : (r + 1) * n, c * n : (c + 1) * n]
        crop, height = digit_in_cell(cell_ink)
        heights[idx] = height
        if crop is not None:
            has_ink[idx] = True
            crops[idx] = crop
            gray = grid_image[r * n + m : (r + 1) * n - m, c * n + m : (c + 1) * n - m]
            contrast[idx] = mark_contrast(gray, cell_ink[m : n - m, m : n - m] > 0)
    faint = np.zeros(81, dtype=bool)
    if has_ink.any():
        faint = has_ink & (contrast < MIN_RELATIVE_CONTRAST * np.median(contrast[has_ink]))
        has_ink &= ~faint
    return CellInk(has_ink, faint, crops, heights, contrast)
