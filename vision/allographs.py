"""Digits drawn as pen strokes from allograph templates: a writer for every sample.

A handwriting face is one writer: each of its digits has one form. People
write a digit in one of a few forms (*allographs*: a 1 with or without a
flag and a base, a 4 open or closed, a 7 with or without a bar, a 9 with a
straight or a curved tail) and each time a little differently. This module
holds those forms as strokes through a few points (`DIGIT_ALLOGRAPHS`) and
draws each sample anew (`draw_allograph`): the points moved at random, the
stroke a smooth curve through them (a Catmull-Rom spline), the digit narrowed
or widened, slanted and turned, and drawn with a pen of random width. Every
sample is thus a new hand, which the faces cannot give.

The idea of drawing characters from stroke models of their allographs with
random perturbation is old in handwriting recognition; the templates and
ranges here are ours, written for this project from the common forms of
digits.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Each digit's forms: a form is a list of strokes, a stroke the points (x, y) that the pen passes through,
#: in a box 0.6 wide and 1 tall (y grows downwards).
DIGIT_ALLOGRAPHS: dict[int, list[list[list[tuple[float, float]]]]] = {
    1: [
        [[(0.3, 0.0), (0.3, 1.0)]],
        [[(0.08, 0.28), (0.3, 0.0), (0.3, 1.0)]],
        [[(0.08, 0.28), (0.3, 0.0), (0.3, 1.0)], [(0.08, 1.0), (0.52, 1.0)]],
        [[(0.0, 0.4), (0.32, 0.0), (0.28, 1.0)]],
    ],
    2: [
        [[(0.03, 0.25), (0.2, 0.02), (0.45, 0.04), (0.56, 0.28), (0.42, 0.58), (0.0, 1.0), (0.6, 0.98)]],
        [
            [
                (0.03, 0.22),
                (0.25, 0.0),
                (0.52, 0.1),
                (0.5, 0.38),
                (0.12, 0.86),
                (0.22, 0.78),
                (0.28, 0.95),
                (0.15, 1.0),
                (0.6, 0.97),
            ]
        ],
        [[(0.05, 0.18), (0.3, 0.0), (0.55, 0.2), (0.45, 0.5), (0.05, 0.98), (0.6, 0.98)]],
    ],
    3: [
        [
            [(0.04, 0.12), (0.28, 0.0), (0.5, 0.14), (0.45, 0.38), (0.2, 0.5)]
            + [(0.46, 0.6), (0.56, 0.8), (0.35, 1.0), (0.02, 0.9)]
        ],
        [[(0.04, 0.0), (0.55, 0.0), (0.22, 0.4), (0.48, 0.52), (0.56, 0.78), (0.32, 1.0), (0.02, 0.9)]],
        [[(0.06, 0.1), (0.3, 0.0), (0.52, 0.18), (0.26, 0.48), (0.55, 0.7), (0.4, 0.98), (0.05, 0.92)]],
    ],
    4: [
        [[(0.38, 0.0), (0.0, 0.66), (0.6, 0.66)], [(0.45, 0.3), (0.45, 1.0)]],
        [[(0.45, 1.0), (0.45, 0.0), (0.0, 0.66), (0.6, 0.66)]],
        [[(0.08, 0.0), (0.03, 0.56), (0.6, 0.56)], [(0.45, 0.05), (0.45, 1.0)]],
    ],
    5: [
        [
            [(0.08, 0.0), (0.05, 0.45), (0.3, 0.38), (0.55, 0.58), (0.5, 0.9), (0.25, 1.0), (0.0, 0.88)],
            [(0.08, 0.0), (0.55, 0.0)],
        ],
        [[(0.55, 0.0), (0.1, 0.0), (0.06, 0.42), (0.32, 0.38), (0.56, 0.62), (0.45, 0.95), (0.2, 1.0), (0.0, 0.9)]],
    ],
    6: [
        [
            [(0.5, 0.04), (0.25, 0.1), (0.06, 0.5), (0.06, 0.85), (0.27, 1.0)]
            + [(0.5, 0.86), (0.5, 0.62), (0.27, 0.5), (0.06, 0.66)]
        ],
        [[(0.42, 0.0), (0.12, 0.45), (0.05, 0.8), (0.25, 1.0), (0.5, 0.85), (0.45, 0.6), (0.2, 0.6), (0.08, 0.75)]],
        [[(0.45, 0.0), (0.12, 0.5), (0.08, 0.85), (0.28, 1.0), (0.5, 0.86), (0.46, 0.62), (0.26, 0.55), (0.1, 0.7)]],
    ],
    7: [
        [[(0.0, 0.0), (0.6, 0.0), (0.2, 1.0)]],
        [[(0.0, 0.0), (0.6, 0.0), (0.22, 1.0)], [(0.14, 0.52), (0.52, 0.5)]],
        [[(0.0, 0.16), (0.02, 0.0), (0.6, 0.0), (0.3, 0.55), (0.26, 1.0)]],
    ],
    8: [
        [
            [
                (0.5, 0.1),
                (0.3, 0.0),
                (0.08, 0.12),
                (0.1, 0.34),
                (0.3, 0.48),
                (0.52, 0.64),
                (0.52, 0.88),
                (0.3, 1.0),
                (0.06, 0.88),
                (0.08, 0.64),
                (0.3, 0.48),
                (0.5, 0.32),
                (0.5, 0.1),
            ]
        ],
        [
            [
                (0.3, 0.46),
                (0.08, 0.3),
                (0.15, 0.04),
                (0.42, 0.04),
                (0.5, 0.28),
                (0.3, 0.46),
                (0.06, 0.7),
                (0.18, 0.98),
                (0.45, 0.98),
                (0.55, 0.7),
                (0.3, 0.46),
            ]
        ],
        [
            [(0.3, 0.0), (0.08, 0.2), (0.3, 0.42), (0.5, 0.2), (0.3, 0.0)],
            [(0.3, 0.42), (0.04, 0.7), (0.3, 1.0), (0.56, 0.7), (0.3, 0.42)],
        ],
    ],
    9: [
        [[(0.55, 0.26), (0.35, 0.45), (0.1, 0.42), (0.04, 0.2), (0.25, 0.0), (0.5, 0.05), (0.55, 0.26), (0.5, 1.0)]],
        [
            [
                (0.55, 0.26),
                (0.35, 0.45),
                (0.1, 0.42),
                (0.04, 0.2),
                (0.25, 0.0),
                (0.5, 0.05),
                (0.55, 0.3),
                (0.5, 0.75),
                (0.3, 1.0),
                (0.06, 0.9),
            ]
        ],
        [[(0.5, 0.1), (0.25, 0.0), (0.04, 0.2), (0.15, 0.42), (0.45, 0.35), (0.55, 0.05)], [(0.55, 0.05), (0.48, 1.0)]],
        [[(0.5, 0.08), (0.3, 0.0), (0.06, 0.15), (0.1, 0.4), (0.35, 0.42), (0.52, 0.2), (0.5, 0.6), (0.42, 1.0)]],
    ],
}


def catmull_rom(points: np.ndarray, steps: int = 12) -> np.ndarray:
    """A smooth curve through `points` (shape (n, 2), float): the uniform Catmull-Rom spline (E. Catmull,
    R. Rom, "A class of local interpolating splines", 1974), `steps` samples per span, the end points
    extended by reflection. Two points give a straight line of `steps`
    samples. Returns shape (m, 2), float64."""
    p = np.asarray(points, np.float64)
    if len(p) == 2:
        t = np.linspace(0.0, 1.0, steps)[:, None]
        return p[0] + t * (p[1] - p[0])
    ext = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    t = np.linspace(0.0, 1.0, steps, endpoint=False)[:, None]
    spans = []
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        spans.append(
            0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2 + (3 * p1 - p0 - 3 * p2 + p3) * t**3)
        )
    return np.vstack(spans + [p[-1:]])


def draw_allograph(digit: int, rng: np.random.Generator, height: int = 56) -> np.ndarray:
    """One digit drawn in a new hand: a form of `DIGIT_ALLOGRAPHS` picked at random and perturbed.

    Parameters
    ----------
    digit : int
        1..9.
    rng : np.random.Generator
        The form, and: each point moved by a Gaussian of sigma ~ U(0.02, 0.05)
        of the height; width x U(0.7, 1.3); shear ~ U(-0.35, 0.25) (forward
        slant is the commoner); a turn of U(-6, 6) degrees; a pen U(0.035, 0.11)
        of the height wide (anti-aliased).
    height : int
        The digit's height before the turn and the pen, pixels.

    Returns
    -------
    np.ndarray
        uint8 ink strength (0 = paper), tight around the ink, as
        `vision.handwriting.glyph_of` gives a face's digit.

    Raises
    ------
    KeyError
        `digit` is not 1..9.
    """
    forms = DIGIT_ALLOGRAPHS[digit]
    strokes = forms[int(rng.integers(len(forms)))]
    jitter = rng.uniform(0.02, 0.05)
    widen = rng.uniform(0.7, 1.3)
    shear = rng.uniform(-0.35, 0.25)
    angle = np.deg2rad(rng.uniform(-6.0, 6.0))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    pen = max(1, int(round(rng.uniform(0.035, 0.11) * height)))
    pad = height // 2 + pen
    canvas = np.zeros((2 * height + 2 * pad, 2 * height + 2 * pad), np.uint8)
    for stroke in strokes:
        points = np.asarray(stroke, np.float64) + rng.normal(0.0, jitter, (len(stroke), 2))
        curve = catmull_rom(points)
        curve[:, 0] = curve[:, 0] * widen - shear * (curve[:, 1] - 0.5)
        curve = (curve - 0.5) @ turn.T + 0.5
        fixed = np.round((curve * height + pad) * 16).astype(np.int32)  # 4 fractional bits for cv2's shift
        cv2.polylines(canvas, [fixed.reshape(-1, 1, 2)], False, 255, pen, cv2.LINE_AA, shift=4)
    ys, xs = np.nonzero(canvas > 24)
    return np.ascontiguousarray(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])
