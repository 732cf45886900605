"""A second look at a doubtful handwritten digit: nearest neighbours under the image distortion model.

The handwritten-digit model (`vision.digits`) compares histograms of oriented
gradients, which a new writer's stroke, bent a little further than any
training sample's, can move across the border between two digits (a 4 whose
top is nearly closed, a 1 with a long flag). The image distortion model
(IDM) of D. Keysers, T. Deselaers, C. Gollan and H. Ney, "Deformation Models
for Image Recognition", IEEE TPAMI 29(8), 2007, compares the images
themselves and lets every pixel of the query match the best pixel within
`WARP` pixels of its place in the sample, each compared by its local context
(the horizontal and vertical gradients of its 3 x 3 neighbourhood), so that
a small local bend costs nothing while a missing or extra stroke still does.
Two contexts' squared difference is the sum over the 3 x 3 neighbourhood of
the two gradients' squared differences, so each displacement's costs are
one box filter of the gradients' differences (the contexts are never built).

Measuring it against every sample would be slow (some 8 ms for 50 samples, so
seconds for all of them), so it re-ranks the `RERANKED` nearest samples of the HOG model
(`CellClassifier.second_look`), and the `DIGIT_RERANKED` nearest of the
solution's digit, and is asked only about entries that disagree with the
solution (`repair.read_entries`): the least distorted samples vote
(`deformed_votes`), and `distortion_ratio` says how nearly the solution's
digit matches. The samples are stored as
their upright normalised images (`vision.features.normalised_images`, 28 x 28
uint8), from which the gradients are computed when needed.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Largest move, pixels of the 28 x 28 normalised image, of a query pixel onto a sample pixel (the
#: "warp range" of Keysers et al.): 2 pixels let a stroke bend by up to 7% of the digit's size.
WARP = 2
#: Samples of the HOG model re-ranked for each query (its nearest, in its own space).
RERANKED = 50
#: Nearest re-ranked samples that vote, each by the inverse of its distortion distance.
VOTERS = 3
#: Gradients a pixel's local context is made of (Sobel x and y), each over its 3 x 3 neighbourhood.
GRADIENTS = 2
#: Nearest samples (in the HOG model's space) of a digit asked about, measured besides the RERANKED: the
#: solution's digit may have none among those and still be nearly as near as the nearest
#: (`distortion_ratio`).
DIGIT_RERANKED = 10


def gradient_context(images: np.ndarray) -> np.ndarray:
    """The gradients that make each pixel's local context (its 3 x 3 neighbourhood of them).

    Parameters
    ----------
    images : np.ndarray
        Shape (n, s, s), uint8 ink strength (0 = paper), such as
        `vision.features.normalised_images`.

    Returns
    -------
    np.ndarray
        Shape (n, GRADIENTS, s, s) float32, channels first: the 3 x 3 Sobel
        x and y gradients of the image scaled to 0..1. A pixel's context is
        these gradients at the pixel and its eight neighbours (zero beyond the
        border), as `distortion_distances` compares them.
    """
    images = np.asarray(images)
    n, side = images.shape[0], images.shape[1]
    out = np.empty((n, GRADIENTS, side, side), np.float32)
    for i, image in enumerate(images):
        scaled = image.astype(np.float32) / 255.0
        out[i, 0] = cv2.Sobel(scaled, cv2.CV_32F, 1, 0, ksize=3)
        out[i, 1] = cv2.Sobel(scaled, cv2.CV_32F, 0, 1, ksize=3)
    return out


def _box_sums(values: np.ndarray) -> np.ndarray:
    """Each pixel's sum over its 3 x 3 neighbourhood: shape (..., h + 2, w + 2) -> (..., h, w)."""
    h, w = values.shape[-2] - 2, values.shape[-1] - 2
    rows = values[..., 0:h, :] + values[..., 1 : h + 1, :] + values[..., 2 : h + 2, :]
    return rows[..., 0:w] + rows[..., 1 : w + 1] + rows[..., 2 : w + 2]


def distortion_distances(query: np.ndarray, samples: np.ndarray, warp: int = WARP) -> np.ndarray:
    """Image distortion model distances from one query to some samples (Keysers et al. 2007).

    Each query pixel is matched with the sample pixel within `warp` pixels
    (horizontally and vertically) of its place whose local context is
    nearest; the distance is the sum over the query's pixels of those
    squared context differences. Not symmetric: the query is the one bent.
    A pixel's context is its 3 x 3 neighbourhood of gradients (zero beyond
    the image's border); a query pixel matched beyond the sample's border
    meets a context of zeros (paper). The squared difference of two contexts
    is the 3 x 3 box sum of the gradients' squared differences, so each
    displacement costs one subtraction and one box filter.

    Parameters
    ----------
    query : np.ndarray
        Shape (GRADIENTS, s, s) float32: `gradient_context` of the query image.
    samples : np.ndarray
        Shape (m, GRADIENTS, s, s) float32: `gradient_context` of the samples.
    warp : int
        The warp range, pixels (0: plain squared Euclidean distance of the contexts).

    Returns
    -------
    np.ndarray
        Shape (m,) float64, non-negative.
    """
    side = query.shape[-1]
    padded_query = np.pad(query, ((0, 0), (1, 1), (1, 1)))  # no gradient beyond the border
    padded = np.pad(samples, ((0, 0), (0, 0), (1 + warp, 1 + warp), (1 + warp, 1 + warp)))
    best = np.full((len(samples), side, side), np.inf, np.float32)
    for dy in range(2 * warp + 1):
        y0, y1 = max(0, warp - dy), side - max(0, dy - warp)  # query rows matched inside the sample
        for dx in range(2 * warp + 1):
            x0, x1 = max(0, warp - dx), side - max(0, dx - warp)
            difference = (
                padded[:, :, y0 + dy : y1 + dy + 2, x0 + dx : x1 + dx + 2]
                - padded_query[None, :, y0 : y1 + 2, x0 : x1 + 2]
            )
            np.square(difference, out=difference)
            window = best[:, y0:y1, x0:x1]
            np.minimum(window, _box_sums(difference.sum(axis=1)), out=window)
    if warp:  # pixels within `warp` of the border may also be matched beyond the sample's: paper
        beyond = _box_sums((padded_query**2).sum(axis=0))
        border = np.ones((side, side), bool)
        border[warp:-warp, warp:-warp] = False
        best[:, border] = np.minimum(best[:, border], beyond[border])
    return best.sum(axis=(1, 2), dtype=np.float64)


def deformed_votes(distances: np.ndarray, labels: np.ndarray, voters: int = VOTERS) -> np.ndarray:
    """P(digit 1..9) from the `voters` samples of least distortion distance, each weighted by 1 / distance.

    `distances` (m,) and `labels` (m,) int 1..9 of the samples re-ranked for one query.
    Returns shape (9,) float64 summing to 1.
    """
    nearest = np.argsort(distances, kind="stable")[:voters]
    votes = np.zeros(9)
    np.add.at(votes, np.asarray(labels)[nearest] - 1, 1.0 / np.maximum(distances[nearest], 1e-6))
    return votes / votes.sum()


def nearest_per_digit(distances: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each digit's least distortion distance among the samples measured for one query.

    `distances` (m,) and `labels` (m,) int 1..9. Returns shape (9,) float64;
    ``inf`` for a digit with no sample among them.
    """
    out = np.full(9, np.inf)
    np.minimum.at(out, np.asarray(labels) - 1, np.asarray(distances, np.float64))
    return out


def distortion_ratio(nearest: np.ndarray, digit: int) -> float:
    """How much more a query must bend to match `digit` than to match any other digit.

    `nearest` (9,) float64 (`nearest_per_digit`). Returns the least distance
    to a sample of `digit` over the least distance to a sample of another
    digit: below 1 the nearest sample is that digit's, ``inf`` when no sample
    of it was measured. A ratio near 1 says the mark lies between two digits
    (a question), far below 1 that it is that digit.
    """
    others = np.delete(np.asarray(nearest, np.float64), digit - 1).min()
    return float(nearest[digit - 1] / max(others, 1e-9))
