"""Stroke-level augmentation of digit glyphs: a digit as another hand or pen might have drawn it.

A glyph here is a uint8 image of ink strength (0 = paper). `augment_glyph`
changes its strokes as another writer's would differ: elastic distortion
(`elastic`; P. Y. Simard, D. Steinkraus, J. C. Platt, "Best practices for
convolutional neural networks applied to visual document analysis", ICDAR
2003: a random displacement field smoothed by a Gaussian and scaled), slant (a
horizontal shear, `slant`) and stroke width (erosion or dilation of the ink,
`stroke_width`). `augment_crops` gives labelled crops cut from photos such
variants, blurred and JPEG-compressed as paper and ink; `tight` cuts a glyph
to its ink. Writing the glyphs into grids is `vision.handwriting`'s job.
"""

from __future__ import annotations

import cv2
import numpy as np


def elastic(glyph: np.ndarray, rng: np.random.Generator, alpha: float = 8.0, sigma: float = 4.0) -> np.ndarray:
    """Elastic distortion of an image (Simard, Steinkraus and Platt 2003).

    Each pixel's displacement is drawn uniformly from [-1, 1] in x and y,
    the two fields are smoothed by a Gaussian of `sigma` pixels and scaled by
    `alpha`, and the image is resampled along them.

    Parameters
    ----------
    glyph : np.ndarray
        Shape (h, w), uint8 ink strength (0 = paper).
    rng : np.random.Generator
    alpha, sigma : float
        Scale (pixels) and smoothness (pixels) of the displacement, for a
        glyph some 50-60 pixels tall (Simard et al. used alpha 34, sigma 4 on
        28-pixel MNIST digits with unnormalised fields; after smoothing, these
        fields move strokes by about 1-3 pixels).

    Returns
    -------
    np.ndarray
        Same shape, uint8.
    """
    h, w = glyph.shape
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    # Normalise the smoothed fields to unit peak so alpha is in pixels whatever sigma is.
    peak = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
    xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(
        glyph,
        xx + dx * (alpha / peak),
        yy + dy * (alpha / peak),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )


def slant(glyph: np.ndarray, shear: float) -> np.ndarray:
    """Shear an image horizontally about its centre row: x' = x + shear * (centre - y).

    Positive `shear` leans the top to the right, as a right-handed writer
    slants. The canvas widens so no ink is cut. Input and output uint8
    ink strength (0 = paper), shape (h, w) -> (h, w + |shear| h).
    """
    h, w = glyph.shape
    extra = int(np.ceil(abs(shear) * h))
    m = np.array([[1, -shear, shear * h / 2 + extra / 2], [0, 1, 0]], np.float32)
    return cv2.warpAffine(glyph, m, (w + extra, h), flags=cv2.INTER_LINEAR, borderValue=0)


def stroke_width(glyph: np.ndarray, change: int) -> np.ndarray:
    """Thicken (`change` > 0, dilation) or thin (< 0, erosion) the ink by |change| pixels (3 x 3 cross)."""
    if change == 0:
        return glyph
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    op = cv2.dilate if change > 0 else cv2.erode
    return op(glyph, kernel, iterations=abs(change))


def augment_glyph(glyph: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A digit as another hand or pen might have drawn it: elastic distortion, slant and stroke width.

    Parameters
    ----------
    glyph : np.ndarray
        Shape (h, w), uint8 ink strength (0 = paper), a digit some 40-60
        pixels tall with a margin of paper.
    rng : np.random.Generator
    strength : float
        Scales the elastic displacement and the slant (1 = the ranges below).

    Returns
    -------
    np.ndarray
        uint8 ink strength, tight around the ink (at least 1 x 1): elastic
        displacement alpha ~ U(0, 6) pixels per 50 pixels of height (Gaussian
        sigma 5 at that height), shear ~ U(-0.3, 0.3), and in a third of the
        glyphs each a dilation or an erosion by 1 pixel per 40 of height
        (never eroding a stroke away).
    """
    h = glyph.shape[0]
    pad = max(4, h // 4)
    g = cv2.copyMakeBorder(glyph, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    g = elastic(g, rng, alpha=rng.uniform(0, 6) * strength * h / 50, sigma=5.0 * h / 50)
    g = slant(g, rng.uniform(-0.3, 0.3) * strength)
    step = max(1, int(round(h / 40)))
    change = int(rng.choice([-step, 0, step], p=[1 / 3, 1 / 3, 1 / 3]))
    if change < 0:
        thinner = stroke_width(g, change)
        if (thinner > 96).sum() > 0.5 * (g > 96).sum():  # keep strokes that erosion would break
            g = thinner
    else:
        g = stroke_width(g, change)
    return tight(g)


def tight(glyph: np.ndarray, level: int = 24) -> np.ndarray:
    """The part of an ink image (uint8, 0 = paper) inside the bounding box of pixels above `level`."""
    ys, xs = np.nonzero(glyph > level)
    if ys.size == 0:
        return glyph[:1, :1]
    return np.ascontiguousarray(glyph[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def augment_crops(
    crops: list[np.ndarray], labels: list[int], variants: int = 4, seed: int = 0
) -> tuple[list[np.ndarray], list[int]]:
    """Stroke-level variants of labelled digit crops (`augment_glyph`, then blur and JPEG).

    Parameters
    ----------
    crops : list of np.ndarray
        uint8 ink-strength crops (`vision.cells.CellMarks.crops`).
    labels : list of int
        Their digits.
    variants : int
        New crops per crop (the originals are not included).
    seed : int

    Returns
    -------
    (list of np.ndarray, list of int)
        len(crops) * variants crops, uint8 ink strength, with their labels.
        Each is the crop scaled to 56 pixels tall, augmented, in half the
        variants blurred (sigma 0.5-1.2 pixels) and JPEG-compressed (quality
        50-90) as paper and ink, and scaled back to its own height.
    """
    rng = np.random.default_rng(seed)
    out, out_labels = [], []
    for crop, label in zip(crops, labels):
        h = crop.shape[0]
        scale = 56 / max(h, 1)
        big = cv2.resize(crop, (max(1, int(round(crop.shape[1] * scale))), 56), interpolation=cv2.INTER_CUBIC)
        for _ in range(variants):
            g = augment_glyph(big, rng)
            if rng.random() < 0.5:
                g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.5, 1.2))
                ok, data = cv2.imencode(".jpg", 255 - g, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 91))])
                decoded = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if ok else None
                if decoded is not None:
                    g = 255 - decoded
                g = tight(g, 40)
            small = cv2.resize(
                g,
                (max(1, int(round(g.shape[1] / scale))), max(1, int(round(g.shape[0] / scale)))),
                interpolation=cv2.INTER_AREA,
            )
            out.append(small)
            out_labels.append(label)
    return out, out_labels
