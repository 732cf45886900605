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

Measuring it against every sample would be slow (some 8 ms for 50 samples, so
seconds for all of them), so it re-ranks the `RERANKED` nearest samples of the HOG model
(`CellClassifier.second_look`), and the `DIGIT_RERANKED` nearest of the
solution's digit, and is asked only about entries that disagree with the
solution (`repair.read_entries`): the least distorted samples vote
(`deformed_votes`), and `distortion_ratio` says how nearly the solution's
digit matches. The samples are stored as
their upright normalised images (`vision.features.normalised_images`, 28 x 28
uint8), from which the gradient contexts are computed when needed.
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
#: Channels of a pixel's local context: the two Sobel gradients over its 3 x 3 neighbourhood.
CONTEXT_CHANNELS = 18
#: Nearest samples (in the HOG model's space) of a digit asked about, measured besides the RERANKED: the
#: solution's digit may have none among those and still be nearly as near as the nearest
#: (`distortion_ratio`).
DIGIT_RERANKED = 10


def gradient_context(images: np.ndarray) -> np.ndarray:
    """Each pixel's local context: the horizontal and vertical gradients of its 3 x 3 neighbourhood.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, s, s), uint8 ink strength (0 = paper), such as
        `vision.features.normalised_images`.

    Returns
    -------
    np.ndarray
        Shape (n, CONTEXT_CHANNELS, s, s) float32, channels first: for each
        pixel, the 3 x 3 Sobel x and y gradients (of the image scaled to
        0..1) around it, row by row (zero beyond the border).
    """
    images = np.asarray(images)
    n, side = images.shape[0], images.shape[1]
    out = np.empty((n, CONTEXT_CHANNELS, side, side), np.float32)
    padded = np.zeros((2, side + 2, side + 2), np.float32)
    for i, image in enumerate(images):
        scaled = image.astype(np.float32) / 255.0
        padded[0, 1:-1, 1:-1] = cv2.Sobel(scaled, cv2.CV_32F, 1, 0, ksize=3)
        padded[1, 1:-1, 1:-1] = cv2.Sobel(scaled, cv2.CV_32F, 0, 1, ksize=3)
        for k, (dy, dx) in enumerate((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
            out[i, 2 * k : 2 * k + 2] = padded[:, 1 + dy : 1 + dy + side, 1 + dx : 1 + dx + side]
    return out


def distortion_distances(query: np.ndarray, samples: np.ndarray, warp: int = WARP) -> np.ndarray:
    """Image distortion model distances from one query to some samples (Keysers et al. 2007).

    Each query pixel is matched with the sample pixel within `warp` pixels
    (horizontally and vertically) of its place whose local context is
    nearest; the distance is the sum over the query's pixels of those
    squared context differences. Not symmetric: the query is the one bent.

    Parameters
    ----------
    query : np.ndarray
        Shape (c, s, s) float32: `gradient_context` of the query image.
    samples : np.ndarray
        Shape (m, c, s, s) float32: `gradient_context` of the samples.
    warp : int
        The warp range, pixels (0: plain squared Euclidean distance of the contexts).

    Returns
    -------
    np.ndarray
        Shape (m,) float64, non-negative.
    """
    side = query.shape[-1]
    padded = np.pad(samples, ((0, 0), (0, 0), (warp, warp), (warp, warp)))  # paper beyond the border
    best = np.full((len(samples), side, side), np.inf, np.float32)
    difference = np.empty(samples.shape, np.float32)
    squared = np.empty(best.shape, np.float32)
    for dy in range(2 * warp + 1):
        for dx in range(2 * warp + 1):
            np.subtract(padded[:, :, dy : dy + side, dx : dx + side], query[None], out=difference)
            np.square(difference, out=difference)
            difference.sum(axis=1, out=squared)
            np.minimum(best, squared, out=best)
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
