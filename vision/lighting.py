"""The paper's own brightness under the ink, and a photo with its lighting divided out.

A shadow cast across the page (a phone's or a hand's, held over it) darkens
paper and ink alike, by about the same factor, and its edge is a step in
brightness that an adaptive threshold marks as a band of ink: along it, the
grid's border joins the page's edge and the background, and no contour is the
grid's outline. The paper's brightness is found by a morphological closing
with a square wider than any stroke (`paper_level`); dividing the photo by it
(`shadow_free`) leaves paper near white inside the shadow as outside, and
each stroke as dark against its own paper as it was.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Side (pixels, at an image's shorter side of 600) of the square that
#: `paper_level` closes an image with: wider than any stroke there (a grid's
#: border and a bold pen digit are 3-10 pixels in the 800 x 600 copy that
#: grids are located in), so it takes all ink out and leaves the paper's own
#: brightness. Scaled with the image's shorter side.
PAPER_CLOSING = 15


def paper_level(gray: np.ndarray, side: int | None = None) -> np.ndarray:
    """The brightness of the paper under the ink: a morphological closing with a square.

    A closing (dilation, then erosion: a maximum, then a minimum filter)
    with a square of `side` pixels (default PAPER_CLOSING scaled to the
    image's shorter side, 600 in the reference; made odd) takes away every dark stroke
    narrower than the square and keeps broad regions, both sides of a step
    (a shadow's sharp edge, straight or gently curved) and any ramp (a soft
    one) as they are.

    Parameters
    ----------
    gray : np.ndarray
        Shape (H, W), uint8.
    side : int, optional
        The square's side, pixels: wider than the widest stroke.

    Returns
    -------
    np.ndarray
        Shape (H, W), uint8, at least `gray` everywhere.
    """
    side = max(3, (int(round(PAPER_CLOSING * min(gray.shape[:2]) / 600)) if side is None else int(side)) | 1)
    return cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))


def shadow_free(gray: np.ndarray) -> np.ndarray:
    """An image with its lighting divided out: `gray` ((H, W) uint8) over its `paper_level`, times 255, as
    (H, W) uint8 (OpenCV's saturating ``cv2.divide``).

    Paper is near white inside a cast shadow as outside it, and ink stays as
    dark against its own paper, so the shadow's edge is gone.
    """
    return cv2.divide(gray, paper_level(gray), scale=255)
