"""Consistency repair: the most probable reading of a grid that is a proper puzzle.

A classifier alone turns one misread digit into "no solution". Knowing the
rules does better: when the most probable reading breaks a rule or has no or
several solutions, readings are tried in order of decreasing probability
(changing up to MAX_CHANGES cells to their next most probable class: another
printed digit, or no printed digit at all, which for a puzzle in progress
means a handwritten digit, candidates or nothing) until one has exactly one
solution. A reading is reported as ``unsure`` instead of solved when it needed
unlikely changes, or when a nearly-as-probable reading also has exactly one
solution *and a different one*: then the photo does not say which puzzle it
shows, and a wrong solution must not be presented as right. (On a puzzle in
progress, a correct handwritten digit taken for a given, or the other way
round, leaves the solution as it is: that doubt does not make the answer
unsure.)
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from .solver import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, InvalidPuzzleError, Status
from .solver.exact import SearchResult, solve_unique
from .solver.grid import cell_name, check_givens, repeated_cells
from .solver.position import UnclearEntry

if TYPE_CHECKING:
    from .vision.digits import EntryEvidence, SecondLook

#: Most cells changed from their most probable class.
MAX_CHANGES = 3
#: Most readings handed to the exact search during one repair.
MAX_SEARCHES = 60
#: Alternatives less probable than this are not tried.
MIN_ALTERNATIVE_PROBABILITY = 0.005
#: A repair whose changes are jointly this much less probable than the
#: reading they replace is unsure (log of the probability ratio).
MAX_REPAIR_COST = math.log(40.0)
#: A second uniquely solvable reading within this factor of the best one makes
#: the grid ambiguous (log of the probability ratio).
AMBIGUITY_COST = math.log(8.0)

UNSURE = Status.UNSURE


@dataclass
class Decision:
    """The printed puzzle chosen for a grid and how sure it is.

    Attributes
    ----------
    givens : list of int
        81 values, 0 for no printed digit: the reading chosen (or the most
        probable one when none has exactly one solution).
    status : Status
        ``solved`` (exactly one solution: `count` holds it), ``unsure``,
        ``no_solution`` or ``multiple_solutions``.
    count : SearchResult or None
        the exact search's count for `givens` when it has exactly one solution.
    changes : list of (int, int, int)
        (cell, digit read, digit used) for every repaired cell, 0 for no printed digit.
    warning : str or None
        One line for a person when the reading was repaired or is unsure.
    log_probability : float
        Natural log of the classifier's probability of `givens`: the sum over
        cells of the log probability of the state chosen there (no printed
        digit, or printed d), leaving out the cells of `written`, which the
        per-grid decision took for pen against the classifier (what the
        classifier says of them is what was overruled). 0 when unknown.
    written : list of int
        Cells read as printed that `separate_written` took for the player's
        pen (unlike the grid's print); their digits are the solution's.
    """

    givens: list[int]
    status: Status
    count: SearchResult | None = None
    changes: list[tuple[int, int, int]] = field(default_factory=list)
    warning: str | None = None
    log_probability: float = 0.0
    written: list[int] = field(default_factory=list)

    @property
    def dropped_print(self) -> bool:
        """Whether the repair took a mark read as a printed digit for no printed digit (a change to 0)."""
        return any(used == 0 for _, _, used in self.changes)

    @property
    def confidence(self) -> float:
        """Calibrated probability that every given is right (see `calibrated_confidence`)."""
        return calibrated_confidence(self.log_probability, self.status)

    @property
    def solution(self) -> list[int] | None:
        """The unique solution (81 values) when solved, else None."""
        return self.count.solution if self.status == SOLVED and self.count else None


#: Platt scaling of a decision's log probability into the probability that
#: every given is right: P = 1 / (1 + exp(-(CONFIDENCE_INTERCEPT +
#: CONFIDENCE_SLOPE * log_probability))), fitted by ``python
#: benchmarks/calibration.py --fit --per-level 15`` on synthetic photos of
#: development seeds, printed and started or finished in pen (never on the
#: photos its reliability table reports); see `docs/confidence.md`.
CONFIDENCE_INTERCEPT = 4.033
CONFIDENCE_SLOPE = 0.1599
#: The same for a grid whose reading is unsure or has no single solution (the log odds lowered by this).
CONFIDENCE_NOT_SOLVED = 3.683


def calibrated_confidence(log_probability: float, status: str) -> float:
    """Probability that every given of a reading is right, from its log probability (Platt scaling).

    Parameters
    ----------
    log_probability : float
        `Decision.log_probability` (natural log, <= 0).
    status : str
        The decision's status; a reading that is not ``solved`` has its odds
        lowered by CONFIDENCE_NOT_SOLVED.

    Returns
    -------
    float
        In (0, 1).
    """
    logit = CONFIDENCE_INTERCEPT + CONFIDENCE_SLOPE * log_probability
    if status != SOLVED:
        logit -= CONFIDENCE_NOT_SOLVED
    return float(1.0 / (1.0 + math.exp(-max(min(logit, 50.0), -50.0))))


def _log_probability(probabilities: np.ndarray, givens: list[int], written: Iterable[int] = ()) -> float:
    """Sum over cells of the log probability of each cell's state in `givens` ((81, 10) probabilities),
    the cells of `written` without a given (taken for pen: `Decision.log_probability`) left out."""
    chosen = np.log(np.maximum(probabilities[np.arange(81), np.asarray(givens)], 1e-12))
    chosen[[c for c in written if not givens[c]]] = 0.0
    return float(chosen.sum())


def _alternatives(probabilities: np.ndarray) -> list[tuple[float, int, int]]:
    """(cost, cell, class) for every plausible other class of every cell, cheapest first."""
    best = probabilities.argmax(axis=1)
    out = []
    for cell in range(81):
        p_best = probabilities[cell, best[cell]]
        others = [int(c) for c in np.argsort(-probabilities[cell], kind="stable") if c != best[cell]]
        for cls in others[:2]:
            p = probabilities[cell, cls]
            if p >= MIN_ALTERNATIVE_PROBABILITY:
                out.append((math.log(p_best / p), cell, int(cls)))
    out.sort()
    return out


def _readings_by_cost(options: list[tuple[float, int, int]]):
    """Subsets of `options` (at most MAX_CHANGES, one per cell) in order of total cost."""
    if not options:
        return
    heap: list[tuple[float, tuple[int, ...]]] = [(options[0][0], (0,))]
    while heap:
        cost, chosen = heapq.heappop(heap)
        cells = [options[i][1] for i in chosen]
        if len(set(cells)) == len(cells):
            yield cost, chosen
        last = chosen[-1]
        if last + 1 < len(options):
            if len(chosen) < MAX_CHANGES:
                heapq.heappush(heap, (cost + options[last + 1][0], chosen + (last + 1,)))
            heapq.heappush(heap, (cost - options[last][0] + options[last + 1][0], chosen[:-1] + (last + 1,)))


def _describe(changes) -> str:
    def name(d):
        return f"printed {d}" if d else "no printed digit"

    return ", ".join(f"r{c // 9 + 1}c{c % 9 + 1} read as {name(a)}, taken as {name(b)}" for c, a, b in changes)


def choose_reading(probabilities: np.ndarray, search: str = "bitmask") -> Decision:
    """The most probable reading with exactly one solution, or an honest failure.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 10), float: per cell, probability of no printed digit
        (column 0) and of printed digits 1..9.
    search : str
        The exact search's engine (``"bitmask"`` or ``"dlx"``, see `solver.exact.search_engine`).

    Returns
    -------
    Decision
        Status ``solved`` (possibly repaired, with a warning), ``unsure``,
        ``no_solution`` or ``multiple_solutions`` (the most probable reading's
        own status when no repair was found).
    """
    best = [int(v) for v in probabilities.argmax(axis=1)]
    options = _alternatives(probabilities)
    first = solve_unique(best, search=search)  # conflicting givens count as no solution
    searches = 1
    found: list[tuple[float, tuple[int, ...], SearchResult]] = []
    if first.status == SOLVED:
        found.append((0.0, (), first))
    for cost, chosen in _readings_by_cost(options):
        if cost > MAX_REPAIR_COST + AMBIGUITY_COST or searches >= MAX_SEARCHES:
            break
        if found and cost > found[0][0] + AMBIGUITY_COST:
            break
        reading = list(best)
        for i in chosen:
            reading[options[i][1]] = options[i][2]
        if _breaks_rules(reading):
            continue  # cheap to rule out, and not worth a search
        searches += 1
        count = solve_unique(reading, search=search)
        if count.status == SOLVED:
            if found and count.solution == found[0][2].solution:
                continue  # same answer: a given read as an entry (or back) changes nothing
            found.append((cost, chosen, count))
            if len(found) == 2:
                break
    if not found:
        return Decision(best, first.status, log_probability=_log_probability(probabilities, best))
    cost, chosen, count = found[0]
    givens = list(best)
    changes = []
    for i in chosen:
        _, cell, cls = options[i]
        changes.append((cell, best[cell], cls))
        givens[cell] = cls
    if len(found) > 1 or cost > MAX_REPAIR_COST:
        why = "another reading fits as well" if len(found) > 1 else "the repair needs unlikely changes"
        detail = f" ({_describe(changes)})" if changes else ""
        return Decision(
            givens,
            UNSURE,
            None,
            changes,
            f"unsure of the digits read: {why}{detail}",
            _log_probability(probabilities, givens),
        )
    warning = f"repaired the reading: {_describe(changes)}" if changes else None
    return Decision(givens, SOLVED, count, changes, warning, _log_probability(probabilities, givens))


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
#: When taking the unlike givens out still leaves no solution (a pen digit
#: misread, or one that scores just below PEN_SCORE), they are measured again
#: against the marks left, in up to SEPARATION_ROUNDS rounds; then the next
#: most unlike givens are taken out one by one, at most this many more, while
#: the reading has no solution or one only by a dear repair (unsure). Taking
#: out also under any dear repair, not only one that takes a mark read as print
#: out, and the rounds: on photos 0-479 of `benchmarks/handwriting.py --seed
#: 24 --extra-givens 0` (tuning) the photos with every printed given right
#: went from 438 to 445 and those without a solution from 16 to 7, at 10 extra
#: givens (photos 0-239) from 228 to 230; no labelled training photo changed.
MAX_EXTRA_UNLIKE = 8


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


def _colour_outliers(cells: list[int], inks: np.ndarray | None, ruling: np.ndarray | None) -> dict[int, float]:
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
    return [c for c, unlike in _by_unlikeness(givens, looks, threshold, scores) if unlike]


def _by_unlikeness(
    givens: list[int], looks: MarkLooks, threshold: float, scores: dict[int, float] | None = None
) -> list[tuple[int, bool]]:
    """Every given, the most unlike the print first, each with whether it is unlike (above `threshold`);
    `scores` are ``pen_scores(givens, looks)`` when the caller has them."""
    cells = [c for c in range(81) if givens[c]]
    if len(cells) < MIN_POPULATION:
        return []
    by_colour = _colour_outliers(cells, looks.inks, looks.ruling)
    if scores is None:
        scores = pen_scores(givens, looks)
    first = sorted(by_colour, key=by_colour.__getitem__, reverse=True)
    rest = sorted((c for c in cells if c not in by_colour), key=lambda c: scores.get(c, 0.0), reverse=True)
    return [(c, True) for c in first] + [(c, scores.get(c, 0.0) > threshold) for c in rest]


#: Of copies of one digit far apart from one another (`lone_far_copies`), one
#: the puzzle does not need is pen only when its pen score exceeds those of
#: the copies it needs by at least this. On the training photos (60
#: in-progress, 126 printed; not validation) the rule without it moved two
#: printed givens, 0.2 and 0.4 above their needed copy; on the first 60
#: photos of `benchmarks/handwriting.py --seed 24` it moved five pen digits,
#: 1.6 to 2.8 above. When the puzzle needs none of the copies, the copy with
#: the lowest pen score stands for the print: on the tuning photos 0-239 of
#: that seed (10 extra givens) the photos with every printed given right went
#: from 230 to 234 of 240 (0 extra, photos 0-479: 445, unchanged), and no
#: labelled training photo changed.
LONE_COPY_MARGIN = 1.0
#: Rounds of `separate_written`: the pen moved in one round leaves the grid's
#: print a cleaner reference (its median height and place, its shapes' spread)
#: for the next, so pen that scored just below PEN_SCORE_SOLVED among many
#: other pen digits stands out once they are out.
SEPARATION_ROUNDS = 3


def separate_written(
    decision: Decision, looks: MarkLooks, search: str = "bitmask", probabilities: np.ndarray | None = None
) -> Decision:
    """Take givens that do not look like the grid's own print for the player's entries.

    A printed digit is decided per grid, not cell by cell alone: a given
    unlike the grid's print (`unlike_the_print` with PEN_SCORE_SOLVED: another
    ink colour, or height, place, shape, faintness and stroke width together
    far from the grid's givens), far by shape from its digit's print and doubted by
    the classifier (`doubted_by_shape`), or doubted by the classifier and
    plainly unlike the print (`doubted_by_looks`), is pen, not print,
    provided the givens without it (and the marks already moved) still have
    exactly one solution, the same one. The marks are tried one at a time, the
    most unlike first, in up to SEPARATION_ROUNDS rounds (each measured
    against the givens left). Then, of copies of one digit that all lie far
    from one another (`lone_far_copies`: the shapes say one is not print, not
    which), those the puzzle does not need are pen when they score plainly
    more unlike the print (LONE_COPY_MARGIN) than those it needs or, when it
    needs none, than the copy most like the print. Then a given nearer the
    player's own writing of its digit than the grid's print of it
    (`like_the_players_pen`) is pen, when the puzzle does not need it. Last, each mark out of
    the givens is measured again against the print left once the pen is out
    (`_like_the_print_left`): one read as print that agrees with the solution
    and now looks like the print goes back among the givens; then the
    rounds run once more, that mark staying, so pen the puzzle needed only
    while it was out goes too (photo 111 of `benchmarks/handwriting.py
    --seed 24 --extra-givens 0`: a print 7 taken out first, beside two
    alike pen 7s, had kept two right pen digits as givens).
    So a neat handwritten digit that the cell classifier took for print is
    checked as an entry instead of being trusted as a given; a mark the puzzle
    needs stays a given. Where some marks were taken for pen, a given the
    puzzle needs that still looks unlike the print, or that the classifier
    doubts (PEN_GIVEN_DOUBT), and that the handwritten-digit model reads as
    another digit makes the decision unsure: it may be pen misread as print,
    and another puzzle.

    Parameters
    ----------
    decision : Decision
        A solved decision of `choose_reading`.
    looks : MarkLooks
        How the upright cells' marks look.
    search : str
        The exact search's engine (``"bitmask"`` or ``"dlx"``, see `solver.exact.search_engine`).
    probabilities : np.ndarray, optional
        Shape (81, 10), float: the classifier's probabilities the decision
        was chosen from; with them a given the shapes put far from its
        digit's print and the classifier doubts is unlike the print too
        (`doubted_by_shape`).

    Returns
    -------
    Decision
        `decision` itself when nothing moves; else a copy whose ``givens``
        lack the moved cells and whose ``written`` lists them (with those
        `decision` already listed); UNSURE, without a solution, when a given
        kept may be pen misread as print (above).
    """
    if decision.status != SOLVED:
        return decision
    givens = list(decision.givens)
    moved: list[int] = []
    result = _take_out_unlike(givens, moved, looks, probabilities, decision, search, decision.count)
    # Copies of one digit far apart from one another: the puzzle tells which is print. Those it does not need
    # are pen if they are also plainly more unlike the print than those it needs (or, when it needs none,
    # than the copy most like the print).
    scores = pen_scores(givens, looks)
    for copies in lone_far_copies(givens, looks):
        needed = [c for c in copies if _solved_without(givens, c, decision.solution, search) is None]
        if not needed:  # the copy most like the print stands for it
            needed = [min(copies, key=lambda c: scores.get(c, 0.0))]
        least = max(scores.get(c, 0.0) for c in needed) + LONE_COPY_MARGIN
        for cell in copies:
            if cell in needed or scores.get(cell, 0.0) < least:
                continue
            count = _moved_if_not_needed(givens, moved, cell, decision.solution, search)
            result = count if count is not None else result
    # A given nearer the player's own writing of its digit than the grid's print of it, that the puzzle does
    # not need, is the player's.
    for cell in like_the_players_pen(givens, looks, decision.solution):
        count = _moved_if_not_needed(givens, moved, cell, decision.solution, search)
        result = count if count is not None else result
    # Measured against the print left once the pen is out, a mark taken out while pen among the givens
    # skewed the grid's print (its median height, place, stroke) may look like the print after all.
    out = sorted(set(decision.written) | set(moved))
    returned = _like_the_print_left(givens, out, decision.solution, looks, probabilities)
    for cell, digit in returned:
        givens[cell] = digit
    if returned:
        # print taken out before the pen that made it look unlike is back: pen the puzzle needed only while
        # that print was out may now go (the print put back stays)
        kept = {cell for cell, _ in returned}
        result = _take_out_unlike(givens, moved, looks, probabilities, decision, search, result, kept)
    moved = [c for c in moved if not givens[c]]
    written = sorted(c for c in set(out) | set(moved) if not givens[c])
    # Where pen of this grid was read as print (some was taken out), givens that may be pen too are asked
    # about: those still unlike the print (the puzzle needs them) and those needed that the classifier
    # doubts (PEN_GIVEN_DOUBT). One that the handwritten-digit model reads as another digit may be a pen
    # digit misread as print, which can make another puzzle.
    suspects: list[int] = []
    if written:
        suspects = unlike_the_print(givens, looks, PEN_SCORE_SOLVED)
        suspects += [c for c in doubted_by_shape(givens, looks, probabilities) if c not in suspects]
        if probabilities is not None:
            suspects += [
                c
                for c in range(81)
                if givens[c]
                and c not in suspects
                and probabilities[c, givens[c]] < PEN_GIVEN_DOUBT
                and _solved_without(givens, c, decision.solution, search) is None
            ]
    doubt = _pen_kept_as_print(givens, _hand_readings(suspects, looks))
    log_probability = (
        decision.log_probability if probabilities is None else _log_probability(probabilities, givens, written)
    )
    if doubt:
        detail = ", ".join(f"{cell_name(c)} read as printed {givens[c]}, by hand {d}" for c, d in doubt)
        warning = f"unsure of the digits read: marks that look written by hand are needed as givens ({detail})"
        return Decision(givens, UNSURE, None, decision.changes, warning, log_probability, written)
    if not moved and not returned:
        return decision
    return Decision(givens, SOLVED, result, decision.changes, decision.warning, log_probability, written)


def _take_out_unlike(
    givens: list[int],
    moved: list[int],
    looks: MarkLooks,
    probabilities: np.ndarray | None,
    decision: Decision,
    search: str,
    result: SearchResult | None,
    kept: set[int] | frozenset[int] = frozenset(),
) -> SearchResult | None:
    """`separate_written`'s rounds: the givens that may be pen (`_may_be_pen` at PEN_SCORE_SOLVED), the most
    unlike first, each taken out of `givens` (changed in place; appended to `moved`) when the puzzle without
    it still has exactly one solution, `decision`'s; up to SEPARATION_ROUNDS rounds, each measured against
    the givens left. Cells of `kept` stay. Returns the exact search's count of the last taken out, or
    `result` (the count so far) when none was."""
    for _ in range(SEPARATION_ROUNDS):
        moved_now = 0
        for cell in _may_be_pen(givens, looks, probabilities, PEN_SCORE_SOLVED):  # the givens left this round
            if cell in kept:
                continue
            count = _moved_if_not_needed(givens, moved, cell, decision.solution, search)
            if count is not None:
                moved_now += 1
                result = count
        if not moved_now:
            break
    return result


def _may_be_pen(
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


#: A mark out of the givens goes back (`_like_the_print_left`) when the printed-digit model reads it as the
#: solution's digit with at least PUT_BACK_PRINT and, among the givens left, it may not be pen at a pen score
#: of PUT_BACK_SCORE (`_may_be_pen`: its ink is the print's, and neither shape test doubts it). On photos
#: 0-119 of `benchmarks/handwriting.py --seed 24` (tuning), at 10 and at 0 extra givens, the marks out that read as
#: the solution's digit were 3 printed givens, scoring 0.70-0.89 against the print left, and 2,113 pen
#: digits, of which those of the print's ink scored 1.41 or more.
PUT_BACK_SCORE = 1.0
PUT_BACK_PRINT = 0.9


def _like_the_print_left(
    givens: list[int],
    out: list[int],
    solution: list[int] | None,
    looks: MarkLooks,
    probabilities: np.ndarray | None,
) -> list[tuple[int, int]]:
    """(cell, digit) of the marks out of the givens (`out`) that look like the print of `givens` after all.

    Each is measured alone against `givens` (the print left once the pen is
    out): read as the solution's digit by the printed-digit model with at
    least PUT_BACK_PRINT, given a pen score (`pen_scores`: the grid has a
    print population), and not among the givens that may be pen at a pen
    score of PUT_BACK_SCORE (`_may_be_pen`). A mark that agrees with the
    solution changes neither the solution nor its uniqueness when it goes back.
    Empty without `probabilities` or a solution.
    """
    if probabilities is None or solution is None:
        return []
    back = []
    for cell in out:
        digit = int(np.argmax(probabilities[cell]))
        if digit == 0 or digit != solution[cell] or probabilities[cell, digit] < PUT_BACK_PRINT:
            continue
        with_it = list(givens)
        with_it[cell] = digit
        scores = pen_scores(with_it, looks)
        if cell in scores and cell not in _may_be_pen(with_it, looks, probabilities, PUT_BACK_SCORE, scores):
            back.append((cell, digit))
    return back


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


def _moved_if_not_needed(
    givens: list[int], moved: list[int], cell: int, solution: list[int] | None, search: str
) -> SearchResult | None:
    """Take `cell` out of `givens` (changed in place; appended to `moved`) when the puzzle without it still
    has exactly one solution, `solution` (`_solved_without`): the exact search's count then, else None
    and nothing changed."""
    count = _solved_without(givens, cell, solution, search)
    if count is not None:
        givens[cell] = 0
        moved.append(cell)
    return count


def _solved_without(givens: list[int], cell: int, solution: list[int] | None, search: str) -> SearchResult | None:
    """The exact search's count of `givens` without `cell` when it still has exactly one solution,
    `solution`; else None."""
    count = solve_unique([0 if c == cell else d for c, d in enumerate(givens)], search=search)
    return count if count.status == SOLVED and count.solution == solution else None


def decide_givens(probabilities: np.ndarray, looks: MarkLooks, search: str = "bitmask") -> Decision:
    """The printed puzzle of a grid: `choose_reading`, then the marks unlike the grid's print taken for pen.

    When the most probable reading has one solution, `separate_written` moves
    the givens unlike the print that the puzzle does not need. When it has
    none (or several, or is unsure), the pen that the cell classifier took for
    print may be the cause (a wrong entry contradicts the givens; many right
    ones leave a repair too dear): the marks of the most probable reading
    unlike the print (`unlike_the_print`, also those a repair would take out)
    are taken out and the reading chosen again; if that has one solution,
    they are the player's entries (``written``). When it still has none, the
    marks left are measured again without them (a cleaner print population;
    up to SEPARATION_ROUNDS rounds) and those now unlike taken out too. When it
    still has none, or one only by a dear repair (unsure: a pen digit
    misread, or one scoring just below PEN_SCORE), the next most unlike
    givens are taken out one at a time (at most MAX_EXTRA_UNLIKE), a mark
    whose digit the dear repair changed first unless it is print beyond
    doubt (SURE_PRINT: a pen digit misread as print that repeats it in its
    house is then the odd one) or more like the print (pen score) than the
    next most unlike given; else, when the givens kept repeat a digit in a
    house, the most unlike of the marks that repeat one
    (`_most_unlike_repeat`: one of each such pair is not print). When it
    has several, is unsure, or has one only by taking marks read as no
    printed digit for givens (the repair putting pen in place of print taken
    out), those the puzzle needs are put back one at a time: first those the
    handwritten-digit model reads as the same digit, the least unlike first,
    then the others; when one surely printed (SURE_PRINT) cannot go back
    without leaving no solution, the givens kept are taken out instead, one
    at a time, the most unlike the print first, until one solution is left,
    or any solution for a given unlike the print, as marks still out may go
    back (`_without_a_kept_given`: a pen digit that scored too little to be taken
    out with the rest contradicts it; after the most unlike, a given read as
    print short of SURE_PRINT that the handwritten-digit model reads as
    another digit, `_read_otherwise_by_hand`); when a mark not surely
    printed, that the handwritten-digit model reads as its printed digit,
    cannot go back without leaving no solution, such a kept given is taken out
    instead (`_without_a_misread_given`); when one leaves one solution
    only by a dear repair of a kept mark (unsure), the marks that repair
    changed are taken out instead, if they are the most unlike the print of
    the marks kept (or may be pen misread as print, as above) and that leaves
    one solution with no repair (`_without_changed`: a wrong pen digit like
    the print, which the mark put back contradicts).
    Else the first decision stands. A given kept that was taken out as
    unlike the print and put back, and that the
    handwritten-digit model reads as another digit (`MarkLooks.hand_digits`),
    makes the reading unsure: a pen digit misread as print may then have made
    another puzzle. So does a mark read as print beyond doubt (SURE_PRINT)
    whose putting back left no solution: a given kept is then wrong. It counts
    as print beyond doubt when it was refused (measured against the givens
    kept then) or against the givens kept at the end, as pen put back later
    can make print look unlike the rest. Of the
    marks still out once the reading has one solution (the puzzle did not
    need them), those read as print beyond doubt and agreeing with the
    solution go back among the givens; one read as print beyond doubt that
    disagrees with the solution, but repeats no given kept in its row,
    column or box, makes the reading unsure (a repair that
    changed a sure reading, or a pen digit kept as a given, made another
    puzzle: photo 61 of `benchmarks/handwriting.py --seed 99`, photo 417 of
    ``--seed 24 --extra-givens 0``).
    The log probability stays that of the classifier's own probabilities, so
    the confidence counts every mark taken out against the reading.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 10), float: as for `choose_reading`.
    looks : MarkLooks
        How the upright cells' marks look; what is not measured (None) does not count.
    search : str
        The exact search's engine.

    Returns
    -------
    Decision
    """

    decision = choose_reading(probabilities, search=search)
    if decision.status == SOLVED:
        return separate_written(decision, looks, search, probabilities)
    # every mark read as print, also those a repair took out (a wrong pen digit that the givens contradict)
    most_probable = [int(v) for v in np.asarray(probabilities).argmax(axis=1)]
    ranked = _by_unlikeness(most_probable, looks, PEN_SCORE)
    odd = [cell for cell, unlike in ranked if unlike]
    if not odd:
        return decision
    without = np.array(probabilities, np.float64)
    _read_as_empty(without, odd)
    second = choose_reading(without, search=search)
    # Still no solution: measured against the marks left (a cleaner print population), more may be unlike.
    for _ in range(SEPARATION_ROUNDS - 1):
        if second.status != NO_SOLUTION:
            break
        left = [0 if c in odd else d for c, d in enumerate(most_probable)]
        remeasured = _by_unlikeness(left, looks, PEN_SCORE)
        more = [cell for cell, unlike in remeasured if unlike]
        if not more:
            break
        ranked = remeasured  # the marks left, the most unlike first
        odd += more
        _read_as_empty(without, more)
        second = choose_reading(without, search=search)
    # Still no solution, or one only by a dear repair (unsure): take out the next most unlike givens, one at
    # a time; first a mark whose digit the dear repair changed (a pen digit misread as print that contradicts
    # the rest is taken out rather than changed), unless it is print beyond doubt (SURE_PRINT): then a kept
    # pen digit misread as print is more likely what it contradicts; nor one more like the print than the next
    # most unlike given (a dear repair that drops a print-like 1 beside a wrong pen 4 kept: photo 91 of
    # `benchmarks/handwriting.py --seed 419 --extra-givens 0`, solved wrong when the 1 went first). Else a
    # mark that repeats a digit of its house, the most unlike first: photo 36 of `--seed 9701 --extra-givens 0`
    # kept a pen 4 read as a 9 beside a pen 9 while print went out, and ended with no solution.
    extra = [cell for cell, unlike in ranked if not unlike]
    for _ in range(MAX_EXTRA_UNLIKE):
        if second.status != NO_SOLUTION and not (second.status == UNSURE and second.changes):
            break
        kept = [0 if c in odd else d for c, d in enumerate(most_probable)]
        following = next((c for c in extra if c not in odd), -1)
        changed = [
            c
            for c, read, _ in second.changes
            if read and c not in odd and not _surely_print(c, read, kept, probabilities, looks)
        ]
        if changed and following >= 0:
            scores = pen_scores(kept, looks)
            changed = [c for c in changed if scores.get(c, 0.0) >= scores.get(following, 0.0)]
        cell = changed[0] if changed else _most_unlike_repeat(kept, looks, following)
        if cell < 0:
            break
        _read_as_empty(without, cell)
        odd.append(cell)
        second = choose_reading(without, search=search)
    by_hand = _hand_readings(odd, looks)  # every mark taken out, read once
    # Several solutions, an unsure reading, or one solution only by taking marks read as no printed digit for
    # givens: a given the puzzle needs was among them. Put them back (`_put_back_order`), keeping each that
    # does not leave the reading without a solution, until one solution is left without such additions.
    refused: list[int] = []
    refused_sure: list[int] = []  # refused while print beyond doubt against the givens kept then (the pen out)
    for cell in _put_back_order(odd, most_probable, by_hand, looks):
        if second.status == NO_SOLUTION or (second.status == SOLVED and not _adds_givens(second)):
            break
        without[cell] = probabilities[cell]
        again = choose_reading(without, search=search)
        surely = again.status == NO_SOLUTION and _surely_print(
            cell, most_probable[cell], second.givens, probabilities, looks
        )
        if surely:
            # print beyond doubt contradicts the givens kept: one of them may be pen; the most unlike out instead
            again, instead = _without_a_kept_given(without, second.givens, cell, looks, search, again)
            odd += instead
        elif again.status == NO_SOLUTION and by_hand.get(cell, most_probable[cell]) == most_probable[cell]:
            # a mark the hand reads as its printed digit contradicts the givens kept: a kept given that may be
            # pen misread as print out instead (photo 24 of `benchmarks/handwriting.py --seed 8003`)
            again, instead = _without_a_misread_given(without, second.givens, cell, looks, search, again)
            odd += instead
        elif again.status == UNSURE and again.changes:
            # one solution only by a dear repair of a kept mark (a wrong pen digit that the mark put back
            # contradicts): that mark out instead of changed
            again, instead = _without_changed(without, cell, search, again, looks)
            odd += instead
        if again.status == NO_SOLUTION:
            _read_as_empty(without, cell)
            refused.append(cell)
            if surely:
                refused_sure.append(cell)
        else:
            second = again
            odd = [c for c in odd if c != cell]
    if second.status != SOLVED:
        return decision
    log_probability = _log_probability(probabilities, second.givens, odd)
    doubt = _pen_kept_as_print(second.givens, by_hand)
    if doubt:
        # a mark unlike the print, kept as a given that the hand reads otherwise: the puzzle may be another
        detail = ", ".join(f"{cell_name(c)} read as printed {second.givens[c]}, by hand {d}" for c, d in doubt)
        warning = f"unsure of the digits read: marks that look written by hand are needed as givens ({detail})"
        return Decision(second.givens, UNSURE, None, second.changes, warning, log_probability, sorted(odd))
    # print beyond doubt when it was refused, or against the givens kept at the end: measured again among givens
    # that now hold pen put back, a printed digit can look unlike the print (photo 113 of
    # `benchmarks/handwriting.py --seed 9601 --extra-givens 0`: a printed 3 refused beside a wrong pen 3 taken
    # for print, and five more pen digits kept as givens, made another puzzle, solved wrong)
    sure = [
        c
        for c in refused
        if c in refused_sure or _surely_print(c, most_probable[c], second.givens, probabilities, looks)
    ]
    if sure:
        # a mark read as print beyond doubt contradicts the givens kept: one of those is a pen digit
        detail = ", ".join(f"{cell_name(c)} read as printed {most_probable[c]}" for c in sure)
        warning = f"unsure of the digits read: marks surely printed contradict the other givens ({detail})"
        return Decision(second.givens, UNSURE, None, second.changes, warning, log_probability, sorted(odd))
    # Marks taken out that the puzzle does not need stayed out; those surely print that agree with the
    # solution go back (a newspaper puzzle has many givens it does not need).
    givens, solution = list(second.givens), second.solution
    if solution is not None:
        against = []
        for cell in odd:
            digit = most_probable[cell]
            if digit and _surely_print(cell, digit, givens, probabilities, looks):
                if digit == solution[cell]:
                    givens[cell] = digit
                elif not _breaks_rules([digit if c == cell else d for c, d in enumerate(givens)]):
                    against.append(cell)
        if against:
            # a mark surely printed, taken out, contradicts the solution but not the givens kept (a mark that
            # repeats a given of its row, column or box is the odd one): a given kept may be a pen digit, or
            # a repair may have changed a sure reading, and either can make another puzzle
            detail = ", ".join(f"{cell_name(c)} read as printed {most_probable[c]}" for c in against)
            warning = f"unsure of the digits read: marks surely printed contradict the solution ({detail})"
            return Decision(second.givens, UNSURE, None, second.changes, warning, log_probability, sorted(odd))
    odd = [c for c in odd if not givens[c]]
    log_probability = _log_probability(probabilities, givens, odd)
    again = Decision(givens, SOLVED, second.count, second.changes, second.warning, log_probability, sorted(odd))
    return separate_written(again, looks, search, probabilities)


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


def _read_as_empty(probabilities: np.ndarray, cells: int | list[int]) -> None:
    """Set the rows of `cells` in `probabilities` (shape (81, 10), float, changed in place) to a sure
    "no printed digit": the marks taken out of the givens."""
    probabilities[cells] = 0.0
    probabilities[cells, 0] = 1.0


def _without_a_kept_given(
    without: np.ndarray, givens: list[int], cell: int, looks: MarkLooks, search: str, failed: Decision
) -> tuple[Decision, list[int]]:
    """A mark surely print (`cell`, put back into `without`) left no solution (`failed`) with the `givens`
    kept: take out the kept givens one at a time, the most unlike the print first (at most
    MAX_EXTRA_UNLIKE), until one solution is left, or, for a given unlike the print (pen score above
    PEN_SCORE, or an ink outlier: `_by_unlikeness`), until the reading has a solution (several while
    other marks are still out and may go back); then those that may be pen misread as print
    (`_read_otherwise_by_hand`), until the reading has a solution (one, or several while other marks are
    still out). Returns that decision and the cell taken out (`without` then marks it empty), or `failed`
    and no cell (`without` as it came)."""
    kept = list(givens)
    kept[cell] = int(np.argmax(without[cell]))
    tried = [(c, unlike) for c, unlike in _by_unlikeness(kept, looks, PEN_SCORE) if c != cell][:MAX_EXTRA_UNLIKE]
    for other, unlike in tried:
        # a given unlike the print against the givens kept (it looked like the rest among the first
        # reading's, much pen among them) goes out when the print contradicts it, though print still out
        # must then go back (photo 75 of `benchmarks/handwriting.py --seed 9905 --extra-givens 0`: a wrong
        # pen 1 scoring 3.3 kept, a printed 5 refused, no solution); one like the print only when that
        # leaves one solution
        trial = _chosen_without(without, [other], search, repaired=True, several=unlike)
        if trial is not None:
            return trial, [other]
    return _without_a_misread_given(without, givens, cell, looks, search, failed)


def _without_a_misread_given(
    without: np.ndarray,
    givens: list[int],
    cell: int,
    looks: MarkLooks,
    search: str,
    failed: Decision,
    repaired: bool = True,
    spare: list[int] | None = None,
    suspects: list[int] | None = None,
) -> tuple[Decision, list[int]]:
    """A mark (`cell`, put back into `without`, shape (81, 10)) left no solution, or one only by a dear
    repair (`failed`), with the `givens` kept (81 values): take out a kept given that may be pen misread as
    print (`_read_otherwise_by_hand`, or `suspects` when the caller has them already; not `cell` nor those
    of `spare`), the first whose taking out leaves the reading with solutions (`_chosen_without` with
    `several`: one, or several while other marks are still out and may go back; with `repaired` False, none
    by a repair). Returns that decision and the cell taken out (`without` then marks it empty), or `failed`
    and no cell (`without` as it came)."""
    if suspects is None:
        kept = list(givens)
        kept[cell] = int(np.argmax(without[cell]))
        suspects = _read_otherwise_by_hand(kept, without, looks)
    for other in suspects:
        if other == cell or other in (spare or ()):
            continue
        trial = _chosen_without(without, [other], search, repaired, several=True)
        if trial is not None:
            return trial, [other]
    return failed, []


def _chosen_without(
    without: np.ndarray, cells: list[int], search: str, repaired: bool, several: bool = False
) -> Decision | None:
    """`choose_reading` of `without` (shape (81, 10), changed in place) with the marks of `cells` read as no
    printed digit: the decision when it is solved (with a repair only when `repaired`) or, with `several`,
    when it has solutions at all (several, or with `repaired` any but none: marks still out may go back),
    `without` then keeping those cells empty; else None, `without` as it came."""
    saved = without[cells].copy()
    _read_as_empty(without, cells)
    trial = choose_reading(without, search=search)
    if trial.status == SOLVED and (repaired or not trial.changes):
        return trial
    if several and (trial.status == MULTIPLE_SOLUTIONS or (repaired and trial.status != NO_SOLUTION)):
        return trial
    without[cells] = saved
    return None


def _without_changed(
    without: np.ndarray, cell: int, search: str, unsure: Decision, looks: MarkLooks
) -> tuple[Decision, list[int]]:
    """The reading `without` (shape (81, 10); a mark, `cell`, just put back) has one solution only by a
    dear repair (`unsure`): take the kept marks whose digit that repair changed (not `cell`) out instead,
    as `decide_givens` does before putting back, when each is at least as unlike the print (`pen_scores`
    among the marks kept) as every other mark kept but `cell`, or when each may be pen misread as print
    (`_read_otherwise_by_hand`). Else a kept mark more like a pen digit, not the one changed, may be what
    is wrong: the first kept mark that may be pen misread as print whose taking out leaves the reading
    solved with no repair, or with several solutions (marks still out may go back), is taken out instead
    (photo 101 of `benchmarks/handwriting.py --seed 8001 --extra-givens 0`: a pen 9 read as a printed 1
    made the repair drop a printed 4 read at P 0.988, and the reading ended with no solution).

    Returns the decision and the cells taken out (`without` then marks them empty), else `unsure` and no
    cell (`without` as it came). The marks the repair changed, taken out instead, keep its solution: the puzzle
    without them has that solution among its own, and it has just one."""
    changed = [c for c, read, _ in unsure.changes if read and c != cell]
    if not changed:
        return unsure, []
    kept = [int(v) for v in np.asarray(without).argmax(axis=1)]
    scores = pen_scores(kept, looks)
    others = [scores.get(c, 0.0) for c in range(81) if kept[c] and c not in changed and c != cell]
    most_unlike = not others or min(scores.get(c, 0.0) for c in changed) >= max(others)
    suspects = [] if most_unlike else _read_otherwise_by_hand(kept, without, looks)
    if most_unlike or set(changed) <= set(suspects):
        again = _chosen_without(without, changed, search, repaired=False)
        return (unsure, []) if again is None else (again, changed)
    # the repair changes a mark that looks like print: a kept given that may be pen misread as print, and
    # that the mark contradicts, out instead (the reading then without repair; other marks may still go back)
    return _without_a_misread_given(
        without, kept, cell, looks, search, unsure, repaired=False, spare=changed, suspects=suspects
    )


def _read_otherwise_by_hand(givens: list[int], probabilities: np.ndarray, looks: MarkLooks) -> list[int]:
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
    by_hand = _hand_readings(doubtful, looks)
    return sorted(
        (c for c in doubtful if c in by_hand and by_hand[c] != givens[c]), key=lambda c: probabilities[c, givens[c]]
    )


def _surely_print(cell: int, digit: int, givens: list[int], probabilities: np.ndarray, looks: MarkLooks) -> bool:
    """Whether the mark of `cell`, read as printed `digit`, is print beyond doubt among `givens` (SURE_PRINT)."""
    if probabilities[cell, digit] < SURE_PRINT:
        return False
    with_it = list(givens)
    with_it[cell] = digit
    return cell not in unlike_the_print(with_it, looks)


def _hand_readings(cells: list[int], looks: MarkLooks) -> dict[int, int]:
    """Cell -> the handwritten-digit model's most probable digit (1..9) of its mark; empty without the model."""
    if not cells or looks.hand_digits is None:
        return {}
    return {c: int(d) for c, d in zip(cells, np.asarray(looks.hand_digits(cells)))}


def _put_back_order(odd: list[int], read: list[int], by_hand: dict[int, int], looks: MarkLooks) -> list[int]:
    """The taken-out marks `odd` (the most unlike first) in the order to put them back: those the
    handwritten-digit model reads (`by_hand`, from `_hand_readings`) as the digit read as print (`read`), or
    does not read, first, the least unlike first; then those it reads otherwise (a pen digit misread as
    print, whose digit would make another puzzle). How unlike is measured again for each mark alone against
    the marks left (`read` without `odd`), once the pen is out: the print population the marks were first
    measured against held the pen too, which can make print look unlike (a printed 9 whose column's other
    givens were pen, off their centre: photo 21 of `benchmarks/handwriting.py --seed 631 --extra-givens
    0`). An ink of another colour comes last, then the pen score; without a print population left (fewer
    than MIN_POPULATION givens) the first order stands."""
    left = [0 if c in odd else d for c, d in enumerate(read)]
    rank = {cell: index for index, cell in enumerate(reversed(odd))}
    unlike: dict[int, tuple[bool, float, int]] = {}
    for cell in odd:
        if not read[cell]:
            continue
        with_it = list(left)
        with_it[cell] = read[cell]
        cells = [c for c in range(81) if with_it[c]]
        scores = pen_scores(with_it, looks)
        if cell in scores:
            colour = cell in _colour_outliers(cells, looks.inks, looks.ruling)
            unlike[cell] = (colour, scores[cell], rank[cell])
    order = sorted(odd, key=lambda c: unlike.get(c, (True, math.inf, rank[c])))
    alike = [c for c in order if by_hand.get(c, read[c]) == read[c]]
    return alike + [c for c in order if c not in alike]


def _pen_kept_as_print(givens: list[int], by_hand: dict[int, int]) -> list[tuple[int, int]]:
    """(cell, digit by hand) of the marks read by hand (`by_hand`: those taken out as unlike the print, then
    put back) kept as givens whose handwritten reading is another digit. Only marks unlike the print are
    asked: on the printed-only training photos the handwritten-digit model reads 907 of 3,604 printed givens
    as another digit."""
    return [(c, d) for c, d in by_hand.items() if givens[c] and d != givens[c]]


def _adds_givens(decision: Decision) -> bool:
    """Whether the repair took a mark read as no printed digit for a given."""
    return any(read == 0 and used for _, read, used in decision.changes)


def _most_unlike_repeat(givens: list[int], looks: MarkLooks, following: int) -> int:
    """The given to take out next when the givens kept leave no solution: of those that repeat a digit in one
    of their houses (the reading breaks the rules, so one of each such pair is not print), the most unlike the
    print (pen score, measured against `givens`); `following` (the next most unlike given) when none."""
    repeats = repeated_cells(givens)
    if not repeats:
        return following
    scores = pen_scores(givens, looks)
    return max(repeats, key=lambda c: scores.get(c, 0.0))


def _breaks_rules(givens: list[int]) -> bool:
    try:
        check_givens(givens)
    except InvalidPuzzleError:
        return True
    return False


#: A handwritten digit that differs from the solution is called a mistake only
#: when its reading is certain: the cell's mark is handwritten with probability
#: at least MISTAKE_KIND, the handwritten-digit model gives the digit read at
#: least MISTAKE_VOTES, its nearest sample of the solution's digit lies at least
#: MISTAKE_MARGIN times as far as its nearest sample of the digit read, and the
#: printed-digit model (other training data, another view) reads the same digit
#: with probability at least MISTAKE_PRINTED and the solution's digit with at
#: most MISTAKE_PRINTED_SOLUTION, and the mark does not reach a
#: ruled line of its cell (`vision.cells.reaches_a_line`: a 2 written with its
#: base on the bottom line lost that stroke with the ruling and was read as a
#: sure 7, the one false mistake of photos 0-239 of `benchmarks/handwriting.py
#: --seed 24 --extra-givens 10`). Otherwise the entry is *unclear*:
#: a question for the player, never an accusation. Players mostly write the
#: right digit, so a reading that disagrees with the solution is more often a
#: misreading than a mistake, above all in a hand the model never saw. The
#: thresholds were chosen on handwriting faces rendered by the cell pipeline
#: and read by the model of the time, which had never seen them (20 faces,
#: 1,066 digits, 64% read right: no false mistake at these values, against 7
#: to 206 at looser ones); see `models/MODEL_CARD.md`. MISTAKE_MARGIN was 1.4:
#: on photos 0-479 of `benchmarks/handwriting.py --seed 24 --extra-givens 0`
#: (tuning) a right 6 written with a heavy, closed loop was called a mistake
#: (read as a sure 8, margin 1.44). At 1.5 the tuning photos (0-239 at 10
#: extra givens, 0-479 at 0) call 81 of their wrong entries mistakes instead
#: of 85 and no right one; the others are asked about. With the model of
#: 2026-11-27 afternoon (faces and digits drawn from allograph templates added,
#: see `models/MODEL_CARD.md`) the same 6 lay at 1.62 and MISTAKE_MARGIN went to
#: 1.65 (chosen on those tuning photos: 71 of their 81 wrong entries still
#: called mistakes). The printed-digit model must also rule the solution's
#: digit out (at most MISTAKE_PRINTED_SOLUTION): a right 7 whose bar was short
#: was read as a sure 1 by the handwritten model (margin 1.62) while the printed
#: model gave 7 a share of 0.20 (photo 60 of `--seed 57 --extra-givens 10`);
#: no wrong entry of the tuning photos gives the solution's digit over 0.014.
MISTAKE_KIND = 0.9
MISTAKE_VOTES = 0.9
MISTAKE_MARGIN = 1.65
MISTAKE_PRINTED = 0.5
MISTAKE_PRINTED_SOLUTION = 0.1
#: A mark whose most probable kind is pencilled candidates, but which is a
#: digit (printed or handwritten) with probability at least LONE_PENCIL_DIGIT,
#: is read as a pen entry when no mark of its grid is surely pencil
#: (candidates with probability at least SURE_PENCIL). By its layout alone a
#: small pen digit written in a cell's upper part looks like one pencilled
#: candidate; but players who pencil candidates pencil several cells: every
#: labelled pencil cell of the in-progress photos (training and validation)
#: lies in a grid with a mark read as candidates at 0.9 or more (with the
#: model of 2026-11-29 12 of those grids hold exactly one, the earlier model
#: read two or more in each).
#: Such an entry's kind is not certain (below MISTAKE_KIND), so it is never
#: called a mistake: it is right or a question. 0.3 at first (14 tuning
#: cells); 0.1 since `benchmarks/handwriting.py`'s pen-only photos showed pen
#: digits read as candidates at 0.72-0.84 and a digit at only 0.16-0.28 (thin
#: faces, small MNIST digits) left out as no entry at all, while no mark of
#: the 240 labelled photos lies between (in their grids without sure pencil
#: one mark is most probably candidates, a printed given, a digit at 0.66).
#: Below 0.1 a mark is all but certainly no digit.
LONE_PENCIL_DIGIT = 0.1
SURE_PENCIL = 0.9


#: Other digits offered for an unclear entry: the handwritten model gives them
#: at least this probability (the solution's digit is offered whenever the
#: reading does not rule it out).
ALTERNATIVE_PROBABILITY = 0.1
#: Most digits offered for an unclear entry, the one read included.
MAX_OFFERED = 3


#: How `read_entries` decides a doubted entry (`DoubtedEntry.decided_by`): read as the solution's digit by
#: the second look (`_looks_right`), by its likeness to the player's own copies (OWN_COPY_LIKE), or as the
#: least distorted digit (SECOND_LOOK_NEAREST); called a mistake; left a question (unclear); read as the
#: solution's digit in the second round for the questions left (`_second_round`); or, read for sure as another
#: digit, asked about because the printed reading was repaired (`read_entries`' `givens_doubted`).
DecidedBy = Literal[
    "second look", "own copy", "least distorted", "mistake", "question", "second round", "givens doubted"
]


@dataclass(frozen=True)
class DoubtedEntry:
    """An entry whose first reading differs from the solution's digit, with the measures `read_entries` judged
    it by and the rule that decided it: what `benchmarks/unclear_entries.py` records, without reaching into
    the rules themselves.

    Attributes
    ----------
    cell : int
        0..80, ``row * 9 + column``.
    read : int
        1..9, the handwritten-digit model's most probable digit (the first reading).
    solution : int
        1..9, the solution's digit.
    decided_by : str
        One of `DecidedBy`'s names.
    taken_out : bool
        The mark was read as print and the per-grid decision took it for pen (`read_entries`' `written`).
    first : tuple of float
        9 values: the first reading's P(digit 1..9 | handwritten).
    printed : tuple of float
        9 values: the printed-digit model's P(digit 1..9) (NaN when not asked; 0 when `read_entries` has
        no `evidence` and reads the cell probabilities alone).
    nearest : tuple of float
        9 values: the distance to the handwritten model's nearest sample of each digit, in its space (1
        when read from the cell probabilities alone).
    votes : tuple of float or None
        9 values: the second look's P(digit 1..9) (`vision.digits.SecondLook.votes`); None when the entry
        had no second look.
    ratio : float
        The second look's distortion ratio of the solution's digit (`SecondLook.ratio`); ``inf`` without.
    own_ratio : float
        The same against the player's own right copies (`SecondLook.own_ratio`); ``inf`` without.
    shape_own_ratio : float
        The own-copy ratio in the handwritten model's space (OWN_COPY_LIKE, OWN_COPY_MARGIN); ``inf``
        when not measured (no shapes, no own copy of the solution's digit, or a mark taken out).
    """

    cell: int
    read: int
    solution: int
    decided_by: DecidedBy
    taken_out: bool
    first: tuple[float, ...]
    printed: tuple[float, ...]
    nearest: tuple[float, ...]
    votes: tuple[float, ...] | None
    ratio: float
    own_ratio: float
    shape_own_ratio: float


def _doubted(
    evidence: EntryEvidence,
    row: int,
    cell: int,
    read: int,
    solution: int,
    decided_by: DecidedBy,
    second: dict[int, tuple[np.ndarray, float, float]],
    shape_own_ratio: float = math.inf,
    taken_out: bool = False,
) -> DoubtedEntry:
    """The `DoubtedEntry` of row `row` of `evidence` (cell `cell`), with the second look at it in `second`."""
    look = second.get(cell)

    def values(array: np.ndarray) -> tuple[float, ...]:
        return tuple(float(v) for v in np.asarray(array, np.float64))

    return DoubtedEntry(
        cell,
        read,
        solution,
        decided_by,
        taken_out,
        values(evidence.handwritten[row]),
        values(evidence.printed[row]),
        values(evidence.distances[row]),
        None if look is None else values(look[0]),
        math.inf if look is None else float(look[1]),
        math.inf if look is None else float(look[2]),
        float(shape_own_ratio),
    )


@dataclass
class EntryReading:
    """What the player wrote in a grid, as far as the reading can tell.

    Attributes
    ----------
    entries : list of int
        81 values: every handwritten digit as read (0 elsewhere), unclear ones included; an
        uncertain reading whose mark is like the player's own right copies of the solution's digit
        is read as that digit (OWN_COPY_LIKE).
    sure : list of int
        81 values: the entries whose reading is certain or agrees with the
        solution; unclear cells are 0. This is the player's position for
        mistakes, hints and explanations.
    pencil : list of int
        Cells holding pencilled candidates, ascending.
    unclear : list of UnclearEntry
        Entries that differ from the solution without a certain reading, in cell order.
    doubted : list of DoubtedEntry
        Every entry whose first reading differed from the solution's digit, with the measures it was
        judged by and the rule that decided it, in the order judged (empty without a solution).
    """

    entries: list[int]
    sure: list[int]
    pencil: list[int]
    unclear: list[UnclearEntry]
    doubted: list[DoubtedEntry] = field(default_factory=list)


def _certain(evidence: EntryEvidence, row: int, kind: float, read: int, solution: int) -> bool:
    """Whether the reading `read` of row `row` of `evidence` is certain enough to call `solution` absent."""
    if evidence.at_line is not None and evidence.at_line[row]:
        return False  # a stroke along a ruled line may have gone with the ruling: what is left may be another digit
    near = evidence.distances[row]
    return (
        kind >= MISTAKE_KIND
        and evidence.handwritten[row, read - 1] >= MISTAKE_VOTES
        and near[solution - 1] >= MISTAKE_MARGIN * max(near[read - 1], 1e-9)
        and evidence.printed[row, read - 1] >= MISTAKE_PRINTED
        and evidence.printed[row, solution - 1] <= MISTAKE_PRINTED_SOLUTION
    )


#: A would-be mistake (an entry read for sure as a digit other than the solution's) is compared with the
#: player's own writing in the same grid: their entries that agree with the solution. When the mark lies
#: within OWN_COPY_MARGIN times its distance to their nearest copy of the digit read (to the model's
#: nearest sample of it when they wrote none) of their nearest copy of the solution's digit, it is asked
#: about, not called a mistake: one hand's copies of a digit are alike, and a model that never saw the
#: hand can be sure and wrong. On photos 0-479 of `benchmarks/handwriting.py --seed 24` (20 held-out
#: hands, 10 extra givens) read by a candidate model of 2026-11-27 (24 variants of each handwriting face,
#: not shipped), a false mistake (a 7 read as a sure 1) lay at 1.05, nearer the player's own 1 than their
#: 7s; of its 64 real mistakes with such copies (75 in all) the nearest lay at 1.06, the next at 1.39.
OWN_COPY_MARGIN = 1.25
#: The other way round: an entry read as another digit than the solution's, but not surely (unclear),
#: whose mark lies within OWN_COPY_LIKE times that distance of the player's nearest own copy of the
#: solution's digit, is that digit as the player writes it: read as the solution's digit, a right entry,
#: not a question. On the tuning photos (seed 24, photos 0-239 at 10 extra givens and 0-479 at 0; the
#: model of 2026-11-27 afternoon) 1,336 entries were unclear, 733 of them right: below 0.5, 96 right ones
#: and no wrong one; the nearest wrong one lay at 0.60 (seeds 31, 99, 7 and 57: 111 right, the nearest
#: wrong one at 0.80).
OWN_COPY_LIKE = 0.5
#: An entry whose handwritten-digit model reading differs from the solution is given a second look, by the
#: image distortion model (`vision.deformation`, through `read_entries`' `reread`): when that gives the
#: solution's digit at least SECOND_LOOK_RIGHT of its votes (a majority), the entry is that digit, a right
#: entry; a mistake also needs the second look to read the digit read. On tuning seed 24 (120 photos, 10
#: extra givens, MNIST hands and faces) none of the 253 deliberately wrong entries given a second look had
#: a single vote for the solution's digit, while of the 147 right entries the first reading doubted 75 had a
#: majority for it, 30 one vote (0.23 to 0.49) and 42 none. One vote (0.2) was tried: on seed 45 it passed
#: two more wrong entries as right (of some 470) for 11 to 14 more right entries a run, so a majority is
#: asked. See `models/MODEL_CARD.md` ("A second look").
SECOND_LOOK_RIGHT = 0.5
#: ... provided the kind model gives the mark handwritten at least SECOND_LOOK_KIND: a mark it is unsure
#: is pen at all stays a question. Pencilled candidates in a validation photo (03_05 photo 1, r6c1: 0.54
#: handwritten, the rest candidates) were read as the solution's digit by the second look; on tuning seed
#: 24 (10 extra givens) the right entries in cells called handwritten that it turns from questions into
#: entries lie at 0.60 and above, 35 of 40 above 0.95 (the one at 0.60 is now left a question). The
#: condition holds only in a grid with a mark surely pencil (SURE_PENCIL; that photo has 11): elsewhere
#: a mark that is not print is pen, and the second look reads it whatever its kind. On tuning seeds 24
#: and 45 (four runs each, 120 photos a run) that read 9 and 20 more right entries and passed none of the
#: 65 wrong entries the kind model gave less than 0.75.
SECOND_LOOK_KIND = 0.75
#: ... or when the solution's digit is nearly as near as the nearest digit under the image distortion
#: model (`SecondLook.ratio`, its least distortion over any other digit's, at most SECOND_LOOK_RATIO; its
#: `deformation.DIGIT_RERANKED` nearest samples in the HOG model's space are measured besides the
#: `deformation.RERANKED`) and the first reading gives it at least SECOND_LOOK_FIRST. On tuning seed 24
#: (10 extra givens, MNIST hands and faces) this read 17 more of the 150 doubted right entries right (92
#: with the majority's 75) and passed none of the 253 wrong ones; the nearest wrong entry the first
#: reading gives 0.1 lay at a ratio of 1.21. On seed 45 (seen before) 14 more (99 of 166), none of 232
#: wrong passed. The ratio alone (at 1.05) passed two wrong entries of seed 45: a 3 and a 9 the first
#: reading gave the solution's digit 0.02 and 0.01.
#: The ratio counts only where some of the second look's votes go to the solution's digit: photo 0 of
#: `benchmarks/handwriting.py --seed 131 --extra-givens 0` (held-out faces) passed a wrong 7 as the
#: solution's 9 (ratio 1.07, first reading 0.20) that every vote read as 7; of the 60 right entries the
#: ratio passed on seeds 24 and 45 (all four runs of each), 6 had no vote and are questions again.
SECOND_LOOK_RATIO = 1.1
#: The first reading's (the handwritten-digit model's) least P(solution's digit) for SECOND_LOOK_RATIO to
#: count: the wrong entries that ratio alone passed were given 0.01 and 0.02; from 0.05 to 0.15 the
#: tuning and check seeds read the same.
SECOND_LOOK_FIRST = 0.1
#: ... or when the mark is nearer, under the image distortion model, to the player's own right copies of the
#: solution's digit in the grid (their entries that agree with the solution) than to any other digit, the
#: model's samples and their own copies together: at most OWN_LOOK_RATIO times as far
#: (`SecondLook.own_ratio`). One hand writes a digit alike each time, and a mark a model never trained on
#: that hand doubts is best compared with that hand's own copies. See `models/MODEL_CARD.md` ("The
#: player's own copies").
OWN_LOOK_RATIO = 0.85
#: ... or, for an entry that would otherwise be left a question (not one called a mistake), when the
#: solution's digit is the least distorted of all under the image distortion model, by a margin: its
#: `SecondLook.ratio` at most SECOND_LOOK_NEAREST, whatever the first reading says. The second
#: look's nearest sample is then the solution's digit, which the first reading (HOG and KNN) had all but
#: ruled out in a hand it never saw. Measured by `benchmarks/unclear_entries.py` on the entries left unclear
#: on tuning seeds 24, 45, 307, 419, 31 and 99 (120 photos each, held-out faces and MNIST hands, 0 extra
#: givens): of 414 right and 1,296 deliberately wrong entries, a ratio of at most 0.95 takes 56 right ones
#: and no wrong one (the nearest wrong one lies at 1.012, the next at 1.027 and 1.053); at most 1.0, 75 and
#: none. On check seeds 3001-3003 (faces and MNIST hands) 0.95 took 35 of 206 right and none of 639
#: wrong. A logistic regression of six measures together (the votes, three distortion ratios, the printed
#: model's view and the nearest samples' distances) took no more (36), so the single measure is used.
#: The votes can veto it, but less strictly than SECOND_LOOK_RATIO, which needs some vote for the solution's
#: digit: here only a vote that goes whole to one other digit does (3 of the 39 right entries it takes on
#: the tuning seeds have no vote for their digit, the other 36 some). On seed 4004 (faces, 0 extra givens;
#: first measured with the rule alone) a wrong 9 written where the solution has 7 was passed as right at a
#: ratio of 0.91 (the 7 found among the extra samples of the solution's digit) while all three voters read
#: 9. With the veto the tuning seeds take 39 right entries (of 56), the check seeds 25 (of 35), none wrong,
#: and seed 4004 4 right and no wrong one.
SECOND_LOOK_NEAREST = 0.95
#: A vote share at least this is the whole vote (`_nearest_is_right`).
UNANIMOUS = 0.999
#: A second round for the entries still left questions after the first (`_second_round`): each is looked at
#: again against the player's right copies of the solution's digit, now with the entries the first round read
#: right among them, and with its like questions: others read as the same digit where the solution has the
#: same digit. One hand's misread copies of a digit are read alike, so such a group is taken as copies of the
#: solution's digit when the mark lies within OWN_GROUP_LIKE times its distance to the player's nearest right
#: copy of the digit read (in the handwritten model's space) of its nearest like question, and only where the
#: player wrote such a right copy: two copies of a wrong digit lie as near their own right copies of it as to
#: each other. The entry is then the solution's digit when its `SecondLook.own_ratio` is at most
#: OWN_LOOK_RATIO. See `models/MODEL_CARD.md` ("A second round").
OWN_GROUP_LIKE = 0.8
#: In the second round, a question is also the solution's digit when its mark lies at most OWN_APART times as far,
#: under the image distortion model, from the player's nearest right copy of the solution's digit as from their
#: nearest right copy of any other digit, the digit read among them (`SecondLook.own_apart`; the model's samples
#: left out): the player writes that digit so, whatever a model that never saw the hand makes of it. Measured by
#: `benchmarks/own_copies.py` on the entries left unclear on tuning runs of `benchmarks/handwriting.py` (120 photos
#: each; held-out faces: seeds 24 and 7001 at 0 extra givens, 45 and 9001 at 10; MNIST hands: 24 at 0, 9001 at
#: 10), 130 right and 576 deliberately wrong, where the player wrote right copies of both digits: at most 0.6
#: takes 16 right entries and no wrong one, 0.7 26 and one, 0.8 38 and one. The nearest wrong entry lay at 0.677
#: (Mouse Memoirs, a 1 written where the solution has 7: that hand's 1 and 7 differ by a stroke), the next at
#: 0.824 (MNIST hands, whose every entry is another writer's). See `models/MODEL_CARD.md` ("Nearer the player's
#: own copies").
OWN_APART = 0.6
#: ... while the player's nearest right copy of the solution's digit lies at most OWN_APART_NEAR times as far as the
#: model's nearest sample of any digit: the player's copies measure a mark only when one of them is about as like
#: it as the model's samples are. First measured without it, on seeds never looked at before, the rule passed a
#: deliberately wrong 4 as the solution's 9 (seed 9302, 10 extra givens, photo 28, Caveat: every copy of the
#: player's far from the mark, their 9 the least far, at 0.53 and 2.36). Chosen on the tuning runs above, where it
#: lets through 14 of the 16 right entries OWN_APART takes (2.5: 15; 1.5: 10), then measured on further seeds.
OWN_APART_NEAR = 2.0


def _nearest_is_right(second: dict[int, tuple[np.ndarray, float, float]], cell: int, right: int) -> bool:
    """Whether the second look at `cell` finds the solution's digit the least distorted of all, by the margin of
    SECOND_LOOK_NEAREST (`SecondLook.ratio` at most that), while its vote does not go whole to another digit
    than `right`; False without a second look."""
    if cell not in second:
        return False
    votes, ratio, _ = second[cell]
    outvoted = float(np.max(np.delete(votes, right - 1))) >= UNANIMOUS
    return ratio <= SECOND_LOOK_NEAREST and not outvoted


def _own_copy_ratios(
    doubtful: list[int],
    rows: list[int],
    seen: EntryEvidence,
    entries: list[int],
    sure: list[int],
    solution: list[int],
    ask: Callable[[list[int]], EntryEvidence],
) -> dict[int, float]:
    """For rows of `doubtful` (`seen` their evidence), how the mark compares with the player's own entries
    that agree with the solution: the distance to their nearest copy of the solution's digit over the
    distance to their nearest copy of the digit read (the model's nearest sample of it when they wrote
    none), in the handwritten model's shape space. Rows are left out when the evidence has no shapes
    (`EntryEvidence.shapes`, as from the cell probabilities alone) or the player wrote no right copy of
    the solution's digit; `ask` gives the evidence of cells."""
    if not rows or seen.shapes is None:
        return {}
    wanted = {entries[doubtful[row]] for row in rows} | {solution[doubtful[row]] for row in rows}
    own = [c for c in range(81) if sure[c] and sure[c] == solution[c] and sure[c] in wanted]
    if not own:
        return {}
    own_shapes = ask(own).shapes
    if own_shapes is None:
        return {}
    ratios = {}
    for row in rows:
        read, right = entries[doubtful[row]], solution[doubtful[row]]
        apart = np.linalg.norm(own_shapes - seen.shapes[row], axis=1)
        to_right = [a for a, c in zip(apart, own) if sure[c] == right]
        to_read = [a for a, c in zip(apart, own) if sure[c] == read]
        if to_right:
            ratios[row] = float(min(to_right) / max(min(to_read) if to_read else seen.distances[row, read - 1], 1e-9))
    return ratios


#: `read_entries`' second look: given the cells asked about, the solution's digit of each, and the player's own
#: right entries as (cell, digit) pairs, a `SecondLook` of the cells (None without one).
Reread = Callable[[list[int], list[int], list[tuple[int, int]]], "SecondLook | None"]


def _right_entries(values: list[int], givens: list[int], solution: list[int]) -> list[tuple[int, int]]:
    """The player's entries among 81 `values` that agree with the solution, as (cell, digit) pairs: the
    copies of their own hand that the second look measures a doubted mark against."""
    return [(c, v) for c, v in enumerate(values) if v and not givens[c] and v == solution[c]]


def _second_look(
    reread: Reread | None, cells: list[int], solution: list[int], own: list[tuple[int, int]]
) -> dict[int, tuple[np.ndarray, float, float]]:
    """The second look at each of `cells` (`read_entries`' `reread`, asked about the solution's digits, `own`
    the player's right entries as (cell, digit)): its P(digit 1..9) shape (9,), the distortion ratio of the
    solution's digit (`SecondLook.ratio`) and that to the player's own copies of it (`SecondLook.own_ratio`,
    ``inf`` without); empty without a second look."""
    if reread is None or not cells:
        return {}
    look = reread(cells, [solution[cell] for cell in cells], own)
    if look is None:
        return {}
    return {
        cell: (
            np.asarray(look.votes[row], np.float64),
            look.ratio(row, solution[cell]),
            look.own_ratio(row, solution[cell]),
        )
        for row, cell in enumerate(cells)
    }


def _looks_right(second: dict[int, tuple[np.ndarray, float, float]], cell: int, right: int, first: np.ndarray) -> bool:
    """Whether the second look reads the solution's digit `right`: at least SECOND_LOOK_RIGHT of its votes;
    or a distortion ratio of at most SECOND_LOOK_RATIO where the first reading, `first` (9,) P(digit 1..9)
    of the handwritten-digit model, gives that digit at least SECOND_LOOK_FIRST and the votes give it some
    share; or a ratio to the player's own copies of it of at most OWN_LOOK_RATIO."""
    if cell not in second:
        return False
    votes, ratio, own_ratio = second[cell]
    if votes[right - 1] >= SECOND_LOOK_RIGHT or own_ratio <= OWN_LOOK_RATIO:
        return True
    # the ratio counts only where the votes do not all go to other digits (SECOND_LOOK_RATIO)
    return ratio <= SECOND_LOOK_RATIO and first[right - 1] >= SECOND_LOOK_FIRST and votes[right - 1] > 0


def _second_round(
    questions: list[int],
    shapes: dict[int, np.ndarray],
    entries: list[int],
    sure: list[int],
    givens: list[int],
    solution: list[int],
    ask: Callable[[list[int]], EntryEvidence],
    reread: Reread | None,
    first: list[tuple[int, int]],
) -> list[int]:
    """The entries left questions by `read_entries`' first round that a second look reads as the solution's digit
    once the player's copies of it include what the first round read right and the entry's like questions.

    Parameters
    ----------
    questions : list of int
        Cells whose entry the first round left a question (and whose mark the second look may read).
    shapes : dict of int to np.ndarray
        Each question's mark in the handwritten model's space (`EntryEvidence.shapes`), shape (d,) float32.
    entries, sure, givens, solution : list of int
        81 values each: the entries as read, those sure after the first round, the givens and the solution.
    ask : callable
        Given cells, their `EntryEvidence` (for the shapes of the player's right copies of the digit read).
    reread : Reread or None
        The second look (`read_entries`); without one nothing changes.
    first : list of (int, int)
        The player's right entries the first round compared with, as (cell, digit).

    Returns
    -------
    list of int
        Cells, ascending, whose mark lies at most OWN_APART times as far from the player's right copies of the
        solution's digit as from their right copies of any other digit (`SecondLook.own_apart`; the nearest of
        those copies within OWN_APART_NEAR times the model's nearest sample, `_nearer_own_copies`), or at most
        OWN_LOOK_RATIO times as far (`SecondLook.own_ratio`) from their copies of the solution's digit as from
        any other digit, the model's samples included: their right entries now (where one is new since the
        first round), and the entry's like questions (same digit read, same solution's digit) when it lies
        within OWN_GROUP_LIKE times its distance to their nearest right copy of the digit read of the nearest
        of them.
    """
    if reread is None or not questions:
        return []
    own = _right_entries(sure, givens, solution)
    compared = set(first)
    new_digits = {digit for cell, digit in own if (cell, digit) not in compared}
    like = {
        cell: [o for o in questions if o != cell and entries[o] == entries[cell] and solution[o] == solution[cell]]
        for cell in questions
    }
    grouped = [cell for cell in questions if like[cell]]
    read_in_groups = {entries[cell] for cell in grouped}
    copies_of_read = [cell for cell, digit in own if digit in read_in_groups]
    copy_shapes = ask(copies_of_read).shapes if copies_of_read else None
    partners: dict[int, list[int]] = {}
    for cell in grouped:
        if copy_shapes is None:
            break  # no shapes to compare with
        mine = [shape for shape, c in zip(copy_shapes, copies_of_read) if sure[c] == entries[cell]]
        if not mine:
            continue  # no right copy of the digit read to tell a repeated wrong digit from a misread one
        to_read = min(float(np.linalg.norm(shape - shapes[cell])) for shape in mine)
        to_like = min(float(np.linalg.norm(shapes[o] - shapes[cell])) for o in like[cell])
        if to_like <= OWN_GROUP_LIKE * to_read:
            partners[cell] = like[cell]
    # the questions share one second look against the player's right copies: one is right when it lies nearer
    # their copies of the solution's digit than their copies of any other digit (OWN_APART: they wrote right
    # copies of the digit read too), or, with a new copy of the solution's digit and no partners, nearer those
    # than any other digit at all (OWN_LOOK_RATIO); each with partners gets a look of its own as well, with
    # them among the copies
    own_digits = {digit for _, digit in own}  # digits the player wrote a right copy of
    looked = [
        cell
        for cell in questions
        if solution[cell] in own_digits
        and (entries[cell] in own_digits or (solution[cell] in new_digits and cell not in partners))
    ]
    look = reread(looked, [solution[cell] for cell in looked], own) if looked else None
    right = []
    for row, cell in enumerate(looked):
        if look is None:
            break
        digit = solution[cell]
        if _nearer_own_copies(look, row, digit, entries[cell]) or (
            digit in new_digits and cell not in partners and look.own_ratio(row, digit) <= OWN_LOOK_RATIO
        ):
            right.append(cell)
    for cell, others in partners.items():
        if cell in right:
            continue
        look = reread([cell], [solution[cell]], own + [(other, solution[cell]) for other in others])
        if look is not None and look.own_ratio(0, solution[cell]) <= OWN_LOOK_RATIO:
            right.append(cell)
    return sorted(right)


def _nearer_own_copies(look: SecondLook, row: int, digit: int, read: int) -> bool:
    """Whether mark `row` of `look` lies nearer the player's own right copies of `digit` (1..9) than their right
    copies of any other digit, `read` among them, by OWN_APART (`SecondLook.own_apart`), while their nearest copy
    of `digit` is at most OWN_APART_NEAR times as far as the model's nearest sample of any digit
    (`SecondLook.own_over_model`)."""
    return look.own_apart(row, digit, read) <= OWN_APART and look.own_over_model(row, digit) <= OWN_APART_NEAR


def _looks_like(second: dict[int, tuple[np.ndarray, float, float]], cell: int, read: int) -> bool:
    """Whether the second look, when there is one, reads the digit `read` (its most probable); True without."""
    return cell not in second or int(np.argmax(second[cell][0])) + 1 == read


def _alternatives_of(evidence: EntryEvidence, row: int, read: int, solution: int) -> tuple[int, ...]:
    """Digits other than `read` that the mark may be, most probable first (at most MAX_OFFERED - 1)."""
    p = evidence.handwritten[row]
    near = evidence.distances[row]
    offered = {d for d in range(1, 10) if d != read and p[d - 1] >= ALTERNATIVE_PROBABILITY}
    if near[solution - 1] < MISTAKE_MARGIN * max(near[read - 1], 1e-9) or not offered:
        offered.add(solution)
    ranked = sorted(offered, key=lambda d: (d != solution, -p[d - 1], d))[: MAX_OFFERED - 1]
    return tuple(sorted(ranked, key=lambda d: (-p[d - 1], d)))


def _probabilities_only(probabilities: np.ndarray, cells: list[int]) -> EntryEvidence:
    """What the cell probabilities alone say of some marks: P(digit | handwritten) (P(digit | printed) for a
    mark with no handwritten share), and no distance or printed reading, so that no reading is certain
    (every disagreement with the solution is unclear)."""
    from .vision.digits import EntryEvidence

    handwritten = np.array(probabilities[cells, 10:19], np.float64)
    none = handwritten.sum(axis=1) <= 0
    handwritten[none] = probabilities[np.asarray(cells)[none], 1:10]  # no handwritten share: the printed digit's
    handwritten = handwritten / np.maximum(handwritten.sum(axis=1, keepdims=True), 1e-12)
    return EntryEvidence(handwritten, np.ones_like(handwritten), np.zeros_like(handwritten))


def read_entries(
    probabilities: np.ndarray,
    givens: list[int],
    solution: list[int] | None,
    evidence: Callable[[list[int]], EntryEvidence] | None = None,
    written: list[int] | None = None,
    reread: Reread | None = None,
    givens_doubted: bool = False,
) -> EntryReading:
    """The player's marks in the cells without a printed digit, and which of them are certain.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 20): a reading's probabilities over `vision.digits.CLASSES`
        (empty, printed 1-9, handwritten 1-9, candidates).
    givens : list of int
        81 values: the printed puzzle decided by `choose_reading`.
    solution : list of int or None
        Its unique solution, when known: an entry is checked against it.
    evidence : callable, optional
        Given a list of cells, the digit models' `EntryEvidence` of their
        marks (`vision.digits.CellClassifier.entry_evidence`); asked only for
        entries that differ from the solution. Without it no reading is
        certain enough for a mistake: every such entry is unclear.
    written : list of int, optional
        Cells read as printed digits that `separate_written` (or `decide_givens`)
        took for pen. They are read by the handwritten-digit model (through
        `evidence`): one read as the solution's digit is right, one read as
        another digit is unclear, never a mistake and never taken for right
        (unless the second look, `reread`, reads the solution's digit).
    reread : callable, optional
        Given a list of cells, the solution's digit of each and the player's
        right entries as (cell, digit) pairs, a second reading of the cells'
        marks (`vision.digits.SecondLook`: P(digit 1..9), each digit's least
        distortion, and each digit's least distortion to those entries' marks,
        from `vision.digits.CellClassifier.second_look`), or None when the
        model has none; asked only for entries whose reading differs from the
        solution (`Reread`). An entry it reads as the solution's digit (at
        least SECOND_LOOK_RIGHT of its votes, or a distortion ratio of at most
        SECOND_LOOK_RATIO where the first reading gives that digit at least
        SECOND_LOOK_FIRST, or one of at most OWN_LOOK_RATIO to the player's own
        copies of that digit), whose
        mark is handwritten with probability at least SECOND_LOOK_KIND (in a
        grid with a mark surely pencil; any mark elsewhere), is that digit
        (right); a mistake needs it to read the digit read. An entry that
        would be left a question is right too when the solution's digit is
        the least distorted by a margin (SECOND_LOOK_NEAREST), unless the
        second look's vote goes whole to another digit (UNANIMOUS).
    givens_doubted : bool
        The printed reading was repaired by taking a mark read as print for
        no printed digit (`Decision.dropped_print`): a pen digit kept as a
        given may have made that repair, and the solution may be another
        puzzle's. No entry is then a mistake: one that differs from the
        solution is unclear, the solution's digit its alternative.

    Returns
    -------
    EntryReading
        A handwritten digit that agrees with the solution is sure; one that
        differs is sure (a mistake) only when its reading is certain (see
        MISTAKE_KIND) and its shape is unlike the player's own right copies
        of the solution's digit in the grid (OWN_COPY_MARGIN, when `evidence`
        gives shapes), else it is unclear, unless its shape is like the
        player's own right copies of the solution's digit (OWN_COPY_LIKE):
        then it is read as that digit, and sure. The second look (`reread`)
        comes first: an entry it reads as the solution's digit is right.
        The entries left questions then get a second round (`_second_round`):
        against the player's right copies including those just read right,
        and their like questions (OWN_GROUP_LIKE); an entry nearer their
        right copies of the solution's digit than their right copies of any
        other digit by OWN_APART is that digit.
        A cell's mark is an entry when handwriting is its most probable kind,
        or when it is most probably pencilled candidates in a grid with no
        mark surely pencil and is a digit with probability at least
        LONE_PENCIL_DIGIT (a small pen digit); it is pencil otherwise.
        Every entry whose first reading differs from the solution is listed in
        `EntryReading.doubted` with the measures it was judged by and the rule
        that decided it (`DoubtedEntry`).
    """
    entries = [0] * 81
    pencil = []
    kinds = {}
    taken_out: list[int] = []
    pencilled = bool((np.asarray(probabilities)[:, 19] >= SURE_PENCIL).any())
    pen_kind = SECOND_LOOK_KIND if pencilled else 0.0  # how surely pen a mark the second look reads must be
    for cell in range(81):
        if givens[cell]:
            continue
        if written and cell in written and solution:
            taken_out.append(cell)
            continue
        p = probabilities[cell]
        handwritten = p[10:19]
        kind = int(np.argmax((p[0], handwritten.sum(), p[19])))
        if kind == 2 and not pencilled and 1.0 - p[0] - p[19] >= LONE_PENCIL_DIGIT:
            kind = 1  # a lone mark like a candidate in a grid without pencil: a small pen digit (LONE_PENCIL_DIGIT)
        if kind == 2:
            pencil.append(cell)
        elif kind == 1:
            entries[cell] = int(np.argmax(handwritten)) + 1
            kinds[cell] = float(handwritten.sum())

    def ask(cells: list[int]) -> EntryEvidence:
        return evidence(cells) if evidence is not None else _probabilities_only(probabilities, cells)

    unclear = []
    doubted: list[DoubtedEntry] = []
    decided_by: DecidedBy  # how each doubted entry is decided (DoubtedEntry)
    shapes: dict[int, np.ndarray] = {}  # the questions' marks, for a second round (`_second_round`)
    # the player's right entries the first round compared with (the taken-out marks' when both passes ran: the
    # fewer, so that a question of either pass has what is new to it looked at)
    compared: list[tuple[int, int]] | None = None
    if taken_out:
        # Marks read as print that the per-grid decision took for pen: read by the handwritten-digit model.
        # One read as the solution's digit is right; one read otherwise is a question, never a mistake (the
        # classifier did not even take the mark for handwriting, so no reading of it is certain).
        assert solution is not None  # cells are taken out of the givens only for a reading with a solution
        seen = ask(taken_out)
        readings = [int(np.argmax(seen.handwritten[row])) + 1 for row in range(len(taken_out))]
        own = compared = _right_entries(entries, givens, solution)
        second = _second_look(reread, [c for c, d in zip(taken_out, readings) if d != solution[c]], solution, own)
        for row, cell in enumerate(taken_out):
            entries[cell] = readings[row]
            if entries[cell] == solution[cell]:
                continue
            if _looks_right(second, cell, solution[cell], seen.handwritten[row]):
                decided_by = "second look"
            elif _nearest_is_right(second, cell, solution[cell]):
                decided_by = "least distorted"
            else:
                decided_by = "question"
            doubted.append(_doubted(seen, row, cell, entries[cell], solution[cell], decided_by, second, taken_out=True))
            if decided_by == "question":
                unclear.append(
                    UnclearEntry(cell, entries[cell], _alternatives_of(seen, row, entries[cell], solution[cell]))
                )
                if seen.shapes is not None:
                    shapes[cell] = seen.shapes[row]
            else:
                entries[cell] = solution[cell]  # read as the solution's digit, or that digit least distorted
    sure = list(entries)
    for entry in unclear:
        sure[entry.cell] = 0
    doubtful = [c for c in kinds if solution and entries[c] != solution[c]]
    if doubtful:
        assert solution is not None  # entries differ from a solution only when there is one
        seen = ask(doubtful)
        certain = [
            row for row, cell in enumerate(doubtful) if _certain(seen, row, kinds[cell], entries[cell], solution[cell])
        ]
        ratios = _own_copy_ratios(doubtful, list(range(len(doubtful))), seen, entries, sure, solution, ask)
        # asked only where it can change something: marks surely pen (SECOND_LOOK_KIND, where the grid has
        # pencil), which it may read as right, and readings certain enough for a mistake, which it must confirm
        first_own = _right_entries(sure, givens, solution)
        second = _second_look(
            reread,
            [cell for row, cell in enumerate(doubtful) if kinds[cell] >= pen_kind or row in certain],
            solution,
            first_own,
        )
        # like the player's own copies of the solution's digit: not a mistake, and below OWN_COPY_LIKE that digit
        # and, when there is a second look, read by it as the same digit
        accused = [
            row
            for row in certain
            if ratios.get(row, np.inf) > OWN_COPY_MARGIN and _looks_like(second, doubtful[row], entries[doubtful[row]])
        ]
        for row, cell in enumerate(doubtful):
            read, right = entries[cell], solution[cell]
            if _looks_right(second, cell, right, seen.handwritten[row]) and kinds[cell] >= pen_kind:
                decided_by = "second look"  # the second look reads the solution's digit
            elif row in accused:
                decided_by = "mistake"  # a mistake both readings are sure of
            elif row not in certain and ratios.get(row, np.inf) < OWN_COPY_LIKE:
                decided_by = "own copy"  # the solution's digit as this player writes it
            elif kinds[cell] >= pen_kind and _nearest_is_right(second, cell, right):
                decided_by = "least distorted"  # the solution's digit is the least distorted: right
            else:
                decided_by = "question"
            doubted.append(_doubted(seen, row, cell, read, right, decided_by, second, ratios.get(row, math.inf)))
            if decided_by == "question":
                unclear.append(
                    UnclearEntry(cell, read, tuple(int(d) for d in _alternatives_of(seen, row, read, right)))
                )
                sure[cell] = 0
                if kinds[cell] >= pen_kind and seen.shapes is not None:
                    shapes[cell] = seen.shapes[row]
            elif decided_by != "mistake":
                entries[cell] = sure[cell] = right  # read as the solution's digit
        compared = first_own if compared is None else compared
    if shapes:
        # a second round for the questions left, with the entries just read right and like questions as copies
        assert solution is not None and compared is not None  # questions are asked only against a solution
        again = _second_round(sorted(shapes), shapes, entries, sure, givens, solution, ask, reread, compared)
        for cell in again:
            entries[cell] = sure[cell] = solution[cell]
        unclear = [entry for entry in unclear if entry.cell not in again]
        doubted = [replace(d, decided_by="second round") if d.cell in again else d for d in doubted]
    if givens_doubted and solution:
        asked = [cell for cell in range(81) if sure[cell] and sure[cell] != solution[cell]]  # the mistakes
        for cell in asked:
            unclear.append(UnclearEntry(cell, sure[cell], (solution[cell],)))
            sure[cell] = 0
        doubted = [replace(d, decided_by="givens doubted") if d.cell in asked else d for d in doubted]
    unclear.sort(key=lambda entry: entry.cell)
    return EntryReading(entries, sure, pencil, unclear, doubted)
