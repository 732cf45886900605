"""What the digit models say of some handwritten marks: records that the reading decision weighs.

`EntryEvidence` holds the KNN models' view (probabilities, each digit's
nearest distance); `HandwrittenOdds` the handwritten-digit model's reading of
digit crops with what decides whether each is sure; `SecondLook` the image
distortion model's (`vision.deformation`, Keysers et al. 2007).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .deformation import distortion_ratio


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
class HandwrittenOdds:
    """The handwritten-digit model's reading of some digit crops (`CellClassifier.handwritten_odds`), from
    one neighbour search: sureness at any thresholds is asked afterwards (`sure`).

    Attributes
    ----------
    digits : np.ndarray
        Shape (n,) int64 1..9: each crop's most probable digit.
    probability : np.ndarray
        Shape (n,) float64: that digit's probability.
    own, other : np.ndarray
        Shape (n,) float64: distance (feature units) from each crop to the nearest handwritten sample of its
        digit, and to the nearest of any other digit, or a lower bound of the latter that decides every margin
        up to `most_margin` (`vision.knn.KNearest.nearest_own_and_other`).
    most_margin : float
        The largest margin `sure` can test.
    """

    digits: np.ndarray
    probability: np.ndarray
    own: np.ndarray
    other: np.ndarray
    most_margin: float

    def sure(self, probability: float, margin: float) -> np.ndarray:
        """Shape (n,) bool: the digit's probability is at least `probability` and every other digit's nearest
        sample lies at least `margin` times as far as its own digit's.

        Raises
        ------
        ValueError
            `margin` is above `most_margin`, which the distances cannot decide.
        """
        if margin > self.most_margin:
            raise ValueError(f"margin {margin} above the {self.most_margin} measured for")
        return (self.probability >= probability) & (self.other >= margin * np.maximum(self.own, 1e-9))


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
