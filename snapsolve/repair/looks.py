"""Pen versus print: how unlike the grid's own print each given looks (ink, height, place, shape, strokes)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: Printed digits of one grid share one typeface, size, place in the cell, weight and ink; a pen differs
#: from them in several small ways at once. A given's pen score (`pen_scores`) is the length of the vector of
#: its differences from the grid's givens, each divided by its scale: its height off their median (a share
#: of it, PEN_HEIGHT_SCALE), its centre off its neighbours' (a share of a cell, PEN_CENTRE_SCALE), its
#: shape's distance to the nearest other copy of its digit beyond one print spread (PEN_SHAPE_SCALE), how
#: much fainter its strokes are than their median (a share, PEN_FAINT_SCALE) and its stroke width off
#: theirs (a share, PEN_STROKE_SCALE). Fitted with `benchmarks/handwriting.py` and the labelled training
#: photos.
PEN_HEIGHT_SCALE = 0.1
PEN_CENTRE_SCALE = 0.04
PEN_SHAPE_SCALE = 2.0
PEN_FAINT_SCALE = 0.2
PEN_STROKE_SCALE = 0.2

#: A given whose pen score exceeds PEN_SCORE is unlike the print; when the reading already has one
#: solution nothing else points to pen, and it must exceed PEN_SCORE_SOLVED. Fitted as the scales.
PEN_SCORE = 2.5
PEN_SCORE_SOLVED = 3.0

#: Fewest givens for the grid's printed population to be a reference.
MIN_POPULATION = 12

#: Printed copies of one digit in one grid are near-identical (one typeface, one photo); a hand's are not.
#: The shape term measures a given's distance to the nearest other given of its digit in the printed-digit
#: model's space (`vision.digits.CellClassifier.print_shapes`) in print spreads: the PRINT_SPREAD_QUANTILE
#: percentile of those distances over the grid's givens (at least MIN_PRINT_SPREAD), which is a print pair's
#: even when a third of the givens are pen. A given is unlike by shape only when another copy of its digit
#: lies within PRINT_APART spreads of its own nearest copy (a print anchor): of two lone copies far apart,
#: nothing tells which is the print.
PRINT_APART = 3.0
PRINT_SPREAD_QUANTILE = 25

#: The least print spread, so that a clean rendered page's tiny differences do not look like a hand; a
#: distance in the printed-digit model's space, to be measured again when its features change.
MIN_PRINT_SPREAD = 0.25

#: A grid's print and its ruled lines are one ink, and a pen is often another colour: a given whose ink lies
#: more than PEN_CHROMA (8-bit Lab units on the chroma plane, `vision.ink.ink_colours`) from the grid's print
#: is not print. The print's colour is the median of the givens whose ink is within PEN_CHROMA of the
#: ruling's, when there are at least MIN_POPULATION // 2 of them (black print under a blue pen), else of every
#: given (print of another colour than the ruling). Black pen cannot be told by colour. Fitted with
#: `benchmarks/handwriting.py` and the labelled training photos.
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
    print_distances : callable, optional
        Cells (n,) of marks -> (n,) float: each mark's distance to the nearest
        printed sample in the printed-digit model's space
        (`vision.digits.CellClassifier.printed_proba_and_nearest`).
    hand_probabilities : callable, optional
        Cells (n,) of marks -> (n, 9) float: P(digit 1..9 | handwritten), the
        handwritten-digit model's reading of each mark
        (`vision.digits.CellClassifier.digit_evidence`).
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
    print_distances: Callable[[list[int]], np.ndarray] | None = None
    hand_probabilities: Callable[[list[int]], np.ndarray] | None = None


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


#: A given the classifier reads as print with less than this probability is doubted: with a pen score above
#: DOUBTED_PEN_SCORE it is unlike the print (`doubted_by_looks`), and where some pen of the grid was read as
#: print, one the puzzle needs that the handwritten-digit model reads as another digit makes the reading
#: unsure (`separate_written`). Fitted with `benchmarks/handwriting.py`.
PEN_GIVEN_DOUBT = 0.95

#: A given farther than PRINT_APART print spreads from every other copy of its digit, with a print anchor, is
#: unlike the print however typical its height, place and strokes (`doubted_by_shape`) when the classifier
#: gives it less than SHAPE_DOUBT, its doubt (1 - P) is more than DOUBT_OVER_COPIES times its digit's other
#: copies' median doubt (one typeface's copies are read alike), and its pen score exceeds DOUBT_PEN_SCORE (the
#: shape alone, just past PRINT_APART, does not tell a hand). Where the classifier doubts most of the grid's
#: givens (their median P below SHAPE_DOUBT: small, blurred or unusual print, as on a page of answer keys),
#: its doubt must also be DOUBT_OVER_GRID times the grid's median doubt. Fitted with
#: `benchmarks/handwriting.py`, the labelled training photos and the answer keys of `snapsolve generate`.
SHAPE_DOUBT = 0.99
DOUBT_OVER_GRID = 3.0
DOUBT_OVER_COPIES = 1.0
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


#: A doubted given (PEN_GIVEN_DOUBT) is unlike the print when its pen score exceeds DOUBTED_PEN_SCORE, or
#: LONE_DOUBTED_PEN_SCORE when it is the only copy of its digit (its score has no shape term), though below
#: PEN_SCORE_SOLVED: doubt and looks together (`doubted_by_looks`). Fitted with `benchmarks/handwriting.py`.
DOUBTED_PEN_SCORE = 2.0
LONE_DOUBTED_PEN_SCORE = 1.0


def doubted_by_looks(
    givens: list[int],
    looks: MarkLooks,
    probabilities: np.ndarray | None,
    scores: dict[int, float] | None = None,
) -> list[int]:
    """Givens that the classifier doubts (P below PEN_GIVEN_DOUBT) and whose pen score (`pen_scores`)
    exceeds DOUBTED_PEN_SCORE (LONE_DOUBTED_PEN_SCORE for the only given of its digit), the highest score
    first: cells (0..80), none with fewer than MIN_POPULATION givens. The parameters are those of
    `doubted_by_shape`."""
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


#: A given whose pen score exceeds OWN_PEN_SCORE and whose nearest other printed copy of its digit lies more
#: than OWN_PEN_RATIO times as far as the player's nearest own copy of it (a mark outside the givens where the
#: solution has that digit), in the handwritten-digit model's space, is the player's
#: (`like_the_players_pen`): a typeface prints a digit alike, and a hand writes its own alike. Fitted with
#: `benchmarks/handwriting.py`.
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


#: A mark read as a printed digit with at least this probability, and like the print among the givens kept,
#: is print beyond doubt (`surely_print`): when putting it back leaves no solution, a given kept is wrong.
#: Fitted with `benchmarks/handwriting.py`.
SURE_PRINT = 0.98


def read_otherwise_by_hand(givens: list[int], probabilities: np.ndarray, looks: MarkLooks) -> list[int]:
    """Givens that may be a pen digit misread as print: read as print short of SURE_PRINT (`probabilities`,
    shape (81, 10), float, as for `choose_reading`) while the handwritten-digit model reads their mark as
    another digit (`MarkLooks.hand_digits`), the least probable print first; empty without that model.

    A neat pen digit with no other copy of its digit near it can score too
    little to be taken for pen (`pen_scores`); when the givens kept then have
    no solution, or one only by dropping it, it is what is wrong. The hand's
    reading alone is no sign of pen (it reads a fourth of printed givens as
    another digit), so these are tried only where the rules that go by
    likeness to the print give up (`decide_givens`)."""
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
