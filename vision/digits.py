"""Read cells: k-nearest neighbours on a mark's layout, then on its digit's shape.

A cell holds nothing, a printed given, a digit written by hand, or pencilled
candidates (small digits, usually in a corner). Measured on the in-progress
photos (`models/MODEL_CARD.md`), the *kind* of a mark is told best by its
layout alone (size and position in the cell, ink area, pieces, contrast
relative to the grid's print, stroke width: `vision.cells.MARK_FEATURES`), and
its *digit* best by the shape of its central piece within that kind. So the
classifier is three k-nearest-neighbours models (scikit-learn's
`KNeighborsClassifier`): one for the kind, one for printed digits, one for
handwritten digits; the probability of "printed 7" is P(printed) x P(7 |
printed).

The digit shape follows OpenCV's ``samples/python/digits.py``: the crop is
size-normalised, blurred and described by a histogram of oriented gradients
(Dalal and Triggs, "Histograms of Oriented Gradients for Human Detection",
CVPR 2005), computed here in NumPy over a batch of crops, plus its aspect
ratio and a thumbnail of its ink (`ink_thumbnails`: where the ink lies, which
a blurred, small digit keeps when its gradients fade into noise: the open
lower left of a 5 against a 6). Printed digits are compared in the principal
axes of their samples that keep 99.5% of the variance
(`CellClassifier.printed_projection`), for a neighbour search in about half
the time; handwritten digits are first deskewed by their image moments
(`deskew`, as OpenCV's sample does: a hand slants its own way) and compared by
the same three features in the principal axes of their own samples
(`CellClassifier.handwritten_projection`). A handwritten entry in doubt can be
given a second look by the image distortion model (`vision.deformation`,
`CellClassifier.second_look`), which re-ranks the handwritten model's
nearest samples by their stored images. The model is stored as features,
labels and those projections (an ``.npz`` file, no pickle) and fitted when first queried:
fitting a KNN model only builds an index, but importing scikit-learn takes
about a second, which a command can spend decoding and locating the photo
meanwhile (`CellClassifier.build_index` in a background thread).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import ModelFileError
from .cells import MARK_FEATURES, CellMarks, reaches_a_line
from .deformation import (
    DIGIT_RERANKED,
    RERANKED,
    deformed_votes,
    distortion_distances,
    distortion_ratio,
    gradient_context,
    nearest_per_digit,
)

#: Side (pixels) of the normalised digit image.
NORM_SIZE = 28
#: Size (pixels) of the box the digit is scaled into, inside NORM_SIZE.
FIT_SIZE = 20

#: HOG geometry: 7x7-pixel cells, 2x2-cell blocks moved one cell at a time, 9 bins over 0..180 degrees.
HOG_CELL = 7
HOG_BINS = 9
HOG_LENGTH = 9 * 4 * HOG_BINS
#: Ink thumbnail: the mean of each THUMB_BLOCK x THUMB_BLOCK pixels of the normalised digit (7 x 7 values),
#: scaled to Euclidean norm THUMB_NORM: that of the 9 HOG blocks (each of norm 1), so layout and gradients
#: weigh alike in a distance.
THUMB_BLOCK = 4
THUMB_SIDE = NORM_SIZE // THUMB_BLOCK
THUMB_NORM = 3.0
FEATURE_LENGTH = HOG_LENGTH + 1 + THUMB_SIDE * THUMB_SIDE

#: The kinds of mark, in the order of `CellReading`'s kind index.
KINDS = ("empty", "printed", "handwritten", "candidates")
EMPTY, PRINTED, HANDWRITTEN, CANDIDATES = range(4)
#: Cell classes: column k of a reading's (81, 20) probabilities. Written as in
#: ``.cells`` label files: ``.`` empty, ``1``-``9`` printed, ``h1``-``h9``
#: handwritten, ``c`` candidates.
CLASSES = (".",) + tuple("123456789") + tuple(f"h{d}" for d in range(1, 10)) + ("c",)
CANDIDATES_CLASS = 19

#: Scale of each mark feature in the kind model's distance (the rest are shares of a cell, weight 1).
KIND_SCALE = {"pieces": 0.25, "stroke_width": 10.0}
#: A marked cell whose mark is most probably printed and handwritten with a probability below this is not
#: shown to the handwritten-digit model (`CellClassifier.predict_proba`): its handwritten digits take the
#: printed model's probabilities (the same shape), for a faster reading of printed grids.
HANDWRITTEN_QUERY = 0.002
#: Weight of the k nearest neighbours' votes in a probability; the rest is a
#: softmax over the distance to each class's nearest sample, so that every
#: class keeps a small probability ordered by similarity.
VOTE_WEIGHT = 0.9
#: How far from its class's float32 minimum a sample is still measured again in float64 by
#: `_Knn.nearest_per_class`, as a multiple of the bound within which the class's true nearest lies
#: (twice a float32 squared distance's rounding bound): 1 would do; 2 leaves room.
SCREEN_ERROR = 2.0


def kind_of(cls: int) -> int:
    """Kind (EMPTY .. CANDIDATES) of a class column."""
    return EMPTY if cls == 0 else PRINTED if cls <= 9 else HANDWRITTEN if cls <= 18 else CANDIDATES


def normalize_digit(crop: np.ndarray) -> np.ndarray:
    """Scale a tight digit crop into a centred NORM_SIZE square.

    The longer side is scaled to FIT_SIZE pixels, keeping the aspect ratio (a
    1 stays narrow), and the result is centred by its bounding box.

    Parameters
    ----------
    crop : np.ndarray
        Shape (h, w), uint8 ink strength, 0 = paper.

    Returns
    -------
    np.ndarray
        Shape (NORM_SIZE, NORM_SIZE), uint8.
    """
    h, w = crop.shape
    scale = FIT_SIZE / max(h, w)
    nh, nw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((NORM_SIZE, NORM_SIZE), np.uint8)
    y, x = (NORM_SIZE - nh) // 2, (NORM_SIZE - nw) // 2
    out[y : y + nh, x : x + nw] = small
    return out


def hog(images: np.ndarray, cell: int = HOG_CELL) -> np.ndarray:
    """Histograms of oriented gradients of a batch of NORM_SIZE images.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, NORM_SIZE, NORM_SIZE), any real dtype.
    cell : int
        Side of a HOG cell, pixels (HOG_CELL, 7, for every model's
        features; `benchmarks/handwritten_features.py` compares finer cells).
        Pixels left over when it does not divide NORM_SIZE count in the last
        row and column of cells.

    Returns
    -------
    np.ndarray
        Shape (n, (NORM_SIZE // cell - 1) ** 2 * 4 * HOG_BINS), float32 (324
        for 7-pixel cells): for each block of 2x2 cells (overlapping, one cell
        apart), 4 cells x 9 unsigned-orientation bins with linear
        interpolation between bins, L2-Hys normalised per block.
    """
    img = images.astype(np.float32)
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, :, 1:-1] = img[:, :, 2:] - img[:, :, :-2]
    gy[:, 1:-1, :] = img[:, 2:, :] - img[:, :-2, :]
    # Only the pixels with a gradient (the paper around a digit has none): the others add nothing to any bin,
    # and leaving them out changes no sum (each bin adds its pixels' non-negative weights in the same order).
    on = np.flatnonzero((gx != 0) | (gy != 0))
    gx, gy = gx.ravel()[on], gy.ravel()[on]
    magnitude = np.hypot(gx, gy)
    angle = np.rad2deg(np.arctan2(gy, gx)) % 180.0
    position = angle / (180.0 / HOG_BINS) - 0.5
    low = np.floor(position).astype(np.int64)
    frac = position - low
    n, size = img.shape[0], img.shape[1]
    cells = size // cell
    # One flat histogram index per pixel and bin: (image, cell row, cell column, bin).
    cell_index = np.minimum(np.arange(size) // cell, cells - 1)
    cell_index = cell_index[:, None] * cells + cell_index[None, :]
    base = ((np.arange(n)[:, None, None] * cells * cells + cell_index[None]) * HOG_BINS).ravel()[on]
    hist = np.zeros(n * cells * cells * HOG_BINS, np.float64)
    for offset, weight in ((0, 1.0 - frac), (1, frac)):
        index = base + (low + offset) % HOG_BINS
        hist += np.bincount(index, weights=magnitude * weight, minlength=hist.size)
    hist = hist.reshape(n, cells, cells, HOG_BINS).astype(np.float32)
    blocks = []
    for by in range(cells - 1):
        for bx in range(cells - 1):
            block = hist[:, by : by + 2, bx : bx + 2, :].reshape(n, -1)
            block = block / np.sqrt((block**2).sum(axis=1, keepdims=True) + 1e-6)
            block = np.minimum(block, 0.2)
            block = block / np.sqrt((block**2).sum(axis=1, keepdims=True) + 1e-6)
            blocks.append(block)
    return np.concatenate(blocks, axis=1)


def ink_thumbnails(images: np.ndarray) -> np.ndarray:
    """Coarse ink layout of a batch of NORM_SIZE images: block means, scaled to norm THUMB_NORM.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, NORM_SIZE, NORM_SIZE), uint8 ink strength (0 = paper).

    Returns
    -------
    np.ndarray
        Shape (n, THUMB_SIDE * THUMB_SIDE), float32: the mean ink of each
        THUMB_BLOCK x THUMB_BLOCK-pixel block, row-major, the vector scaled to
        Euclidean norm THUMB_NORM (all zeros for an image without ink).
    """
    n = len(images)
    blocks = images.astype(np.float32).reshape(n, THUMB_SIDE, THUMB_BLOCK, THUMB_SIDE, THUMB_BLOCK)
    thumbs = blocks.mean(axis=(2, 4)).reshape(n, -1)
    return thumbs * (THUMB_NORM / np.maximum(np.linalg.norm(thumbs, axis=1, keepdims=True), 1e-6))


def deskew(image: np.ndarray) -> np.ndarray:
    """Undo the slant of a normalised digit by its image moments (OpenCV's ``samples/python/digits.py``).

    The slant is mu11 / mu02 of the ink (second-order central moments); the
    image is sheared by it about its centre so the digit's main axis is
    upright. Input and output shape (NORM_SIZE, NORM_SIZE), uint8; an image
    with no vertical spread is returned as is.
    """
    m = cv2.moments(image)
    if abs(m["mu02"]) < 1e-2:
        return image
    skew = m["mu11"] / m["mu02"]
    shear = np.array([[1, skew, -0.5 * NORM_SIZE * skew], [0, 1, 0]], np.float32)
    return cv2.warpAffine(image, shear, (NORM_SIZE, NORM_SIZE), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


def normalised_images(crops: list, upright: bool = False) -> np.ndarray:
    """Digit crops as the shape features see them: `normalize_digit`, `deskew` when `upright`, then a
    3 x 3 Gaussian blur.

    `crops`: each shape (h, w), uint8 ink strength (0 = paper), at least one.
    Returns shape (n, NORM_SIZE, NORM_SIZE) uint8.
    """
    straighten = deskew if upright else (lambda image: image)
    return np.stack([cv2.GaussianBlur(straighten(normalize_digit(c)), (3, 3), 0) for c in crops])


def features_of(crops: list, upright: bool = False, images: np.ndarray | None = None) -> np.ndarray:
    """Shape features of digit crops: HOG of the normalised crop, its aspect ratio and its ink thumbnail.

    Parameters
    ----------
    crops : list of np.ndarray
        Each shape (h, w), uint8 ink strength (0 = paper), such as
        `vision.cells.CellMarks.crops`.
    upright : bool
        Deskew each normalised digit first (`deskew`): the handwritten
        model's shapes, which a hand slants its own way.
    images : np.ndarray, optional
        ``normalised_images(crops, upright)`` (n, NORM_SIZE, NORM_SIZE) uint8
        when the caller has them, so as not to normalise the crops twice.

    Returns
    -------
    np.ndarray
        Shape (n, FEATURE_LENGTH) float32: HOG_LENGTH (324) HOG values,
        width / height / 2, and the THUMB_SIDE * THUMB_SIDE (49) values of
        `ink_thumbnails`.
    """
    if not crops:
        return np.zeros((0, FEATURE_LENGTH), np.float32)
    norm = normalised_images(crops, upright) if images is None else images
    aspect = np.array([[c.shape[1] / c.shape[0] * 0.5] for c in crops], np.float32)
    return np.concatenate([hog(norm), aspect, ink_thumbnails(norm)], axis=1).astype(np.float32)


def kind_features(marks_features: np.ndarray) -> np.ndarray:
    """Mark features (n, len(MARK_FEATURES)) scaled for the kind model's Euclidean distance.

    The number of pieces is capped at 4; stroke width is scaled up to the
    range of the other features. Returns shape (n, len(MARK_FEATURES)) float32.
    """
    x = np.asarray(marks_features, np.float32).copy()
    pieces = MARK_FEATURES.index("pieces")
    x[:, pieces] = np.minimum(x[:, pieces], 4)
    for name, scale in KIND_SCALE.items():
        x[:, MARK_FEATURES.index(name)] *= scale
    return x


def handwritten_space(shapes: np.ndarray) -> np.ndarray:
    """Shape features (m, FEATURE_LENGTH) as the handwritten-digit model compares them: HOG and aspect ratio.

    Returns a view (m, HOG_LENGTH + 1) float32. The ink thumbnail is left
    out: it serves blurred print, whose layout is fixed by its face, while a
    hand places and slants each digit its own way.
    """
    return np.asarray(shapes, np.float32)[:, : HOG_LENGTH + 1]


class _Knn:
    """scikit-learn's distance-weighted KNN over stored samples, with smoothed class probabilities."""

    #: Neighbours looked at for each class's nearest distance; a class with no
    #: sample among them is given the farthest of them.
    REACH = 50
    #: Query rows remembered with their neighbours (`neighbours`), the least recently asked forgotten first:
    #: one photo's reading asks about the same marks more than once (its cells, then its doubtful entries,
    #: then a second look at them), and each search streams every sample (some 3 ms for one row, 8 ms for a
    #: dozen, with the handwritten model, measured with one thread on a 2-core machine).
    REMEMBERED = 1024
    #: Neighbours searched for `beyond_margin`; the first REACH of them serve `proba_and_nearest` (no second
    #: search). Searching 200 instead of 50 costs about 1 ms more with the handwritten model (12 rows).
    MARGIN_REACH = 200

    def __init__(self, features: np.ndarray, labels: np.ndarray, classes: np.ndarray, k: int):
        self.features = np.asarray(features, np.float32)
        self.labels = np.asarray(labels, np.int64)
        self.classes = classes
        self.k = min(k, len(self.labels))
        self._knn = None
        self._norms: np.ndarray | None = None  # the samples' squared norms, float64 (`_search`)
        self._searching = threading.Lock()
        self._recent: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()  # row: its neighbours
        self._screen: tuple[list[np.ndarray], np.ndarray] | None = None  # `_members`
        self._lock = threading.Lock()

    def index(self):
        """The fitted scikit-learn model, built on first use (importing scikit-learn); thread-safe."""
        with self._lock:
            if self._knn is None:
                from sklearn.neighbors import KNeighborsClassifier

                knn = KNeighborsClassifier(n_neighbors=self.k, weights="distance", algorithm="brute")
                self._norms = self._squared_norms()
                self._knn = knn.fit(self.features, self.labels)
            return self._knn

    def _squared_norms(self, rows: int = 4096) -> np.ndarray:
        """Shape (n,) float64: each sample's squared Euclidean norm, summed in float64 `rows` samples at a
        time (no float64 copy of every sample at once: 53 MB for the handwritten model)."""
        blocks = (self.features[i : i + rows].astype(np.float64) for i in range(0, len(self.features), rows))
        return np.concatenate([np.einsum("ij,ij->i", b, b) for b in blocks] or [np.zeros(0)])

    def _search(self, x: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
        """scikit-learn's `kneighbors` of the rows `x` (m, features) float32: distances (m, reach) float64
        and sample indices (m, reach) int64, nearest first.

        Its Euclidean search (``ArgKmin``, the brute-force back end) measures every sample's squared
        norm anew on each call unless the metric parameters carry them (``Y_norm_squared``): some 3 of
        the 7 ms of a search of the handwritten-digit model (37,605 samples x 175, one thread). It
        takes them out of the classifier's own `effective_metric_params_` (``pop``), so they are put
        back before every search, and one model's searches run one at a time.
        """
        knn = self.index()
        with self._searching:
            if knn.effective_metric_ == "euclidean":
                knn.effective_metric_params_["Y_norm_squared"] = self._norms
            try:
                return knn.kneighbors(x, n_neighbors=reach)
            finally:
                knn.effective_metric_params_.pop("Y_norm_squared", None)

    def neighbours(self, x: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
        """The `reach` nearest samples of each query, by scikit-learn's index (`index`).

        `x`: shape (m, features), cast to float32. Returns their distances
        (m, reach) float64 and sample indices (m, reach) int64, nearest first.
        A row asked about among the last REMEMBERED, with this reach or a
        larger one, is not searched again: a row's neighbours do not depend on
        the rows asked with it (bit for bit with the BLAS measured; with
        another, at most in the last bit), and the first `reach` of a larger
        search are the `reach` nearest (the same bit for bit, measured on the
        three models' samples and the in-progress photos' pencil marks).
        Thread-safe.
        """
        x = np.ascontiguousarray(x, np.float32)
        if not len(x):
            return np.zeros((0, reach)), np.zeros((0, reach), np.int64)
        keys = [row.tobytes() for row in x]
        found: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        with self._lock:
            for r, key in enumerate(keys):
                if key in self._recent and self._recent[key][0].shape[0] >= reach:
                    self._recent.move_to_end(key)  # asked again: the last to be forgotten
                    d, i = self._recent[key]
                    found[r] = d[:reach], i[:reach]
        missing = [r for r in range(len(keys)) if r not in found]
        if missing:
            dist, index = self._search(x[missing], reach)
            with self._lock:
                for r, d, i in zip(missing, dist, index):
                    found[r] = self._recent[keys[r]] = (d, i)
                    self._recent.move_to_end(keys[r])
                while len(self._recent) > self.REMEMBERED:
                    self._recent.popitem(last=False)
        return np.stack([found[r][0] for r in range(len(keys))]), np.stack([found[r][1] for r in range(len(keys))])

    def beyond_margin(self, x: np.ndarray, asked: np.ndarray, margin: float, reach: int | None = None) -> np.ndarray:
        """Shape (m,) bool: whether every other class's nearest sample lies at least `margin` (>= 1) times
        as far from each query `x` (m, features) as the nearest sample of its asked class does (`asked`:
        (m,) int, positions in `classes`; the own distance taken as at least 1e-9 feature units).

        The same test as on `nearest_per_class`'s distances, at a fraction of its cost: from the
        `reach` (default MARGIN_REACH) nearest samples (one search, remembered by `neighbours`),
        which decide it whenever they hold a sample of the asked class and either a sample of
        another class (then both nearest distances are among them) or none nearer than `margin`
        times the own distance (every other class lies beyond them). Only the rows they leave
        undecided are measured against every sample (`nearest_per_class`): about 12 of the 716
        pencilled digits of the in-progress photos at 200 and a margin of 1.3.
        """
        asked = np.asarray(asked)
        dist, index = self.neighbours(x, min(reach or self.MARGIN_REACH, len(self.labels)))
        own_label = self.labels[index] == self.classes[asked][:, None]
        own = np.where(own_label, dist, np.inf).min(axis=1)
        other = np.where(own_label, np.inf, dist).min(axis=1)
        limit = margin * np.maximum(own, 1e-9)
        holds = other >= limit
        undecided = np.isinf(own) | (np.isinf(other) & (dist[:, -1] < limit))
        if undecided.any():
            rows = np.flatnonzero(undecided)
            exact = self.nearest_per_class(np.asarray(x, np.float32)[rows])
            mine = exact[np.arange(len(rows)), asked[rows]]
            exact[np.arange(len(rows)), asked[rows]] = np.inf
            holds[rows] = exact.min(axis=1) >= margin * np.maximum(mine, 1e-9)
        return holds

    def proba(self, x: np.ndarray) -> np.ndarray:
        """Shape (m, len(classes)) float64: probabilities (rows sum to 1)."""
        return self.proba_and_nearest(x)[0]

    def proba_and_nearest(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """From one neighbour query of `x` (m, features) (`neighbours`): `proba` (m, len(classes)) and the
        distance from each query to its nearest sample (m,) float64."""
        reach = min(self.REACH, len(self.labels))
        dist, index = self.neighbours(x, reach)
        near_labels = self.labels[index]
        weights = 1.0 / np.maximum(dist[:, : self.k], 1e-6)
        votes = np.stack([(weights * (near_labels[:, : self.k] == c)).sum(axis=1) for c in self.classes], axis=1)
        votes /= votes.sum(axis=1, keepdims=True)
        far = dist[:, -1:]
        per_class = np.stack([np.where(near_labels == c, dist, np.inf).min(axis=1) for c in self.classes], axis=1)
        per_class = np.minimum(per_class, far)
        best = per_class.min(axis=1, keepdims=True)
        soft = np.exp(-(per_class - best) / (np.maximum(best, 1e-6) * 0.15))
        soft /= soft.sum(axis=1, keepdims=True)
        return VOTE_WEIGHT * votes + (1 - VOTE_WEIGHT) * soft, dist[:, 0]

    def _members(self) -> tuple[list[np.ndarray], np.ndarray]:
        """What `nearest_per_class` needs of the samples, computed once (thread-safe): the indices of
        each class's samples (one int64 array per class of `classes`, maybe empty) and every sample's
        squared norm (n,) float32 (NumPy's float32 dot products; their rounding is in SCREEN_ERROR's bound)."""
        with self._lock:
            if self._screen is None:
                members = [np.flatnonzero(self.labels == c) for c in self.classes]
                self._screen = members, np.einsum("ij,ij->i", self.features, self.features)
            return self._screen

    def nearest_per_class(self, x: np.ndarray) -> np.ndarray:
        """Shape (m, len(classes)) float64: distance from each query to its nearest sample of each class.

        Exact (every sample is measured; asked for a few doubtful marks only): with many samples of one
        digit close to a mark, a cap at the REACH-th neighbour would understate how far the other digits lie.
        Infinite for a class without samples. `x`: shape (m, features), float32 values (cast).

        Every squared distance is first taken in float32 as |x|^2 - 2 x.s + |s|^2 (one matrix product
        over the float32 samples as stored); the samples within SCREEN_ERROR times that sum's rounding
        bound of their class's float32 minimum are then measured in float64, as the sum of squared
        differences, and the smallest root of each class kept.
        """
        x = np.ascontiguousarray(x, np.float32)
        members, samples_squared = self._members()
        out = np.full((len(x), len(self.classes)), np.inf)
        if not len(x) or not len(self.labels):
            return out
        x64 = x.astype(np.float64)
        x_squared = (x64**2).sum(axis=1)
        squared = x @ self.features.T  # then, in place: |x|^2 - 2 x.s + |s|^2
        squared *= np.float32(-2.0)
        squared += x_squared.astype(np.float32)[:, None]
        squared += samples_squared[None, :]
        # Each float32 sum errs by e <= (2d + 5) u (|x|^2 + |s|^2), u = eps / 2 (Higham, "Accuracy and
        # Stability of Numerical Algorithms", 2002, section 3.1: a d-term dot product errs by at most
        # d u |x||s|; here x.s and s.s, the rounding of |x|^2 and two additions). A class's true nearest
        # lies within 2e of its float32 minimum: (2d + 5) eps (...) is that bound, times SCREEN_ERROR.
        d = x.shape[1]
        bound = SCREEN_ERROR * (2 * d + 5) * np.finfo(np.float32).eps * (x_squared + float(samples_squared.max()))
        for j, index in enumerate(members):
            if not index.size:
                continue
            of_class = squared[:, index]
            rows, columns = np.nonzero(of_class <= (of_class.min(axis=1) + bound)[:, None])
            exact = ((x64[rows] - self.features[index[columns]].astype(np.float64)) ** 2).sum(axis=1)
            np.minimum.at(out[:, j], rows, exact)
        return np.sqrt(out)


@dataclass(frozen=True)
class EntryEvidence:
    """The digit models' view of some handwritten marks (`CellClassifier.entry_evidence`).

    Attributes
    ----------
    handwritten : np.ndarray
        Shape (n, 9) float64: P(digit 1..9 | handwritten), rows sum to 1.
    distances : np.ndarray
        Shape (n, 9) float64: distance from each mark's shape to the nearest
        handwritten sample of each digit (feature units; only ratios mean anything).
    printed : np.ndarray
        Shape (n, 9) float64: P(digit 1..9 | printed) from the printed-digit model.
    at_line : np.ndarray, optional
        Shape (n,) bool: the mark reaches a ruled line of its cell
        (`vision.cells.reaches_a_line`), where a stroke of it may have gone
        with the ruling; None when not known (crops cut otherwise).
    shapes : np.ndarray, optional
        Shape (n, d) float32: each mark's shape as the handwritten-digit model
        compares it (the space of `distances`), to compare marks of one grid
        with each other; None when not known.
    """

    handwritten: np.ndarray
    distances: np.ndarray
    printed: np.ndarray
    at_line: np.ndarray | None = None
    shapes: np.ndarray | None = None


@dataclass(frozen=True)
class SecondLook:
    """The image distortion model's reading of some handwritten marks (`CellClassifier.second_look`).

    Attributes
    ----------
    votes : np.ndarray
        Shape (n, 9) float64, rows sum to 1: P(digit 1..9) from the
        `deformation.VOTERS` least distorted samples (`deformation.deformed_votes`).
    nearest : np.ndarray
        Shape (n, 9) float64: each digit's least distortion distance among
        the samples measured (`deformation.nearest_per_digit`), ``inf`` for a
        digit none of them is; compare two digits by
        `deformation.distortion_ratio`.
    own : np.ndarray or None
        Shape (n, 9) float64: each digit's least distortion distance among
        the writer's own marks of it (`CellClassifier.second_look`'s `own`),
        ``inf`` for a digit they wrote none of; None when none were given.
    """

    votes: np.ndarray
    nearest: np.ndarray
    own: np.ndarray | None = None

    def ratio(self, row: int, digit: int) -> float:
        """Mark `row`'s `deformation.distortion_ratio` for `digit` 1..9 (below 1: its nearest sample is
        that digit's)."""
        return distortion_ratio(self.nearest[row], digit)

    def own_ratio(self, row: int, digit: int) -> float:
        """Mark `row`'s least distortion to the writer's own marks of `digit` 1..9 over its least distortion
        to any other digit, the model's samples and the writer's own marks together
        (`deformation.distortion_ratio` of their per-digit minimum, the writer's own distance for `digit`);
        ``inf`` when the writer's own marks of `digit` were not measured."""
        if self.own is None or not np.isfinite(self.own[row, digit - 1]):
            return float("inf")
        nearest = np.minimum(self.nearest[row], self.own[row])
        nearest[digit - 1] = self.own[row, digit - 1]
        return distortion_ratio(nearest, digit)

    def own_apart(self, row: int, digit: int, read: int) -> float:
        """Mark `row`'s least distortion to the writer's own marks of `digit` 1..9 over its least distortion
        to their own marks of any other digit, the model's samples left out (`deformation.distortion_ratio`
        of `own` alone): below 1 the writer's nearest own mark is a `digit`. ``inf`` when they wrote no
        mark of `digit` or none of `read` (1..9, the digit the mark was read as), which it must be compared
        with."""
        if self.own is None or not np.isfinite(self.own[row, digit - 1]) or not np.isfinite(self.own[row, read - 1]):
            return float("inf")
        return distortion_ratio(self.own[row], digit)

    def own_over_model(self, row: int, digit: int) -> float:
        """Mark `row`'s least distortion to the writer's own marks of `digit` 1..9 over its least distortion
        to the model's samples of any digit: near 1 or below, one of the writer's marks is as like it as the
        model's nearest sample. ``inf`` when they wrote no mark of `digit`."""
        if self.own is None or not np.isfinite(self.own[row, digit - 1]):
            return float("inf")
        return float(self.own[row, digit - 1] / max(float(np.min(self.nearest[row])), 1e-9))


def _marked_rows(marks: CellMarks, cells: list[int], measure: Callable[[list], np.ndarray]) -> np.ndarray:
    """`measure` (crops -> (m, d) float32) of the marks of `cells`: shape (len(cells), d) float32, NaN rows
    for cells without a mark (d = 1 when no cell has one)."""
    marked = [i for i, cell in enumerate(cells) if marks.crops[cell] is not None]
    if not marked:
        return np.full((len(cells), 1), np.nan, np.float32)
    found = measure([marks.crops[cells[i]] for i in marked])
    out = np.full((len(cells), found.shape[1]), np.nan, np.float32)
    out[marked] = found
    return out


@dataclass
class CellClassifier:
    """Three k-nearest-neighbours models over stored samples: mark kind, printed digit, handwritten digit.

    Attributes
    ----------
    kind_samples : np.ndarray
        Shape (n1, len(MARK_FEATURES)), float32, raw mark features.
    kind_labels : np.ndarray
        Shape (n1,), int: EMPTY (a mark that is no digit: show-through, a
        smudge), PRINTED, HANDWRITTEN or CANDIDATES.
    printed_samples, handwritten_samples : np.ndarray
        Shape (n2, FEATURE_LENGTH) and (n3, FEATURE_LENGTH), float32 shape
        features (`features_of`; the handwritten ones deskewed, ``upright=True``,
        when the model has a `handwritten_projection`, else compared only in
        their `handwritten_space`).
    printed_labels, handwritten_labels : np.ndarray
        Shape (n2,) and (n3,), int, digits 1..9.
    k : int
        Neighbours of every model.
    printed_projection : np.ndarray, optional
        Shape (FEATURE_LENGTH, d), float32, orthonormal columns: the principal
        axes of the printed samples' shape features
        (`vision.training.principal_axes`). The printed-digit model measures
        distances between shapes projected onto them, which keeps nearly all
        of their variance in d of FEATURE_LENGTH dimensions (a faster
        neighbour search); without it, in the full feature space.
    handwritten_projection : np.ndarray, optional
        Shape (FEATURE_LENGTH, d), float32: the same for the handwritten
        samples (`vision.training.principal_axes` of the columns the
        handwritten model compares, `HANDWRITTEN_COLUMNS`; the rows of the
        other columns are zero). Without it, the handwritten model compares
        `handwritten_space` (older models).
    pen_layouts : np.ndarray, optional
        Shape (n4, len(MARK_FEATURES)), float32: mark features of other
        players' pen digits written among print (`vision.training.pen_layouts`).
        They say which of the kinds other than print a mark is (see
        `kind_probabilities`); without them (older models), `kind_samples`
        alone do.
    handwritten_images : np.ndarray, optional
        Shape (n3, NORM_SIZE, NORM_SIZE), uint8: the handwritten samples'
        upright normalised images (`normalised_images`), in the order of
        `handwritten_samples`, for `second_look`; without them (older
        models) there is no second look.
    """

    kind_samples: np.ndarray
    kind_labels: np.ndarray
    printed_samples: np.ndarray
    printed_labels: np.ndarray
    handwritten_samples: np.ndarray
    handwritten_labels: np.ndarray
    k: int = 5
    printed_projection: np.ndarray | None = None
    handwritten_projection: np.ndarray | None = None
    pen_layouts: np.ndarray | None = None
    handwritten_images: np.ndarray | None = None

    def __post_init__(self) -> None:
        digits = np.arange(1, 10)
        self._kind = _Knn(kind_features(self.kind_samples), self.kind_labels, np.arange(4), self.k)
        self._kind_with_pen = None
        if self.pen_layouts is not None and len(self.pen_layouts):
            samples = np.concatenate([np.asarray(self.kind_samples, np.float32), self.pen_layouts])
            labels = np.concatenate([self.kind_labels, np.full(len(self.pen_layouts), HANDWRITTEN)])
            self._kind_with_pen = _Knn(kind_features(samples), labels, np.arange(4), self.k)
        self._printed = _Knn(self._printed_space(self.printed_samples), self.printed_labels, digits, self.k)
        self._handwritten = _Knn(
            self._handwritten_space(self.handwritten_samples), self.handwritten_labels, digits, self.k
        )

    def build_index(self) -> None:
        """Import scikit-learn and fit the three models now, rather than on the first query.

        Thread-safe: a query made meanwhile waits for the index it needs.
        Takes about a second in a fresh process, nearly all of it importing
        scikit-learn (which imports SciPy).
        """
        for model in (self._kind, self._kind_with_pen, self._printed, self._handwritten):
            if model is not None:
                model.index()

    @classmethod
    def load(cls, path: str | Path) -> CellClassifier:
        """Load a model saved by `save`.

        Raises
        ------
        FileNotFoundError
            No file at `path`.
        ModelFileError
            The file is not a cell model of this version (a ValueError).
        """
        with np.load(path, allow_pickle=False) as data:
            try:
                projection = data["printed_projection"] if "printed_projection" in data else None
                written = data["handwritten_projection"] if "handwritten_projection" in data else None
                layouts = data["pen_layouts"] if "pen_layouts" in data else None
                images = data["handwritten_images"] if "handwritten_images" in data else None
                model = cls(
                    data["kind_samples"],
                    data["kind_labels"],
                    data["printed_samples"],
                    data["printed_labels"],
                    data["handwritten_samples"],
                    data["handwritten_labels"],
                    int(data["k"]),
                    projection,
                    written,
                    layouts,
                    images,
                )
            except KeyError as exc:
                raise ModelFileError(
                    f"{path} is not a snapsolve cell model (missing {exc}); rebuild it with 'snapsolve train'"
                ) from None
        if model.printed_samples.shape[1] != FEATURE_LENGTH:
            raise ModelFileError(
                f"{path} holds digit shapes of {model.printed_samples.shape[1]} values, not "
                f"{FEATURE_LENGTH}: a model of another version; rebuild it with 'snapsolve train'"
            )
        return model

    def save(self, path: str | Path) -> None:
        """Write every sample, label, k and the projections (when there are) to a compressed ``.npz`` file."""
        extra: dict[str, Any] = (
            {} if self.printed_projection is None else {"printed_projection": self.printed_projection}
        )
        if self.handwritten_projection is not None:
            extra["handwritten_projection"] = self.handwritten_projection
        if self.pen_layouts is not None:
            extra["pen_layouts"] = np.asarray(self.pen_layouts, np.float32)
        if self.handwritten_images is not None:
            extra["handwritten_images"] = np.asarray(self.handwritten_images, np.uint8)
        np.savez_compressed(
            path,
            kind_samples=self.kind_samples,
            kind_labels=self.kind_labels,
            printed_samples=self.printed_samples,
            printed_labels=self.printed_labels,
            handwritten_samples=self.handwritten_samples,
            handwritten_labels=self.handwritten_labels,
            k=np.int64(self.k),
            **extra,
        )

    def _printed_space(self, shapes: np.ndarray) -> np.ndarray:
        """Shape features (m, FEATURE_LENGTH) as the printed-digit model compares them: (m, d) float32."""
        shapes = np.asarray(shapes, np.float32)
        return shapes if self.printed_projection is None else shapes @ np.asarray(self.printed_projection, np.float32)

    def _handwritten_space(self, shapes: np.ndarray) -> np.ndarray:
        """Shape features (m, FEATURE_LENGTH) as the handwritten-digit model compares them.

        Projected onto `handwritten_projection` (m, d) when the model has one;
        else `handwritten_space` (HOG and aspect ratio), float32.
        """
        if self.handwritten_projection is None:
            return handwritten_space(shapes)
        return np.asarray(shapes, np.float32) @ np.asarray(self.handwritten_projection, np.float32)

    def _handwritten_query(
        self, crops: list, shapes: np.ndarray | None = None, images: np.ndarray | None = None
    ) -> np.ndarray:
        """Marks' crops as the handwritten model compares them: (m, d) float32.

        A model with a `handwritten_projection` holds upright shapes
        (`features_of` with ``upright=True``), measured here from the crops
        (or from their upright `images`, ``normalised_images(crops, True)``,
        when given); an older one compares the printed `shapes` (m,
        FEATURE_LENGTH; measured here when not given) in `handwritten_space`.
        """
        if self.handwritten_projection is None:
            return handwritten_space(features_of(crops) if shapes is None else shapes)
        return self._handwritten_space(features_of(crops, upright=True, images=images))

    def predict_proba(
        self,
        marks: CellMarks,
        kind: np.ndarray | None = None,
        shapes: np.ndarray | None = None,
        printed: np.ndarray | None = None,
    ) -> np.ndarray:
        """Class probabilities of the 81 cells.

        Parameters
        ----------
        marks : CellMarks
            The cells' marks, upright.
        kind, shapes, printed : np.ndarray, optional
            Already measured for the marked cells (in the order of
            ``np.flatnonzero(marks.present)``), so as not to measure them
            again: `kind_probabilities` (m, 4), `features_of` the crops (m,
            FEATURE_LENGTH) and `printed_proba_and_nearest`'s probabilities
            (m, 9). `printed` needs `shapes`.

        Returns
        -------
        np.ndarray
            Shape (81, len(CLASSES)), float64, rows sum to 1: columns as in
            `CLASSES`. A cell without a mark is empty with probability 1.
        """
        probs = np.zeros((81, len(CLASSES)))
        probs[:, 0] = 1.0
        cells = np.flatnonzero(marks.present)
        if cells.size == 0:
            return probs
        if kind is None:
            kind = self.kind_probabilities(marks.features[cells])
        if shapes is None:
            shapes = features_of([marks.crops[i] for i in cells])
        if printed is None:
            printed = self.printed_proba_and_nearest(shapes)[0]
        probs[cells, 0] = kind[:, EMPTY]
        probs[cells, 1:10] = kind[:, PRINTED, None] * printed
        # The handwritten model is asked about the marks that may be handwriting; a mark that is most probably
        # print and almost surely not handwriting keeps its printed digit probabilities for its (tiny)
        # handwritten share, which saves most of the handwritten neighbour search on a printed grid.
        ask = (kind[:, HANDWRITTEN] >= HANDWRITTEN_QUERY) | (kind.argmax(axis=1) != PRINTED)
        digits = printed.copy()
        if ask.any():
            crops = [marks.crops[i] for i in cells[ask]]
            digits[ask] = self._handwritten.proba(self._handwritten_query(crops, shapes[ask]))
        probs[cells, 10:19] = kind[:, HANDWRITTEN, None] * digits
        probs[cells, CANDIDATES_CLASS] = kind[:, CANDIDATES]
        return probs

    def entry_evidence(self, marks: CellMarks, cells: list[int]) -> EntryEvidence:
        """What the two digit models say of the marks in some cells, to judge a handwritten reading.

        Parameters
        ----------
        marks : CellMarks
            The cells' marks, upright.
        cells : list of int
            Upright cells (0..80) holding a mark.

        Returns
        -------
        EntryEvidence
            For each cell in order: P(digit | handwritten), the distance to
            the nearest handwritten sample of each digit, and P(digit |
            printed) from the printed-digit model (trained on other data:
            print from photos and rendered faces), each shape (n, 9) float64;
            whether each mark reaches a ruled line or borders ink taken away as
            ruling (``at_line``, (n,) bool; `CellMarks.at_ruling`);
            and each mark's shape in the handwritten model's space
            (``shapes``, (n, d) float32).
        """
        evidence = self.digit_evidence([marks.crops[i] for i in cells])
        at_line = reaches_a_line(marks.features[cells]) | marks.at_ruling[cells]
        return dataclasses.replace(evidence, at_line=at_line)

    def digit_evidence(self, crops: list, printed: bool = True) -> EntryEvidence:
        """What the two digit models say of some digit crops (`entry_evidence` for crops cut otherwise).

        `crops`: each shape (h, w) uint8 ink strength (0 = paper), one digit
        each (such as an entry's mark, `entry_evidence`).
        Returns the `EntryEvidence` of each crop in order, each array (n, 9)
        float64; without `printed` the printed-digit model is not asked (its
        array is NaN).
        """
        if not crops:
            empty = np.zeros((0, 9))
            return EntryEvidence(empty, empty, empty)
        shapes = features_of(crops)
        space = self._handwritten_query(crops, shapes)
        return EntryEvidence(
            self._handwritten.proba(space),
            self._handwritten.nearest_per_class(space),
            self.printed_proba_and_nearest(shapes)[0] if printed else np.full((len(crops), 9), np.nan),
            shapes=space,
        )

    def sure_handwritten_digits(self, crops: list, sure: float, margin: float) -> tuple[np.ndarray, np.ndarray]:
        """The handwritten-digit model's reading of some digit crops, and whether each is sure.

        `crops`: each shape (h, w) uint8 ink strength (0 = paper), one digit each (such as the
        candidates cut apart by `vision.pencil.read_pencil_marks`). Returns each crop's most probable
        digit (n,) int64 1..9, and (n,) bool: its probability is at least `sure` and every other
        digit's nearest handwritten sample lies at least `margin` times as far as its own digit's
        (`_Knn.beyond_margin`: the same test as on `digit_evidence`'s distances, without measuring
        every sample for every crop).
        """
        if not crops:
            return np.zeros(0, np.int64), np.zeros(0, bool)
        space = self._handwritten_query(crops, features_of(crops))
        hand = self._handwritten
        hand.neighbours(space, hand.MARGIN_REACH)  # one search for both questions below
        proba = hand.proba(space)
        best = proba.argmax(axis=1)
        held = (proba[np.arange(len(crops)), best] >= sure) & hand.beyond_margin(space, best, margin)
        return hand.classes[best].astype(np.int64), held

    def second_look(
        self, crops: list, asked: list[int] | None = None, own: tuple[list, list[int]] | None = None
    ) -> SecondLook | None:
        """A second reading of handwritten digit crops: the HOG model's nearest samples re-ranked by the
        image distortion model (`vision.deformation`, Keysers et al. 2007).

        Each crop's `deformation.RERANKED` nearest handwritten samples (in
        the handwritten model's space), and the `deformation.DIGIT_RERANKED`
        nearest of its `asked` digit, are measured by
        `deformation.distortion_distances` between upright normalised images
        (`normalised_images`); the `deformation.VOTERS` least distorted of
        the RERANKED vote (`deformation.deformed_votes`). About 8 ms a crop
        for the RERANKED (measured), a fifth more with `asked` (estimated), so
        it is meant for the few entries in doubt.

        Parameters
        ----------
        crops : list of np.ndarray
            Each shape (h, w), uint8 ink strength (0 = paper), upright.
        asked : list of int, optional
            One digit 1..9 per crop (such as the solution's): its nearest
            samples are measured too, so that `SecondLook.nearest` says how
            near that digit is even when none of the RERANKED is it.
        own : (list of np.ndarray, list of int), optional
            The writer's own marks (crops as `crops`) and the digit 1..9 each
            is known to be (such as their entries that agree with the
            solution): each crop is measured against them as well
            (`SecondLook.own`, `SecondLook.own_ratio`), about 0.3 ms a pair
            (measured on `benchmarks/handwriting.py` photos).

        Returns
        -------
        SecondLook or None
            None when the model stores no `handwritten_images` (an older model).

        Raises
        ------
        ValueError
            `asked` is given and not as long as `crops`, or `own`'s crops
            and digits differ in number.
        """
        if self.handwritten_images is None:
            return None
        if asked is not None and len(asked) != len(crops):
            raise ValueError(f"{len(asked)} digits asked about for {len(crops)} crops")
        if own is not None and len(own[0]) != len(own[1]):
            raise ValueError(f"{len(own[1])} digits given for {len(own[0])} own marks")
        if not crops:
            return SecondLook(np.zeros((0, 9)), np.zeros((0, 9)), None if own is None else np.zeros((0, 9)))
        images = normalised_images(crops, upright=True)
        space = self._handwritten_query(crops, images=images)
        reach = min(RERANKED, len(self.handwritten_labels))
        _, nearest = self._handwritten.neighbours(space, reach)
        queries = gradient_context(images)
        votes, per_digit = np.zeros((len(crops), 9)), np.zeros((len(crops), 9))
        for row, reranked in enumerate(nearest):
            candidates = reranked
            if asked is not None:
                extra = np.setdiff1d(self._nearest_of_digit(space[row], asked[row]), reranked)
                candidates = np.concatenate([reranked, extra])
            labels = self.handwritten_labels[candidates]
            distances = distortion_distances(queries[row], gradient_context(self.handwritten_images[candidates]))
            votes[row] = deformed_votes(distances[: len(reranked)], labels[: len(reranked)])  # the RERANKED vote
            per_digit[row] = nearest_per_digit(distances, labels)
        if own is None:
            return SecondLook(votes, per_digit)
        own_nearest = np.full((len(crops), 9), np.inf)
        if own[0]:
            own_context = gradient_context(normalised_images(own[0], upright=True))
            own_labels = np.asarray(own[1])
            for row in range(len(crops)):
                own_nearest[row] = nearest_per_digit(distortion_distances(queries[row], own_context), own_labels)
        return SecondLook(votes, per_digit, own_nearest)

    def _nearest_of_digit(self, query: np.ndarray, digit: int) -> np.ndarray:
        """Indices of the `deformation.DIGIT_RERANKED` handwritten samples of `digit` nearest to `query`
        (d,) float32 in the handwritten model's space."""
        members = np.flatnonzero(self.handwritten_labels == digit)
        if len(members) <= DIGIT_RERANKED:
            return members
        apart = ((self._handwritten.features[members] - query[None]) ** 2).sum(axis=1)
        return members[np.argpartition(apart, DIGIT_RERANKED)[:DIGIT_RERANKED]]

    def print_shapes(self, marks: CellMarks, cells: list[int], measured: np.ndarray | None = None) -> np.ndarray:
        """The digit shapes of some cells' marks as the printed-digit model compares them.

        `features_of` the marks' crops in the printed model's principal axes
        (`printed_projection`): shape (len(cells), d) float32, where Euclidean
        distance is the model's; NaN rows for cells without a mark. Two printed
        copies of one digit in one grid lie close together
        (`snapsolve.repair.unlike_the_print`). `measured`, shape (81,
        FEATURE_LENGTH) float32 (`vision.read.GridReading.shapes`), spares
        measuring the crops again.
        """
        if measured is not None:
            return self._printed_space(np.asarray(measured, np.float32)[list(cells)])
        return _marked_rows(marks, cells, lambda crops: self._printed_space(features_of(crops)))

    def handwritten_shapes(self, marks: CellMarks, cells: list[int]) -> np.ndarray:
        """The digit shapes of some cells' marks as the handwritten-digit model compares them.

        Shape (len(cells), d) float32 (`_handwritten_query`: upright, in the
        model's principal axes), where Euclidean distance is the model's; NaN
        rows for cells without a mark. One hand's copies of a digit lie close
        together (`snapsolve.repair.like_the_players_pen`). No neighbour search.
        """
        return _marked_rows(marks, cells, self._handwritten_query)

    def printed_proba_and_nearest(self, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """From one neighbour query: P(digit | printed) (m, 9) and the distance to the nearest printed sample (m,).

        `shapes`: (m, FEATURE_LENGTH) float32 `features_of` digit crops. The
        distance is large for a mark unlike any printed digit, or for digits
        seen sideways or upside down.
        """
        if len(shapes) == 0:
            return np.zeros((0, 9)), np.zeros(0)
        return self._printed.proba_and_nearest(self._printed_space(shapes))

    def kind_probabilities(self, features: np.ndarray) -> np.ndarray:
        """Shape (m, 4) float64: probability of each kind (`KINDS`) from mark features alone (m, len(MARK_FEATURES)).

        P(printed) is that of `kind_samples` (the labelled photos' marks). With `pen_layouts`, the rest
        (1 - P(printed)) is shared among empty, handwritten and candidates as `kind_samples` and
        `pen_layouts` together share it: other players' pen can show that a mark one player's samples
        call candidates or nothing is a handwritten digit, but never moves a mark's printed probability,
        so print and pen that look alike by layout are left to the per-grid decision
        (`snapsolve.repair.separate_written`), which tells them apart by ink and shape. (Added to the
        kind samples plainly, the layouts made a faint printed 2 and 3 of a validation photo pen.)
        """
        if len(features) == 0:
            return np.zeros((0, 4))
        scaled = kind_features(features)
        kind = self._kind.proba(scaled)
        if self._kind_with_pen is not None:
            other = [EMPTY, HANDWRITTEN, CANDIDATES]
            with_pen = self._kind_with_pen.proba(scaled)[:, other]
            share = with_pen / np.maximum(with_pen.sum(axis=1, keepdims=True), 1e-12)
            kind[:, other] = (1.0 - kind[:, PRINTED])[:, None] * share
        return kind
