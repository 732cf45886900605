"""The ink of a rectified grid: an adaptive threshold, the edges of shadows left out.

The threshold compares each pixel with its neighbourhood, so uneven light does
not matter; a black-hat transform (a morphological closing less the image)
keeps thin dark strokes and drops the edge of a shadow. The closing's ellipse
is done as a chain of one-dimensional steps (`_ellipse_morphology`).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .rectify import CELL_SIZE

#: Ink must also stand out from a morphological closing over this share of a
#: cell (black-hat transform) by more than BLACKHAT_LEVEL grey levels: thin
#: dark strokes do, the edge of a shadow does not.
BLACKHAT = 0.25


BLACKHAT_LEVEL = 4


def binarize_grid(grid_image: np.ndarray) -> np.ndarray:
    """Ink mask of a rectified grid (255 = ink), ruling included.

    Parameters
    ----------
    grid_image : np.ndarray
        Shape (9*CELL_SIZE, 9*CELL_SIZE), uint8 gray.

    Returns
    -------
    np.ndarray
        Same shape, uint8: 255 where darker than the local mean (an
        adaptive threshold over half a cell) by more than 9 grey levels and
        darker than its surroundings closed over a quarter cell (black-hat) by
        more than BLACKHAT_LEVEL: shadows and their edges are no ink.
    """
    block = (CELL_SIZE // 2) | 1
    blurred = cv2.GaussianBlur(grid_image, (3, 3), 0)
    ink = cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 9)
    size = int(BLACKHAT * CELL_SIZE) | 1
    closed = _ellipse_morphology(_ellipse_morphology(blurred, size, cv2.dilate, cv2.max), size, cv2.erode, cv2.min)
    dark = cv2.subtract(closed, blurred)  # the black-hat transform (closing less the image)
    return cv2.bitwise_and(ink, cv2.threshold(dark, BLACKHAT_LEVEL, 255, cv2.THRESH_BINARY)[1])


@functools.cache
def _ellipse_steps(size: int) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The one-dimensional kernels of `_ellipse_morphology` for OpenCV's size x size ellipse (`size` odd).

    The ellipse (``cv2.getStructuringElement(cv2.MORPH_ELLIPSE, ...)``) is the
    union of centred rectangles, one per distinct row width, each as tall as
    the rows at least that wide: narrowest and tallest first. Returns the
    row kernel of the first rectangle's width; for each further rectangle, a
    row kernel widening the last one's rows to its width and a column kernel
    shortening the one before to its height; and the column kernel of the
    last (widest) rectangle's height. All MORPH_RECT, uint8.
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    widths = kernel.sum(axis=1)
    rects = [
        (w, 2 * int(np.abs(np.flatnonzero(widths >= w) - size // 2).max()) + 1) for w in sorted(set(widths.tolist()))
    ]
    rect = lambda w, h: cv2.getStructuringElement(cv2.MORPH_RECT, (w, h))  # noqa: E731
    steps = [(rect(w - w0 + 1, 1), rect(1, h0 - h + 1)) for (w0, h0), (w, h) in zip(rects[:-1], rects[1:])]
    return rect(rects[0][0], 1), steps, rect(1, rects[-1][1])


def _ellipse_morphology(image: np.ndarray, size: int, operation, join) -> np.ndarray:
    """`cv2.dilate` (`operation`, with `join` cv2.max) or `cv2.erode` (cv2.min) of `image` by OpenCV's size x
    size ellipse, as a chain of one-dimensional ones.

    The ellipse is a union of centred rectangles (`_ellipse_steps`), so the
    result is the max (min) of the image dilated (eroded) by each, and each
    rectangle is its rows then its columns; sharing the rows' widening and
    the columns' heights in a Horner-like chain takes some 50 one-pixel steps
    per pixel instead of the ellipse's 213 (for size 17). Same values as OpenCV's, the image's edges included (OpenCV's
    default border leaves outside pixels out of the max and the min, and each
    one-dimensional step keeps every path between two pixels inside the image).
    Shape (H, W) uint8 in and out.
    """
    first, steps, last = _ellipse_steps(size)
    rows = chained = image if first.size == 1 else operation(image, first)
    for across, down in steps:
        rows = operation(rows, across)
        chained = join(operation(chained, down), rows)
    return operation(chained, last)
