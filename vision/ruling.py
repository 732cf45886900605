"""Ruled lines of an ink mask: long horizontal and vertical strokes, by morphological opening.

The one place where the vision stage extracts the ruling with line-shaped
structuring elements; `vision.locate`, `vision.rectify` and `vision.cells`
each choose the length for their own image and use the masks in their own way.
"""

from __future__ import annotations

import cv2
import numpy as np


def extract_lines(ink: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical lines of an ink mask, by morphological opening with thin rectangles.

    Each mask is the opening (``cv2.morphologyEx`` with ``cv2.MORPH_OPEN``: an
    erosion, then a dilation) of `ink` by a rectangular structuring element
    (``cv2.getStructuringElement(cv2.MORPH_RECT, ...)``) of `length` x 1
    pixels for the horizontal lines and 1 x `length` pixels for the vertical
    ones: only runs of ink at least `length` pixels long in that direction
    survive, so digits and specks shorter than that vanish. This is the method
    of OpenCV's tutorial "Extract horizontal and vertical lines by using
    morphological operations"
    (https://docs.opencv.org/4.x/dd/dd7/tutorial_morph_lines_detection.html).
    Outside the image counts as ink (OpenCV's default border for
    erosion), so a line cut by the image's edge is kept even when less than
    `length` of it is inside.

    Parameters
    ----------
    ink : np.ndarray
        Shape (H, W), uint8 ink mask (255 = ink, 0 = paper), any size in pixels.
    length : int
        Shortest run of ink (pixels) kept as a line; at least 1.

    Returns
    -------
    (np.ndarray, np.ndarray)
        The horizontal and the vertical lines: each shape (H, W), uint8,
        255 on the lines and 0 elsewhere (the ink's own values, for a
        0/255 mask).

    Raises
    ------
    cv2.error
        `length` is less than 1.
    """
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1)))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length)))
    return horizontal, vertical
