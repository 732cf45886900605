"""k-nearest neighbours over stored samples (scikit-learn's brute-force search), with smoothed class probabilities.

`KNearest` answers what `vision.digits.CellClassifier`'s three models ask:
class probabilities (distance-weighted votes of the k nearest, mixed with a
softmax over each class's nearest distance), each class's exact nearest
distance, and whether another class lies beyond a margin.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

#: Weight of the k nearest neighbours' votes in a probability; the rest is a
#: softmax over the distance to each class's nearest sample, so that every
#: class keeps a small probability ordered by similarity.
VOTE_WEIGHT = 0.9
#: How far from its class's float32 minimum a sample is still measured again in float64 by
#: `KNearest.nearest_per_class`, as a multiple of the bound within which the class's true nearest lies
#: (twice a float32 squared distance's rounding bound): 1 would do; 2 leaves room.
SCREEN_ERROR = 2.0


class KNearest:
    """scikit-learn's distance-weighted KNN over stored samples, with smoothed class probabilities."""

    #: Neighbours looked at for each class's nearest distance; a class with no
    #: sample among them is given the farthest of them.
    REACH = 50
    #: Query rows remembered with their neighbours (`neighbours`), the least recently asked forgotten first:
    #: one photo's reading asks about the same marks more than once (its cells, then its doubtful entries,
    #: then a second look at them), and each search streams every sample.
    REMEMBERED = 1024
    #: Neighbours searched for `nearest_own_and_other`; the first REACH of them serve `proba_and_nearest` (no
    #: second search).
    MARGIN_REACH = 200

    def __init__(self, features: np.ndarray, labels: np.ndarray, classes: np.ndarray, k: int):
        """`features`: the samples, shape (n, d), any real dtype (such as a memory-mapped float16 array), read
        as float32 on first use (`features`); `labels`: shape (n,), int; `classes`: the class labels in the
        order of the probabilities' columns; `k`: neighbours that vote."""
        self._stored = features
        self._features: np.ndarray | None = None
        self._converting = threading.Lock()
        self.labels = np.asarray(labels, np.int64)
        self.classes = classes
        self.k = min(k, len(self.labels))
        self._knn = None
        self._recent: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()  # row: its neighbours
        self._screen: tuple[list[np.ndarray], np.ndarray] | None = None  # `_members`
        self._lock = threading.Lock()

    @property
    def features(self) -> np.ndarray:
        """The samples, shape (n, d) float32, converted from what was stored on first use (thread-safe), so
        that a model is read at once and converted where its index is built (`index`)."""
        with self._converting:
            if self._features is None:
                self._features = np.asarray(self._stored, np.float32)
            return self._features

    def index(self):
        """The fitted scikit-learn model, built on first use (importing scikit-learn); thread-safe."""
        with self._lock:
            if self._knn is None:
                from sklearn.neighbors import KNeighborsClassifier

                knn = KNeighborsClassifier(n_neighbors=self.k, weights="distance", algorithm="brute")
                self._knn = knn.fit(self.features, self.labels)
            return self._knn

    def _search(self, x: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
        """scikit-learn's `kneighbors` of the rows `x` (m, features) float32: distances (m, reach) float64
        and sample indices (m, reach) int64, nearest first."""
        return self.index().kneighbors(x, n_neighbors=reach)

    def neighbours(self, x: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
        """The `reach` nearest samples of each query, by scikit-learn's index (`index`).

        `x`: shape (m, features), cast to float32. Returns their distances
        (m, reach) float64 and sample indices (m, reach) int64, nearest first.
        A row asked about among the last REMEMBERED, with this reach or a
        larger one, is not searched again: a row's neighbours do not depend on
        the rows asked with it (bit for bit with this BLAS; with another, at
        most in the last bit), and the first `reach` of a larger search are
        the `reach` nearest.
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

    def nearest_own_and_other(
        self, x: np.ndarray, asked: np.ndarray, most: float, reach: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The distance from each query `x` (m, features) to the nearest sample of its asked class (`asked`:
        (m,) int, positions in `classes`) and to the nearest sample of any other class, both (m,) float64,
        for the margin tests ``other >= margin * max(own, 1e-9)`` with any margin up to `most` (>= 1).

        From the `reach` (default MARGIN_REACH) nearest samples (one search, remembered by `neighbours`),
        which give both distances whenever they hold a sample of the asked class and one of another class.
        When they hold a sample of the asked class and none of another, `other` is the farthest of them (a
        lower bound) if that lies at least `most` times the own distance: it decides every such test.
        Only the rows they leave undecided (few) are measured against every sample (`nearest_per_class`).
        """
        asked = np.asarray(asked)
        dist, index = self.neighbours(x, min(reach or self.MARGIN_REACH, len(self.labels)))
        own_label = self.labels[index] == self.classes[asked][:, None]
        own = np.where(own_label, dist, np.inf).min(axis=1)
        other = np.where(own_label, np.inf, dist).min(axis=1)
        far = dist[:, -1]
        undecided = np.isinf(own) | (np.isinf(other) & (far < most * np.maximum(own, 1e-9)))
        other = np.where(np.isinf(other), far, other)
        if undecided.any():
            rows = np.flatnonzero(undecided)
            exact = self.nearest_per_class(np.asarray(x, np.float32)[rows])
            own[rows] = exact[np.arange(len(rows)), asked[rows]]
            exact[np.arange(len(rows)), asked[rows]] = np.inf
            other[rows] = exact.min(axis=1)
        return own, other

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
