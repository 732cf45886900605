"""Pen versus print: how unlike the grid's own print each given looks (ink, height, place, shape, strokes)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: Printed digits of one grid share one typeface, size, place in the cell
#: and ink; a pen differs from them in several small ways at once. Each
#: given is measured against the grid's own givens (`pen_scores`): its
#: height off their median (a share of it), its centre off its neighbours'
#: (a share of a cell, the larger of x and y), its shape's distance
#: to the nearest other copy of its digit (in print spreads, below), and how
#: much fainter its strokes are than their median. Each is divided by its
#: scale and the terms combine as the length of a vector: the pen score.
#: Chosen on training data only (the 60 in-progress and 126 printed training
#: photos, 5,354 printed givens; the first 60 photos of
#: `benchmarks/handwriting.py --seed 24`); see `models/MODEL_CARD.md`.
PEN_HEIGHT_SCALE = 0.1


PEN_CENTRE_SCALE = 0.04


PEN_SHAPE_SCALE = 2.0


PEN_FAINT_SCALE = 0.2


#: A fifth term: the stroke width off the givens' median (a share of it).
#: One typeface prints one weight, a pen writes its own, thinner or thicker:
#: among the marks read as print on photos 0-479 of the tuning seed
#: (`benchmarks/handwriting.py --seed 24 --extra-givens 0`), 26% of the pen
#: lies more than 0.2 off against 10 of 10,587 printed givens (none beyond
#: 0.22). Real print varies more (on the 126 printed training photos 120 of
#: 3,606 givens lie beyond 0.2, 2 beyond 0.4, none beyond 0.46), so the scale
#: is 0.2: at 0.15 one printed training photo lost a given and one became
#: unsure, at 0.1 seven; at 0.2 none of the labelled training photos changed,
#: and the tuning photos with every printed given right went from 226 to 228
#: of 240 at 10 extra givens and from 425 to 438 of 480 at 0.
PEN_STROKE_SCALE = 0.2


#: A given whose pen score exceeds PEN_SCORE is unlike the print. On those
#: training photos 13 of 5,354 printed givens score above 2.5 (the separate
#: height and shape rules used before flagged 30), and 92% of the synthetic
#: pen read as print (89% before).
PEN_SCORE = 2.5


#: When the reading already has one solution nothing else points to pen, so
#: a given must score higher to move: 4 printed givens of 5,354 score above
#: 3.0 (12 with the rules before) and 82% of the synthetic pen (73%).
PEN_SCORE_SOLVED = 3.0


#: Fewest givens for the grid's printed population to be a reference.
MIN_POPULATION = 12


#: Printed copies of one digit in one grid are near-identical (one typeface,
#: one photo); a hand's copies are not, nor is a neat hand like the print.
#: The shape term of the pen score is the distance from a given to the
#: nearest other given of its digit, in the printed-digit model's shape space
#: (`vision.digits.CellClassifier.print_shapes`), in units of the grid's
#: print spread: the lower quartile (PRINT_SPREAD_QUANTILE) of those nearest
#: distances over the grid's givens, the print pairs even when a third of the
#: "givens" are pen taken for print (at least MIN_PRINT_SPREAD). A given only
#: counts as unlike by shape when another copy of its digit is not itself
#: farther than PRINT_APART spreads from its nearest copy: of two lone copies
#: far apart, nothing tells which is the print.
PRINT_APART = 3.0


PRINT_SPREAD_QUANTILE = 25


#: The least print spread: the training photos' grids spread 0.25 to 0.79 (the
#: synthetic photos' 0.26 to 0.52), a clean rendered page (the answer key of
#: `snapsolve generate`) 0.18, where any small difference would look like a
#: hand. A distance in the printed model's shape space: measure again when the
#: model's features change.
MIN_PRINT_SPREAD = 0.25


#: A grid's print and its ruled lines are one ink, and a pen is often
#: another colour: a given whose ink lies more than PEN_CHROMA (8-bit Lab
#: units on the chroma plane, `vision.ink.ink_colours`) from the grid's print
#: is not print. The print is the median colour of the givens whose ink is
#: within PEN_CHROMA of the ruling's, when there are at least
#: MIN_POPULATION // 2 of them (black print under a blue pen, however many
#: of the "givens" are pen), else of every given (print of another colour
#: than the ruling, such as red digits in a black grid). On the training
#: photos (60 in-progress, 126 printed; not validation) printed ink lies at
#: most 10.4 from its grid's print (red print spreads the most); on the first
#: 40 synthetic photos of `benchmarks/handwriting.py --seed 24`, about 90% of
#: blue ballpoint digits lie farther than 15, black ballpoint not at all
#: (colour cannot tell black pen).
PEN_CHROMA = 15.0


def colour_outliers(cells: list[int], inks: np.ndarray | None, ruling: np.ndarray | None) -> dict[int, float]:
    """Givens (of `cells`) whose ink colour lies more than PEN_CHROMA from the grid's print: cell -> distance."""
    if inks is None:
        return {}
    inks = np.asarray(inks, np.float64)
    measured = [c for c in cells if np.isfinite(inks[c]).all()]
    if len(measured) < MIN_POPULATION:
        return {}
    population = inks[measured]
    if ruling is not None and np.isfinite(ruling).all():
        like_ruling = np.linalg.norm(population - np.asarray(ruling, np.float64), axis=1) <= PEN_CHROMA
        if like_ruling.sum() >= MIN_POPULATION // 2:
            population = population[like_ruling]
    print_ink = np.median(population, axis=0)
    far = {c: float(np.linalg.norm(inks[c] - print_ink)) for c in measured}
    return {c: d for c, d in far.items() if d > PEN_CHROMA}


#: The digit shapes of some cells' marks, in one digit model's space: cells
#: (n,) -> (n, d) float, NaN rows for cells without a mark
#: (`vision.digits.CellClassifier.print_shapes` for the printed-digit model,
#: `handwritten_shapes` for the handwritten-digit model).
ShapesOf = Callable[[list[int]], np.ndarray]


@dataclass(frozen=True)
class MarkLooks:
    """How the marks of a grid look, cell by cell: what tells the grid's own print from the player's pen.

    Every array is indexed by upright cell (0..80) and measured on the
    rectified grid (`vision.cells.MARK_FEATURES`, `vision.read.GridReading`).

    Attributes
    ----------
    heights : np.ndarray
        Shape (81,) float: each mark's height as a share of a cell (0 where there is no mark).
    shapes : callable, optional
        The marks' digit shapes in the printed-digit model's space (`ShapesOf`).
    centres : np.ndarray, optional
        Shape (81, 2) float: each mark's centre (x, y) as a share of its cell ("centre_x", "centre_y").
    contrast : np.ndarray, optional
        Shape (81,) float: each mark's stroke contrast ("relative_contrast").
    strokes : np.ndarray, optional
        Shape (81,) float: each mark's stroke width as a share of a cell ("stroke_width").
    inks : np.ndarray, optional
        Shape (81, 2) float: each cell's ink colour on the chroma plane (`GridReading.inks`; NaN rows unmeasured).
    ruling : np.ndarray, optional
        Shape (2,) float: the ruled lines' ink colour (`GridReading.ruling_ink`).
    hand_digits : callable, optional
        Cells (n,) -> (n,) int: the handwritten-digit model's most probable
        digit (1..9) of each cell's mark (`vision.digits.CellClassifier.entry_evidence`).
    hand_shapes : callable, optional
        Cells (n,) -> (n, d) float: the marks' shapes in the handwritten-digit
        model's space (`vision.digits.CellClassifier.handwritten_shapes`).
    """

    heights: np.ndarray
    shapes: ShapesOf | None = None
    centres: np.ndarray | None = None
    contrast: np.ndarray | None = None
    strokes: np.ndarray | None = None
    inks: np.ndarray | None = None
    ruling: np.ndarray | None = None
    hand_digits: Callable[[list[int]], np.ndarray] | None = None
    hand_shapes: ShapesOf | None = None


def pen_scores(givens: list[int], looks: MarkLooks) -> dict[int, float]:
    """How unlike the grid's own print each given looks: its pen score (0 for a typical printed digit).

    The givens are measured against their own population (one typeface,
    size, place and ink). The terms, each divided by its scale: the height's
    relative distance from the givens' median height (PEN_HEIGHT_SCALE); the
    centre's distance from its neighbours' (x against the other givens of its
    column, y of its row), the larger of the two, as a share of a cell
    (PEN_CENTRE_SCALE); the shape's distance to the nearest
    other copy of its digit beyond one print spread (PEN_SHAPE_SCALE, see
    PRINT_APART); how much fainter the strokes are than the median
    (PEN_FAINT_SCALE); and the stroke width's relative distance from the
    givens' median width (PEN_STROKE_SCALE). The score is the length of the
    vector of the terms that were measured.

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        The marks' heights and, where measured, shapes, centres and contrast
        (the terms of what is not measured are left out; inks are not used here).

    Returns
    -------
    dict of int to float
        Given cell (0..80) -> pen score; empty when the grid has fewer than
        MIN_POPULATION givens (no population to be unlike).
    """
    cells = [c for c in range(81) if givens[c]]
    if len(cells) < MIN_POPULATION:
        return {}
    terms = np.zeros(len(cells))
    h = np.asarray(looks.heights, np.float64)[cells]
    median = float(np.median(h))
    if median > 0:
        terms += (np.abs(h / median - 1.0) / PEN_HEIGHT_SCALE) ** 2
    if looks.centres is not None:
        off = _off_centre(cells, np.asarray(looks.centres, np.float64))
        terms += (np.nan_to_num(off) / PEN_CENTRE_SCALE) ** 2
    if looks.contrast is not None:
        k = np.asarray(looks.contrast, np.float64)[cells]
        middle = float(np.median(k))
        if middle > 0:
            terms += (np.nan_to_num(np.maximum(1.0 - k / middle, 0.0)) / PEN_FAINT_SCALE) ** 2
    if looks.strokes is not None:
        w = np.asarray(looks.strokes, np.float64)[cells]
        middle = float(np.median(w))
        if middle > 0:
            terms += (np.abs(w / middle - 1.0) / PEN_STROKE_SCALE) ** 2
    apart = _shapes_apart(givens, cells, looks.shapes)
    if apart is not None:
        terms += np.where(apart[1], np.maximum(apart[0] - 1.0, 0.0) / PEN_SHAPE_SCALE, 0.0) ** 2
    return {c: float(v) for c, v in zip(cells, np.sqrt(terms))}


def _shapes_apart(givens: list[int], cells: list[int], shapes: ShapesOf | None) -> tuple[np.ndarray, np.ndarray] | None:
    """How far each given of `cells` lies from the nearest other copy of its digit, in print spreads (0 for a
    lone copy), and whether it has a print anchor (another copy not itself farther than PRINT_APART from its
    nearest); None without shapes or with fewer than MIN_POPULATION givens that have a copy."""
    if shapes is None:
        return None
    points = np.asarray(shapes(cells), np.float64)
    digits = np.array([givens[c] for c in cells])
    same = (digits[:, None] == digits[None]) & ~np.eye(len(cells), dtype=bool)
    nearest = np.full(len(cells), np.inf)
    for digit in np.unique(digits):  # distances between copies of one digit only
        copies = np.flatnonzero(digits == digit)
        if copies.size > 1:
            apart = np.linalg.norm(points[copies, None] - points[None, copies], axis=2)
            np.fill_diagonal(apart, np.inf)
            nearest[copies] = apart.min(axis=1)
    known = np.isfinite(nearest)
    if known.sum() < MIN_POPULATION:
        return None
    spread = max(float(np.percentile(nearest[known], PRINT_SPREAD_QUANTILE)), MIN_PRINT_SPREAD)
    apart = np.where(known, nearest / spread, 0.0)
    anchored = (same & ~(apart > PRINT_APART)[None, :]).any(axis=1)
    return apart, anchored


def _givens_apart(givens: list[int], looks: MarkLooks) -> tuple[list[int], tuple[np.ndarray, np.ndarray]] | None:
    """The given cells and their `_shapes_apart`; None with fewer than MIN_POPULATION givens or no shapes."""
    cells = [c for c in range(81) if givens[c]]
    if len(cells) < MIN_POPULATION:
        return None
    apart = _shapes_apart(givens, cells, looks.shapes)
    return None if apart is None else (cells, apart)


def lone_far_copies(givens: list[int], looks: MarkLooks) -> list[list[int]]:
    """Groups of givens of one digit whose copies all lie far (more than PRINT_APART print spreads) from
    one another: one typeface prints a digit alike, so at most one of them is print, and their shapes do
    not say which (no print anchor).

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        The marks' shapes (`MarkLooks.shapes`); without them there are no groups.

    Returns
    -------
    list of list of int
        Cells (0..80), one list per digit that has such copies (at least two), the digits in order.
    """
    measured = _givens_apart(givens, looks)
    if measured is None:
        return []
    cells, apart = measured
    far = {c for c, a in zip(cells, apart[0]) if a > PRINT_APART}
    groups = []
    for digit in range(1, 10):
        copies = [c for c in cells if givens[c] == digit]
        if len(copies) >= 2 and all(c in far for c in copies):
            groups.append(copies)
    return groups


def _off_centre(cells: list[int], centres: np.ndarray) -> np.ndarray:
    """How far each given's centre lies from its neighbours' (len(cells),): the larger of x and y, as a share of a cell.

    A given's x is compared with the median x of the other givens of its
    column, and its y with those of its row (when there are at least two;
    else with every given's): a lattice fitted a little off along one line
    shifts that line's print alike, a hand places each digit its own way.
    """
    xy = centres[cells]
    # each axis's median over the givens measured (np.nanmedian's value, at a fifth of its cost on so few)
    overall = np.array([np.median(v[~np.isnan(v)]) if not np.isnan(v).all() else np.nan for v in xy.T])
    index = np.asarray(cells)
    others = ~np.eye(len(cells), dtype=bool)
    off = np.zeros(len(cells))
    for axis, line in ((0, index % 9), (1, index // 9)):  # x against the column, y against the row
        same_line = (line[:, None] == line[None, :]) & others & np.isfinite(xy[None, :, axis])
        ranked = np.sort(np.where(same_line, xy[None, :, axis], np.inf), axis=1)  # each row's line first
        count = same_line.sum(axis=1)
        rows = np.arange(len(cells))
        low, high = ranked[rows, np.maximum(count - 1, 0) // 2], ranked[rows, count // 2]
        with np.errstate(invalid="ignore"):
            reference = np.where(count >= 2, (low + high) / 2, overall[axis])
        off = np.fmax(off, np.abs(xy[:, axis] - reference))
    return off


def unlike_the_print(
    givens: list[int], looks: MarkLooks, threshold: float = PEN_SCORE, scores: dict[int, float] | None = None
) -> list[int]:
    """Givens whose mark does not look like the grid's own print, the most unlike first.

    A given is unlike the print by its ink's colour, when ``looks.inks`` are given
    (more than PEN_CHROMA from the print's), or by its pen score
    (`pen_scores`: height, centre, shape, faintness and stroke width against
    the grid's givens) above `threshold`. Colour outliers come first (by how far off: a
    colour is the surest sign of a pen), then the others by pen score.

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        The marks' looks (the inks and the ruling's ink for colour).
    threshold : float
        The least pen score of a given unlike the print (PEN_SCORE, or PEN_SCORE_SOLVED).
    scores : dict of int to float, optional
        ``pen_scores(givens, looks)`` when the caller has them (else measured here).

    Returns
    -------
    list of int
        Cells (0..80); empty when the grid has fewer than MIN_POPULATION givens.
    """
    return [c for c, unlike in by_unlikeness(givens, looks, threshold, scores) if unlike]


def by_unlikeness(
    givens: list[int], looks: MarkLooks, threshold: float, scores: dict[int, float] | None = None
) -> list[tuple[int, bool]]:
    """Every given, the most unlike the print first, each with whether it is unlike (above `threshold`);
    `scores` are ``pen_scores(givens, looks)`` when the caller has them."""
    cells = [c for c in range(81) if givens[c]]
    if len(cells) < MIN_POPULATION:
        return []
    by_colour = colour_outliers(cells, looks.inks, looks.ruling)
    if scores is None:
        scores = pen_scores(givens, looks)
    first = sorted(by_colour, key=by_colour.__getitem__, reverse=True)
    rest = sorted((c for c in cells if c not in by_colour), key=lambda c: scores.get(c, 0.0), reverse=True)
    return [(c, True) for c in first] + [(c, scores.get(c, 0.0) > threshold) for c in rest]


def may_be_pen(
    givens: list[int],
    looks: MarkLooks,
    probabilities: np.ndarray | None,
    threshold: float,
    scores: dict[int, float] | None = None,
) -> list[int]:
    """Givens that may be pen, each once, in this order: those unlike the print (`unlike_the_print` with
    `threshold`: another ink, or a pen score above it), then those far by shape and doubted by the
    classifier (`doubted_by_shape`), then those doubted and plainly unlike the print (`doubted_by_looks`).
    `scores` are ``pen_scores(givens, looks)`` when the caller has them (else measured here, once for the
    three tests)."""
    if scores is None:
        scores = pen_scores(givens, looks)
    cells = unlike_the_print(givens, looks, threshold, scores)
    cells += [c for c in doubted_by_shape(givens, looks, probabilities, scores) if c not in cells]
    cells += [c for c in doubted_by_looks(givens, looks, probabilities, scores) if c not in cells]
    return cells


#: Where the per-grid decision took some marks of a grid for pen, a given the puzzle needs that the
#: classifier reads as print with less than this probability, and the handwritten-digit model reads as
#: another digit, makes the reading unsure (`separate_written`): a pen 9 read as a printed 1 at P 0.91
#: had made another puzzle, solved wrong (photo 1 of `benchmarks/handwriting.py --seed 7
#: --extra-givens 0`). On photos 0-479 of the tuning seed 24 (0 and 10 extra givens) it made one photo
#: solved right unsure and no other change; the labelled photos of both folders did not change (no pen is
#: taken out of a printed-only grid, where the handwritten-digit model reads a fourth of the print as
#: another digit).
PEN_GIVEN_DOUBT = 0.95


#: A given whose shape lies farther than PRINT_APART print spreads from every
#: other copy of its digit while another copy has print near it (a print
#: anchor), and that the classifier gives less than SHAPE_DOUBT probability
#: of being that printed digit, is unlike the print however typical its
#: height, place and strokes (`doubted_by_shape`). On the training photos (60
#: in-progress, 126 printed; not validation) no printed given is both: the
#: 20 anchored ones beyond 2.5 spreads that the puzzle does not need have
#: P >= 0.996. Of the pen kept as givens in solved readings of the first 60
#: photos of `benchmarks/handwriting.py --seed 24`, 16 of 17 are (P 0.56 to
#: 0.96, 3.2 to 5.6 spreads apart). Where the classifier is not sure of
#: most of the grid's givens (their median P below SHAPE_DOUBT; on the
#: answer-key page of `snapsolve generate`, small grids with every cell
#: filled and so none needed, it gives 71 to 81 of a grid's 81 printed digits
#: less), only a given doubted far more than the rest counts (DOUBT_OVER_GRID).
SHAPE_DOUBT = 0.99


#: A far-shaped given counts as doubted only when its doubt (1 - P) is at
#: least DOUBT_OVER_COPIES times the median doubt of the other copies of its
#: digit (one typeface's copies of a digit are read alike, a hand's are not)
#: and, where the classifier doubts most of the grid's givens (their median
#: P below SHAPE_DOUBT: small, blurred or unusual print), DOUBT_OVER_GRID
#: times the grid's median doubt. On 180 answer-key grids of `snapsolve
#: generate` (seeds 1-4, 7 and 10-21, easy to extreme, rendered at 150-300
#: dpi; every digit printed) no far-shaped given passed both with the copies'
#: factor 4 used before DOUBT_PEN_SCORE (at most 2.98 and 3.93 times); with
#: DOUBT_PEN_SCORE and the factor 1 the 61 key grids found in 17 such PDFs
#: still keep all their digits.
DOUBT_OVER_GRID = 3.0


DOUBT_OVER_COPIES = 1.0


#: A far-shaped, doubted given is unlike the print only when its pen score
#: (`pen_scores`, shape term included) also exceeds DOUBT_PEN_SCORE: the
#: shape alone, just past PRINT_APART, does not tell a hand. Of the givens
#: the rule took out on photos 0-239 (10 extra givens) and 0-479 (0 extra)
#: of `benchmarks/handwriting.py --seed 24` (tuning), 33 were print, all with
#: a pen score below 1.69, and 1,294 pen, 3 of them below 1.7. With it the
#: copies' doubt needs only to exceed theirs (DOUBT_OVER_COPIES 1, from 4):
#: the tuning photos with every printed given right went from 206 to 226 of
#: 240 at 10 extra givens and from 416 to 425 of 480 at 0; no labelled
#: training photo changed, and the answer-key grids still keep every digit.
DOUBT_PEN_SCORE = 1.7


def doubted_by_shape(
    givens: list[int],
    looks: MarkLooks,
    probabilities: np.ndarray | None,
    scores: dict[int, float] | None = None,
) -> list[int]:
    """Givens whose shape is far from their digit's print and that the classifier doubts: the farthest first.

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        The marks' shapes (`MarkLooks.shapes`); without them there are none.
    probabilities : np.ndarray or None
        Shape (81, 10), float: P(no printed digit), P(printed 1..9) per cell; None gives none.
    scores : dict of int to float, optional
        ``pen_scores(givens, looks)`` when the caller has them (else measured here).

    Returns
    -------
    list of int
        Cells (0..80) anchored and more than PRINT_APART print spreads from
        the nearest other copy of their digit (`_shapes_apart`), whose pen
        score exceeds DOUBT_PEN_SCORE, whose printed digit has probability
        below SHAPE_DOUBT, and whose doubt is more than DOUBT_OVER_COPIES
        times their digit's other copies' median doubt (and at least
        DOUBT_OVER_GRID times the grid's median doubt when the givens' median
        probability is below SHAPE_DOUBT too).
    """
    if probabilities is None:
        return []
    measured = _givens_apart(givens, looks)
    if measured is None:
        return []
    cells, apart = measured
    sure = np.array([probabilities[c, givens[c]] for c in cells], np.float64)
    digits = np.array([givens[c] for c in cells])
    usual = 1.0 - float(np.median(sure))  # the grid's usual doubt
    if scores is None:
        scores = pen_scores(givens, looks)
    doubted = []
    for i, (c, a, anchored) in enumerate(zip(cells, apart[0], apart[1])):
        if not anchored or a <= PRINT_APART or sure[i] >= SHAPE_DOUBT:
            continue
        if scores.get(c, 0.0) <= DOUBT_PEN_SCORE:
            continue  # the shape just past PRINT_APART and nothing else unlike the print
        copies = (digits == digits[i]) & (np.arange(len(cells)) != i)
        if 1.0 - sure[i] <= DOUBT_OVER_COPIES * (1.0 - float(np.median(sure[copies]))):
            continue  # its digit's other copies are doubted alike: the typeface, not a hand
        if usual > 1.0 - SHAPE_DOUBT and 1.0 - sure[i] < DOUBT_OVER_GRID * usual:
            continue  # the classifier doubts the grid's print as a rule, and this one hardly more
        doubted.append((float(a), c))
    return [c for _, c in sorted(doubted, reverse=True)]


#: A given that the classifier doubts (reads as print with P < PEN_GIVEN_DOUBT)
#: and whose pen score exceeds DOUBTED_PEN_SCORE is unlike the print, though
#: below PEN_SCORE_SOLVED (`doubted_by_looks`): doubt and looks together. In
#: the solved readings of photos 0-239 (10 extra givens) and 0-479 (0 extra)
#: of `benchmarks/handwriting.py --seed 24` (tuning), 18 of the 41 pen digits
#: still kept as givens are both and none of 18,198 printed givens; of the
#: training photos' 5,352 printed givens (60 in-progress, 126 printed; not
#: validation) 2 are both (the puzzle needs them), 5 at a pen score above 1.8,
#: where one printed training photo lost a given. Photos with every printed
#: given right: 234 -> 236 of 240 at 10 extra givens, 445 -> 455 of 480 at 0;
#: no labelled training photo changed, nor the answer-key grids.
DOUBTED_PEN_SCORE = 2.0


#: The same for a given that is the only copy of its digit among the givens:
#: its pen score has no shape term (nothing to compare its shape with), so
#: less of the rest tells. On the stop of 2026-11-28's tuning photos (0-119 of
#: `benchmarks/handwriting.py --seed 24`, MNIST hands and faces, 0 and 10
#: extra givens) the 234 printed lone copies of solved readings score at most
#: 0.79 and none is doubted with a score above 1.0; of the training photos'
#: 73 lone printed givens in solved readings (126 printed, 60 in-progress; not
#: validation) none is both. The pen lone copies kept as givens on seeds 307,
#: 419 and 523 (0 extra givens, MNIST hands) scored 1.4 to 1.9 at P 0.73 to
#: 0.92.
LONE_DOUBTED_PEN_SCORE = 1.0


def doubted_by_looks(
    givens: list[int],
    looks: MarkLooks,
    probabilities: np.ndarray | None,
    scores: dict[int, float] | None = None,
) -> list[int]:
    """Givens that the classifier doubts (P below PEN_GIVEN_DOUBT) and whose pen score (`pen_scores`)
    exceeds DOUBTED_PEN_SCORE (LONE_DOUBTED_PEN_SCORE for the only given of its digit): the highest score
    first.

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        How the marks look (as for `pen_scores`).
    probabilities : np.ndarray or None
        Shape (81, 10), float: P(no printed digit), P(printed 1..9) per cell; None gives none.
    scores : dict of int to float, optional
        ``pen_scores(givens, looks)`` when the caller has them (else measured here).

    Returns
    -------
    list of int
        Cells (0..80); empty with fewer than MIN_POPULATION givens.
    """
    if probabilities is None:
        return []
    if scores is None:
        scores = pen_scores(givens, looks)
    copies = Counter(d for d in givens if d)
    doubted = [
        c
        for c, v in scores.items()
        if v > (LONE_DOUBTED_PEN_SCORE if copies[givens[c]] == 1 else DOUBTED_PEN_SCORE)
        and probabilities[c, givens[c]] < PEN_GIVEN_DOUBT
    ]
    return sorted(doubted, key=lambda c: -scores[c])


#: A given whose pen score exceeds OWN_PEN_SCORE and whose nearest other
#: printed copy of its digit lies more than OWN_PEN_RATIO times as far as the
#: player's nearest own copy of it (a mark outside the givens in a cell where
#: the solution has that digit), in the handwritten-digit model's space, is the
#: player's (`like_the_players_pen`): one typeface prints a digit alike, and a
#: hand writes its own digits alike. On the solved readings of photos 0-119 of
#: `benchmarks/handwriting.py --seed 24` (tuning; MNIST hands and held-out
#: faces, 0 and 10 extra givens) 11,745 printed givens have both kinds of
#: copy: 2 lie farther from their print than from the pen (1.27 and 1.34
#: times, pen scores 0.85 and 0.23), and of the 263 that score above 1.0 the
#: largest ratio is 0.74. Of the 8 pen digits those readings still kept as
#: givens (pen scores 1.03 to 2.02), 5 have both kinds of copy, 4 of them at
#: 1.30 to 1.50. See `models/MODEL_CARD.md` ("Like the player's own pen").
OWN_PEN_SCORE = 1.0


OWN_PEN_RATIO = 1.0


def like_the_players_pen(
    givens: list[int], looks: MarkLooks, solution: list[int] | None, scores: dict[int, float] | None = None
) -> list[int]:
    """Givens whose shape is nearer the player's own writing of their digit than the grid's print of it.

    Parameters
    ----------
    givens : list of int
        81 values, 0 where no digit is printed.
    looks : MarkLooks
        The marks' heights (a mark is where the height is above 0) and their
        shapes in the handwritten-digit model's space (`MarkLooks.hand_shapes`);
        without those there are none.
    solution : list of int or None
        The givens' unique solution: the player's copies of a digit are the
        marks outside the givens in cells where it has that digit.
    scores : dict of int to float, optional
        ``pen_scores(givens, looks)`` when the caller has them (else measured here).

    Returns
    -------
    list of int
        Cells (0..80) whose pen score exceeds OWN_PEN_SCORE, whose digit has
        another given copy and at least one pen copy, and whose distance to
        the nearest other given copy exceeds OWN_PEN_RATIO times the distance
        to the nearest pen copy; the largest ratio first.
    """
    if looks.hand_shapes is None or solution is None:
        return []
    if scores is None:
        scores = pen_scores(givens, looks)
    heights = np.asarray(looks.heights, np.float64)
    wanted = [c for c, v in scores.items() if v > OWN_PEN_SCORE]
    digits = {givens[c] for c in wanted}
    copies = [c for c in range(81) if givens[c] in digits]
    own = [c for c in range(81) if not givens[c] and heights[c] > 0 and solution[c] in digits]
    if not wanted or not own:
        return []
    measured = copies + own
    found = np.asarray(looks.hand_shapes(measured), np.float64)
    shapes = {c: row for c, row in zip(measured, found) if np.isfinite(row).all()}
    liked = []
    for cell in wanted:
        others = [c for c in copies if c != cell and givens[c] == givens[cell] and c in shapes]
        pen = [c for c in own if solution[c] == givens[cell] and c in shapes]
        if cell not in shapes or not others or not pen:
            continue
        to_print = min(float(np.linalg.norm(shapes[c] - shapes[cell])) for c in others)
        to_pen = min(float(np.linalg.norm(shapes[c] - shapes[cell])) for c in pen)
        if to_print > OWN_PEN_RATIO * to_pen:
            liked.append((to_print / max(to_pen, 1e-9), cell))
    return [c for _, c in sorted(liked, reverse=True)]


#: A mark read as a printed digit with at least this probability, and like
#: the print once measured against the givens kept, is print beyond doubt:
#: when putting it back among the givens leaves no solution, a given kept is
#: wrong (a pen digit taken for print), and the reading is unsure rather than
#: solved (`decide_givens`). 0.99 at first; photo 198 of
#: `benchmarks/handwriting.py --seed 24 --photos 240` (tuning) was solved
#: wrong with a printed 5 read at P 0.989 refused (a wrong pen 6 kept as a
#: given had made another puzzle). At 0.98 it is unsure, and nothing else of
#: photos 0-479 of that seed, nor of the training photos, changes. A mark
#: taken out on the way to one solution that the puzzle did not need goes
#: back when it is print beyond doubt and agrees with the solution: photos
#: 0-479 of that seed at ``--extra-givens 10``, 65 -> 56 with a given wrong,
#: nothing new wrong (at 0 extra, 53 either way).
SURE_PRINT = 0.98


def read_otherwise_by_hand(givens: list[int], probabilities: np.ndarray, looks: MarkLooks) -> list[int]:
    """Givens that may be a pen digit misread as print: read as print short of SURE_PRINT (`probabilities`,
    shape (81, 10), float, as for `choose_reading`) while the handwritten-digit model reads their mark as
    another digit (`MarkLooks.hand_digits`), the least probable print first; empty without that model.

    A lone pen 1 written as one slanted stroke is read as a printed 7 (P 0.95-0.97) and, with no other copy
    of its digit near it and a print-like height, scores too little to be taken for pen
    (`pen_scores`); when the givens kept then have no solution, or one only by dropping it, it is what is
    wrong (photos 42 and 102 of `benchmarks/handwriting.py --seed 7001 --hands mnist`, unsolved before).
    The hand's reading alone is no sign of pen (it reads a quarter of the printed training photos'
    givens as another digit), so these are tried only where the rules that go by likeness to the print
    give up (`decide_givens`)."""
    doubtful = [c for c in range(81) if givens[c] and probabilities[c, givens[c]] < SURE_PRINT]
    by_hand = hand_readings(doubtful, looks)
    return sorted(
        (c for c in doubtful if c in by_hand and by_hand[c] != givens[c]), key=lambda c: probabilities[c, givens[c]]
    )


def surely_print(cell: int, digit: int, givens: list[int], probabilities: np.ndarray, looks: MarkLooks) -> bool:
    """Whether the mark of `cell`, read as printed `digit`, is print beyond doubt among `givens` (SURE_PRINT)."""
    if probabilities[cell, digit] < SURE_PRINT:
        return False
    with_it = list(givens)
    with_it[cell] = digit
    return cell not in unlike_the_print(with_it, looks)


def hand_readings(cells: list[int], looks: MarkLooks) -> dict[int, int]:
    """Cell -> the handwritten-digit model's most probable digit (1..9) of its mark; empty without the model."""
    if not cells or looks.hand_digits is None:
        return {}
    return {c: int(d) for c, d in zip(cells, np.asarray(looks.hand_digits(cells)))}
