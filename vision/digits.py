"""Read cells: k-nearest neighbours on a mark's layout, then on its digit's shape.

A cell holds nothing, a printed given, a digit written by hand, or pencilled
candidates (small digits, usually in a corner). The *kind* of a mark is told
best by its layout alone (size and position in the cell, ink area, pieces,
contrast relative to the grid's print, stroke width:
`vision.cells.MARK_FEATURES`), and its *digit* best by the shape of its
central piece within that kind (`vision.features.features_of`). So the
classifier is three k-nearest-neighbours models (`vision.knn.KNearest`, on
scikit-learn's search): one for the kind, one for printed digits, one for
handwritten digits; the probability of "printed 7" is P(printed) x P(7 |
printed).

Printed digits are compared in the principal axes of their samples that keep
99.5% of the variance (`CellClassifier.printed_projection`), handwritten
digits upright (deskewed) in the principal axes of their own samples
(`CellClassifier.handwritten_projection`). A handwritten entry in doubt can be
given a second look by the image distortion model (`vision.deformation`,
`CellClassifier.second_look`), which re-ranks the handwritten model's nearest
samples by their stored images. The model is stored as features, labels and
those projections (no pickle) and its neighbour index is built when first
queried: building it only imports scikit-learn, which takes about a second
that a command spends decoding and locating the photo meanwhile
(`CellClassifier.build_index` in a background thread).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ModelFileError
from .cells import CellMarks, reaches_a_line
from .classes import CANDIDATES, CLASSES, EMPTY, HANDWRITTEN, PRINTED, ClassProbabilities
from .deformation import (
    DIGIT_RERANKED,
    RERANKED,
    deformed_votes,
    distortion_distances,
    gradient_context,
    nearest_per_digit,
)
from .evidence import EntryEvidence, HandwrittenOdds, SecondLook
from .features import FEATURE_LENGTH, features_of, kind_features, normalised_images, unpack_images
from .knn import KNearest
from .model_store import read_model, write_model

#: A marked cell whose mark is most probably printed and handwritten with a probability below this is not
#: shown to the handwritten-digit model (`CellClassifier.predict_proba`): its handwritten digits take the
#: printed model's probabilities (the same shape), for a faster reading of printed grids.
HANDWRITTEN_QUERY = 0.002


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


#: The model folder's arrays (`vision.model_store`), each a `CellClassifier` attribute of that name.
MODEL_ARRAYS = (
    "kind_samples",
    "kind_labels",
    "printed_samples",
    "printed_labels",
    "handwritten_samples",
    "handwritten_labels",
    "printed_projection",
    "handwritten_projection",
    "pen_layouts",
    "handwritten_images",
)


@dataclass
class CellClassifier:
    """Three k-nearest-neighbours models over stored samples: mark kind, printed digit, handwritten digit.

    Attributes
    ----------
    kind_samples : np.ndarray
        Shape (n1, len(MARK_FEATURES)), float32: raw mark features.
    kind_labels : np.ndarray
        Shape (n1,), int: EMPTY (a mark that is no digit: show-through, a
        smudge), PRINTED, HANDWRITTEN or CANDIDATES.
    printed_samples : np.ndarray
        Shape (n2, d2), float16 or float32: printed digits' shape features
        (`features_of`) projected onto `printed_projection`, where the
        printed-digit model measures Euclidean distance.
    printed_labels : np.ndarray
        Shape (n2,), int: digits 1..9.
    handwritten_samples : np.ndarray
        Shape (n3, d3), float16 or float32: handwritten digits' upright shape
        features (`features_of` with ``upright=True``) projected onto
        `handwritten_projection`; a condensed set of the training digits
        (`vision.prototypes.condense`).
    handwritten_labels : np.ndarray
        Shape (n3,), int: digits 1..9.
    printed_projection : np.ndarray
        Shape (FEATURE_LENGTH, d2), float32, orthonormal columns: the principal
        axes of the printed training digits' shape features
        (`vision.training.principal_axes`), which keep nearly all of their
        variance in d2 of FEATURE_LENGTH dimensions (a faster neighbour search).
    handwritten_projection : np.ndarray
        Shape (FEATURE_LENGTH, d3), float32: the same for the handwritten
        training digits' upright shape features.
    pen_layouts : np.ndarray
        Shape (n4, len(MARK_FEATURES)), float32: mark features of other
        players' pen digits written among print (`vision.training.pen_layouts`).
        They say which of the kinds other than print a mark is (see
        `kind_probabilities`).
    handwritten_images : np.ndarray
        Shape (n3, len(INK_ROWS), NORM_SIZE // 2), uint8: the handwritten
        samples' upright normalised images (`normalised_images`) as
        `vision.features.pack_images` stores them (the rows that can hold ink,
        16 grey levels, two pixels a byte), in the order of
        `handwritten_samples`, for `second_look`.
    k : int
        Neighbours of every model.
    """

    kind_samples: np.ndarray
    kind_labels: np.ndarray
    printed_samples: np.ndarray
    printed_labels: np.ndarray
    handwritten_samples: np.ndarray
    handwritten_labels: np.ndarray
    printed_projection: np.ndarray
    handwritten_projection: np.ndarray
    pen_layouts: np.ndarray
    handwritten_images: np.ndarray
    k: int = 5

    def __post_init__(self) -> None:
        digits = np.arange(1, 10)
        self._kind = KNearest(kind_features(self.kind_samples), self.kind_labels, np.arange(4), self.k)
        samples = np.concatenate([np.asarray(self.kind_samples, np.float32), self.pen_layouts])
        labels = np.concatenate([self.kind_labels, np.full(len(self.pen_layouts), HANDWRITTEN)])
        self._kind_with_pen = KNearest(kind_features(samples), labels, np.arange(4), self.k)
        self._printed = KNearest(self.printed_samples, self.printed_labels, digits, self.k)
        self._handwritten = KNearest(self.handwritten_samples, self.handwritten_labels, digits, self.k)

    def build_index(self) -> None:
        """Import scikit-learn and fit the models now, rather than on the first query.

        Thread-safe: a query made meanwhile waits for the index it needs.
        Takes about a second in a fresh process, nearly all of it importing
        scikit-learn (which imports SciPy).
        """
        for model in (self._kind, self._kind_with_pen, self._printed, self._handwritten):
            model.index()

    @classmethod
    def load(cls, path: str | Path) -> CellClassifier:
        """Read a model folder written by `save`, its arrays memory-mapped (`vision.model_store`).

        Raises
        ------
        FileNotFoundError
            Nothing at `path`.
        ModelFileError
            `path` is not a cell model folder of this version (a ValueError).
        """
        arrays, settings = read_model(path, MODEL_ARRAYS)
        width = arrays["printed_projection"].shape[0]
        if width != FEATURE_LENGTH or arrays["handwritten_projection"].shape[0] != FEATURE_LENGTH:
            raise ModelFileError(
                f"{path} compares digit shapes of {width} values, not {FEATURE_LENGTH}: "
                "a model of another version; rebuild it with 'snapsolve train'"
            )
        try:
            return cls(**arrays, k=int(settings["k"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(
                f"{path} is not a usable cell model ({exc}); rebuild it with 'snapsolve train'"
            ) from None

    def save(self, path: str | Path) -> None:
        """Write the model as the folder `path` (`vision.model_store.write_model`): samples in float16,
        labels in int8, the rest as they are.

        Raises
        ------
        OSError
            The folder cannot be written.
        """
        stored = {name: np.asarray(getattr(self, name)) for name in MODEL_ARRAYS}
        for name in ("printed_samples", "handwritten_samples"):
            stored[name] = stored[name].astype(np.float16)
        for name in ("kind_labels", "printed_labels", "handwritten_labels"):
            stored[name] = stored[name].astype(np.int8)
        stored["handwritten_images"] = stored["handwritten_images"].astype(np.uint8)
        write_model(path, stored, {"k": int(self.k)})

    def _printed_space(self, shapes: np.ndarray) -> np.ndarray:
        """Shape features (m, FEATURE_LENGTH) as the printed-digit model compares them: (m, d2) float32."""
        return np.asarray(shapes, np.float32) @ np.asarray(self.printed_projection, np.float32)

    def _handwritten_query(self, crops: list, images: np.ndarray | None = None) -> np.ndarray:
        """Marks' crops as the handwritten model compares them: (m, d3) float32.

        Their upright shapes (`features_of` with ``upright=True``, measured
        here from the crops, or from their upright `images`,
        ``normalised_images(crops, True)``, when given) projected onto
        `handwritten_projection`.
        """
        upright = features_of(crops, upright=True, images=images)
        return upright @ np.asarray(self.handwritten_projection, np.float32)

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
        by_kind = ClassProbabilities(probs)  # views of probs' columns
        by_kind.empty[:] = 1.0
        cells = np.flatnonzero(marks.present)
        if cells.size == 0:
            return probs
        if kind is None:
            kind = self.kind_probabilities(marks.features[cells])
        if shapes is None:
            shapes = features_of([marks.crops[i] for i in cells])
        if printed is None:
            printed = self.printed_proba_and_nearest(shapes)[0]
        by_kind.empty[cells] = kind[:, EMPTY]
        by_kind.printed[cells] = kind[:, PRINTED, None] * printed
        # The handwritten model is asked about the marks that may be handwriting; a mark that is most probably
        # print and almost surely not handwriting keeps its printed digit probabilities for its (tiny)
        # handwritten share, which saves most of the handwritten neighbour search on a printed grid.
        ask = (kind[:, HANDWRITTEN] >= HANDWRITTEN_QUERY) | (kind.argmax(axis=1) != PRINTED)
        digits = printed.copy()
        if ask.any():
            crops = [marks.crops[i] for i in cells[ask]]
            digits[ask] = self._handwritten.proba(self._handwritten_query(crops))
        by_kind.handwritten[cells] = kind[:, HANDWRITTEN, None] * digits
        by_kind.candidates[cells] = kind[:, CANDIDATES]
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
        space = self._handwritten_query(crops)
        return EntryEvidence(
            self._handwritten.proba(space),
            self._handwritten.nearest_per_class(space),
            self.printed_proba_and_nearest(shapes)[0] if printed else np.full((len(crops), 9), np.nan),
            shapes=space,
        )

    def handwritten_odds(self, crops: list, most_margin: float) -> HandwrittenOdds:
        """The handwritten-digit model's reading of some digit crops, from one neighbour search, and what
        decides whether each is sure at any probability and any margin up to `most_margin` (>= 1)
        (`HandwrittenOdds.sure`).

        `crops`: each shape (h, w) uint8 ink strength (0 = paper), one digit each (such as the
        candidates cut apart by `vision.pencil.read_pencil_marks`). The margin's distances are those of
        `digit_evidence`, without measuring every sample for every crop
        (`KNearest.nearest_own_and_other`).
        """
        if not crops:
            empty = np.zeros(0)
            return HandwrittenOdds(np.zeros(0, np.int64), empty, empty, empty, most_margin)
        space = self._handwritten_query(crops)
        hand = self._handwritten
        hand.neighbours(space, hand.MARGIN_REACH)  # one search for both questions below
        proba = hand.proba(space)
        best = proba.argmax(axis=1)
        own, other = hand.nearest_own_and_other(space, best, most_margin)
        digits = hand.classes[best].astype(np.int64)
        return HandwrittenOdds(digits, proba[np.arange(len(crops)), best], own, other, most_margin)

    def second_look(
        self, crops: list, asked: list[int] | None = None, own: tuple[list, list[int]] | None = None
    ) -> SecondLook:
        """A second reading of handwritten digit crops: the HOG model's nearest samples re-ranked by the
        image distortion model (`vision.deformation`, Keysers et al. 2007).

        Each crop's `deformation.RERANKED` nearest handwritten samples (in
        the handwritten model's space), and the `deformation.DIGIT_RERANKED`
        nearest of its `asked` digit, are measured by
        `deformation.distortion_distances` between upright normalised images
        (`normalised_images`); the `deformation.VOTERS` least distorted of
        the RERANKED vote (`deformation.deformed_votes`). It costs some
        milliseconds a crop, so it is meant for the few entries in doubt.

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
            (`SecondLook.own`, `SecondLook.own_ratio`).

        Returns
        -------
        SecondLook

        Raises
        ------
        ValueError
            `asked` is given and not as long as `crops`, or `own`'s crops
            and digits differ in number.
        """
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
            distances = distortion_distances(
                queries[row], gradient_context(unpack_images(self.handwritten_images[candidates]))
            )
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
