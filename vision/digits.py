"""Read digits: HOG features of a size-normalised crop and k-nearest neighbours.

Follows OpenCV's ``samples/python/digits.py`` (size-normalise, HOG, a simple
classifier) with scikit-learn's `KNeighborsClassifier`. HOG is computed here in
NumPy (Dalal and Triggs, "Histograms of Oriented Gradients for Human
Detection", CVPR 2005), batched over all crops, because OpenCV 5 moved its
``HOGDescriptor`` out of the main package. The model is stored as
features and labels (an ``.npz`` file, no pickle) and fitted when loaded:
fitting a KNN model only builds an index.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from sklearn.neighbors import KNeighborsClassifier

#: Side (pixels) of the normalised digit image.
NORM_SIZE = 28
#: Size (pixels) of the box the digit is scaled into, inside NORM_SIZE.
FIT_SIZE = 20

#: HOG geometry: 7x7-pixel cells, 2x2-cell blocks moved one cell at a time, 9 bins over 0..180 degrees.
HOG_CELL = 7
HOG_BINS = 9
FEATURE_LENGTH = 9 * 4 * HOG_BINS + 1


def normalize_digit(crop: np.ndarray) -> np.ndarray:
    """Scale a tight digit crop into a centred NORM_SIZE square.

    The longer side is scaled to FIT_SIZE pixels, keeping the aspect ratio (a
    1 stays narrow), and the result is centred by its bounding box.

    Parameters
    ----------
    crop : np.ndarray
        Shape (h, w), uint8 binary, 255 = ink.

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


def hog(images: np.ndarray) -> np.ndarray:
    """Histograms of oriented gradients of a batch of NORM_SIZE images.

    Parameters
    ----------
    images : np.ndarray
        Shape (n, NORM_SIZE, NORM_SIZE), any real dtype.

    Returns
    -------
    np.ndarray
        Shape (n, 324), float32: for each of the 3x3 blocks of 2x2 cells
        (7x7 pixels each), 4 cells x 9 unsigned-orientation bins with linear
        interpolation between bins, L2-Hys normalised per block.
    """
    img = images.astype(np.float32)
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, :, 1:-1] = img[:, :, 2:] - img[:, :, :-2]
    gy[:, 1:-1, :] = img[:, 2:, :] - img[:, :-2, :]
    magnitude = np.hypot(gx, gy)
    angle = np.rad2deg(np.arctan2(gy, gx)) % 180.0
    position = angle / (180.0 / HOG_BINS) - 0.5
    low = np.floor(position).astype(np.int64)
    frac = position - low
    n, size = img.shape[0], img.shape[1]
    cells = size // HOG_CELL
    hist = np.zeros((n, cells, cells, HOG_BINS), np.float32)
    cell_y = (np.arange(size) // HOG_CELL)[None, :, None]
    cell_x = (np.arange(size) // HOG_CELL)[None, None, :]
    idx_n = np.arange(n)[:, None, None]
    shape = img.shape
    for offset, weight in ((0, 1.0 - frac), (1, frac)):
        bins = (low + offset) % HOG_BINS
        np.add.at(hist, (np.broadcast_to(idx_n, shape), np.broadcast_to(cell_y, shape),
                         np.broadcast_to(cell_x, shape), bins), magnitude * weight)
    blocks = []
    for by in range(cells - 1):
        for bx in range(cells - 1):
            block = hist[:, by : by + 2, bx : bx + 2, :].reshape(n, -1)
            block = block / np.sqrt((block ** 2).sum(axis=1, keepdims=True) + 1e-6)
            block = np.minimum(block, 0.2)
            block = block / np.sqrt((block ** 2).sum(axis=1, keepdims=True) + 1e-6)
            blocks.append(block)
    return np.concatenate(blocks, axis=1)


def features_of(crops: list) -> np.ndarray:
    """Feature vectors of digit crops: HOG of the normalised crop plus its aspect ratio.

    Parameters
    ----------
    crops : list of np.ndarray
        Each shape (h, w), uint8 binary, 255 = ink.

    Returns
    -------
    np.ndarray
        Shape (n, FEATURE_LENGTH) float32: 324 HOG values and width / height / 2.
    """
    if not crops:
        return np.zeros((0, FEATURE_LENGTH), np.float32)
    norm = np.stack([cv2.GaussianBlur(normalize_digit(c), (3, 3), 0) for c in crops])
    aspect = np.array([[c.shape[1] / c.shape[0] * 0.5] for c in crops], np.float32)
    return np.concatenate([hog(norm), aspect], axis=1).astype(np.float32)


@dataclass
class DigitModel:
    """A k-nearest-neighbours digit classifier over stored features.

    Attributes
    ----------
    features : np.ndarray
        Shape (n, FEATURE_LENGTH), float32, training feature vectors.
    labels : np.ndarray
        Shape (n,), int, digits 1..9.
    k : int
        Number of neighbours.
    """

    features: np.ndarray
    labels: np.ndarray
    k: int = 5

    def __post_init__(self) -> None:
        self.features = np.asarray(self.features, dtype=np.float32)
        self._knn = KNeighborsClassifier(n_neighbors=self.k, weights="distance", algorithm="brute")
        self._knn.fit(self.features, self.labels)
        self._norms = (self.features.astype(np.float32) ** 2).sum(axis=1)

    @classmethod
    def load(cls, path: str | Path) -> DigitModel:
        """Load a model saved by `save`.

        Raises
        ------
        FileNotFoundError
            No file at `path`.
        ValueError
            The file is not a digit model.
        """
        with np.load(path, allow_pickle=False) as data:
            try:
                return cls(data["features"], data["labels"], int(data["k"]))
            except KeyError as exc:
                raise ValueError(f"{path} is not a snapsolve digit model (missing {exc})") from None

    def save(self, path: str | Path) -> None:
        """Write features, labels and k to a compressed ``.npz`` file."""
        np.savez_compressed(path, features=self.features, labels=self.labels, k=np.int64(self.k))

    def predict_proba(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities of digit crops.

        The probability of a digit mixes the distance-weighted votes of the k
        nearest neighbours (weight 0.9) with a softmax over the distance to
        the nearest training sample of each digit (weight 0.1), so that every
        digit keeps a small probability ordered by similarity: consistency
        repair needs to know which digit a doubtful cell would be next.

        Parameters
        ----------
        features : np.ndarray
            Shape (m, FEATURE_LENGTH), float32.

        Returns
        -------
        np.ndarray
            Shape (m, 9) float64 probabilities of digits 1..9 (rows sum to 1).
            `nearest_distances` tells how digit-like the marks are at all.
        """
        if len(features) == 0:
            return np.zeros((0, 9))
        distances, indices = self._knn.kneighbors(features)
        weights = 1.0 / np.maximum(distances, 1e-6)
        votes = np.zeros((len(features), 9))
        neighbour_labels = self.labels[indices]
        for d in range(1, 10):
            votes[:, d - 1] = (weights * (neighbour_labels == d)).sum(axis=1)
        votes /= votes.sum(axis=1, keepdims=True)
        per_class = self.class_distances(features)
        scale = np.maximum(per_class.min(axis=1, keepdims=True), 1e-6) * 0.15
        soft = np.exp(-(per_class - per_class.min(axis=1, keepdims=True)) / scale)
        soft /= soft.sum(axis=1, keepdims=True)
        return 0.9 * votes + 0.1 * soft

    def nearest_distances(self, features: np.ndarray) -> np.ndarray:
        """Shape (m,) float64: distance from each feature vector to its nearest training sample.

        Large for a mark unlike any digit, or for digits seen sideways: the
        orientation is chosen where these are smallest.
        """
        if len(features) == 0:
            return np.zeros(0)
        return self._knn.kneighbors(features, n_neighbors=1)[0][:, 0]

    def class_distances(self, features: np.ndarray) -> np.ndarray:
        """Shape (m, 9) float64: Euclidean distance to the nearest training sample of each digit."""
        f = features.astype(np.float32)
        sq = (f * f).sum(axis=1)[:, None] + self._norms[None, :] - 2.0 * f @ self.features.T
        dist = np.sqrt(np.maximum(sq, 0.0))
        return np.stack([dist[:, self.labels == d].min(axis=1) for d in range(1, 10)], axis=1).astype(np.float64)
