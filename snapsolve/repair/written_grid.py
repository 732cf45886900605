"""A grid written wholly by hand: no print among its marks, so its givens are the hand's digits.

Printed or written is a relation within a grid: `looks` measures each mark
against the grid's own print. A blank grid filled in pen (a puzzle copied out
by hand, a grid a child filled in, a page of handwritten givens) has no print
to measure against, and the cell classifier, which tells a mark's kind by its
layout alone, calls most of its marks printed: the printed-digit model then
reads pen. Such a grid is told by its marks together (`is_written_grid`): it
has a population of digits and hardly any of them look printed, by the kind
model and by their shapes' distance to the printed-digit model's samples.
Its marks are then read by the handwritten-digit model, and they are its
givens (`decide_written_grid`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..solver import SOLVED
from ..solver.exact import solve_unique
from ..solver.grid import cell_name
from ..vision.classes import ClassProbabilities
from .looks import MIN_POPULATION, MarkLooks
from .reading import MIN_ALTERNATIVE_PROBABILITY, UNSURE, Decision, breaks_rules, choose_reading

#: A mark looks printed when the kind model gives handwriting less than PRINT_KIND of its digit's probability
#: and its shape lies within PRINT_NEAR of the nearest printed sample (in the printed-digit model's space,
#: `vision.digits.CellClassifier.printed_proba_and_nearest`, where a printed given lies some 0.3 from it).
#: Fitted with `benchmarks/all_handwritten.py` and the labelled photos.
PRINT_KIND = 0.02
PRINT_NEAR = 0.8

#: A grid is not written when at least PRINT_SHARE of its digits are print by the kind model (below PRINT_KIND):
#: the kind model calls a fourth to a third of a hand's digits print, and a noisy photo's print lies far from
#: the printed samples while its kind stays sure. Fitted as PRINT_KIND.
PRINT_SHARE = 0.5


def _digit_cells(probabilities: np.ndarray) -> list[int]:
    """The cells (0..80) whose mark is a digit: a printed or a handwritten digit is at least half of its
    probability (`probabilities` (81, len(CLASSES)) float)."""
    by_kind = ClassProbabilities(np.asarray(probabilities))
    digit = by_kind.printed.sum(axis=1) + by_kind.handwritten.sum(axis=1)
    return [c for c in range(81) if digit[c] >= 0.5]


def is_written_grid(probabilities: np.ndarray, looks: MarkLooks) -> bool:
    """Whether a grid's marks are one population of pen: at least MIN_POPULATION digits, fewer than
    PRINT_SHARE of them print by the kind model and fewer than MIN_POPULATION that look printed (no print
    population to measure the others against).

    A mark looks printed when the kind model calls it print beyond PRINT_KIND
    and its shape lies within PRINT_NEAR of a printed sample. Either alone
    calls many pen digits printed: the kind model goes by layout, which a
    neat hand shares with print, and a plain hand's digit can lie near a
    printed face's. The likeness of a digit's copies to one another does not
    tell either: a blurred photo's print copies lie as far apart as one
    hand's.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, len(CLASSES)), float: the reading's class probabilities
        (`vision.classes.CLASSES`); a mark is a digit when a printed or a
        handwritten digit is at least half of its probability.
    looks : MarkLooks
        The marks' distances to the nearest printed sample
        (``print_distances``) and their handwritten digits
        (``hand_probabilities``); without them no grid is written.

    Returns
    -------
    bool
    """
    if looks.print_distances is None or looks.hand_probabilities is None:
        return False
    marks = _digit_cells(probabilities)
    if len(marks) < MIN_POPULATION:
        return False
    by_kind = ClassProbabilities(np.asarray(probabilities))
    handwritten = by_kind.handwritten.sum(axis=1)
    digit = by_kind.printed.sum(axis=1) + handwritten
    by_kind_print = [c for c in marks if handwritten[c] < PRINT_KIND * digit[c]]
    if len(by_kind_print) >= PRINT_SHARE * len(marks):
        return False
    if len(by_kind_print) < MIN_POPULATION:
        return True
    near = np.asarray(looks.print_distances(by_kind_print), np.float64) < PRINT_NEAR
    return int(near.sum()) < MIN_POPULATION


#: The least share of a grid's other digits that must agree with its printed reading's solution for that reading
#: to hold in a grid whose marks look written (`printed_reading_holds`).
ENTRIES_AGREE = 0.5


def printed_reading_holds(printed: Decision, probabilities: np.ndarray, looks: MarkLooks) -> bool:
    """Whether a grid whose marks look written (`repair.is_written_grid`) is print and pen after all.

    A blurred or grainy photo's print can look written. The per-grid
    decision of print and pen (`repair.decide_givens`) holds when it has one
    solution and at least ENTRIES_AGREE of the digits it leaves out of the
    givens, read as handwriting, are that solution's, as a player's entries
    mostly are; in a grid written wholly by hand, the digits left out of a
    chance puzzle agree with its solution hardly more than by chance.

    Parameters
    ----------
    printed : Decision
        The grid's per-grid decision of print and pen (`repair.decide_givens`).
    probabilities : np.ndarray
        Shape (81, len(CLASSES)), float: the reading's class probabilities.
    looks : MarkLooks
        As `is_written_grid` takes them.

    Returns
    -------
    bool
    """
    if printed.status != SOLVED or printed.count is None or printed.count.solution is None:
        return False
    entries = [c for c in _digit_cells(probabilities) if not printed.givens[c]]
    if not entries or looks.hand_probabilities is None:
        return not entries
    read = np.asarray(looks.hand_probabilities(entries)).argmax(axis=1) + 1
    solution = printed.count.solution
    agree = sum(1 for c, d in zip(entries, read, strict=True) if solution[c] == d)
    return agree >= ENTRIES_AGREE * len(entries)


#: A written grid is read half turned when its marks, so turned, lie nearer the handwritten samples: the
#: median distance of each mark to the nearest handwritten sample (of any digit) falls below HALF_TURN_NEARER
#: times that of the grid as read; or below it at all while fewer of the half-turned reading's digits repeat in
#: a house (a puzzle read upside down breaks the rules in many cells). The grid's orientation is chosen by its
#: marks' likeness to print (`vision.read.orient_and_read`), which handwriting does not show; upside down, a
#: hand's digits lie farther from the handwritten samples, a slanted hand's hardly so. Fitted with
#: `benchmarks/all_handwritten.py`.
HALF_TURN_NEARER = 0.9


def upside_down(
    distances: np.ndarray, turned: np.ndarray, repeats: Callable[[], tuple[int, int]] | None = None
) -> bool:
    """Whether a written grid is read upside down: its marks half turned lie nearer the handwritten samples.

    Parameters
    ----------
    distances, turned : np.ndarray
        Shape (n,) float: each mark's distance to the nearest handwritten
        sample of any digit, as read and half turned
        (`vision.evidence.EntryEvidence.distances`' least per mark).
    repeats : callable, optional
        How many cells of the grid's most probable written reading
        (`written_given_probabilities`) repeat a digit in a house, as read and
        half turned (`solver.grid.repeated_cells`); asked only when `turned`
        is nearer, though not by HALF_TURN_NEARER.

    Returns
    -------
    bool
        The median of `turned` is below HALF_TURN_NEARER times that of
        `distances`, or below it and the half-turned reading repeats digits
        in fewer cells.
    """
    if len(distances) == 0 or len(turned) == 0:
        return False
    as_read, half = float(np.median(distances)), float(np.median(turned))
    if half < HALF_TURN_NEARER * as_read:
        return True
    if half >= as_read or repeats is None:
        return False
    repeated, repeated_turned = repeats()
    return repeated_turned < repeated


def written_given_probabilities(probabilities: np.ndarray, looks: MarkLooks) -> np.ndarray:
    """A written grid's givens as `choose_reading` reads them: each mark's digit by the handwritten-digit model.

    Column 0 is the probability of no digit (nothing, or pencilled
    candidates: `probabilities`' empty and candidates classes), columns 1..9
    the probability of a digit of either kind shared out as the
    handwritten-digit model reads the mark (``looks.hand_probabilities``).

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, len(CLASSES)), float: the reading's class probabilities.
    looks : MarkLooks
        With ``hand_probabilities``.

    Returns
    -------
    np.ndarray
        Shape (81, 10) float64, rows sum to 1.

    Raises
    ------
    ValueError
        ``looks.hand_probabilities`` is None.
    """
    if looks.hand_probabilities is None:
        raise ValueError("a written grid is read with the handwritten-digit model, which was not given")
    by_kind = ClassProbabilities(np.asarray(probabilities, np.float64))
    digit = by_kind.printed.sum(axis=1) + by_kind.handwritten.sum(axis=1)
    out = np.zeros((81, 10))
    out[:, 0] = 1.0 - digit
    marked = [c for c in range(81) if digit[c] > 0]
    if marked:
        hand = np.asarray(looks.hand_probabilities(marked), np.float64)
        out[marked, 1:] = digit[marked, None] * hand / np.maximum(hand.sum(axis=1, keepdims=True), 1e-12)
    return out


#: A written grid's reading with one solution is unsure when one of its givens that the handwritten-digit
#: model reads with less than WRITTEN_SURE, read as another digit (of the WRITTEN_ALTERNATIVES it finds most
#: probable after the one read, each at least MIN_ALTERNATIVE_PROBABILITY), makes another puzzle with one
#: solution: a hand's digit can look like another to every model (a 1 read as a 6 by the second look too), and
#: the few neighbours' votes do not say how unlikely the other reading is. Fitted with
#: `benchmarks/all_handwritten.py`.
WRITTEN_SURE = 0.9
WRITTEN_ALTERNATIVES = 2


def decide_written_grid(probabilities: np.ndarray, looks: MarkLooks, search: str = "bitmask") -> Decision:
    """The puzzle of a grid written wholly by hand: the most probable reading by the handwritten-digit model
    with one solution (`choose_reading` of `written_given_probabilities`), every mark a given.

    A reading solved only by a repair is unsure: a hand's digit misread can
    make the repair change a right one, and the changed reading have one
    solution, another. So is a solved reading one of whose doubted givens,
    read as another digit, makes another puzzle with one solution
    (`another_puzzle`).

    Parameters and the returned `Decision` are those of `decide_givens`
    (``probabilities`` the reading's (81, len(CLASSES)) class probabilities);
    no mark is taken for the player's pen (``written`` is empty).
    """
    given_probabilities = written_given_probabilities(probabilities, looks)
    decision = choose_reading(given_probabilities, search=search)
    if decision.status == SOLVED and decision.changes:
        changed = ", ".join(
            f"{cell_name(c)} read as {a or 'no digit'}, taken as {b or 'no digit'}" for c, a, b in decision.changes
        )
        warning = f"unsure of the handwritten digits read: one solution only if {changed}"
        return Decision(decision.givens, UNSURE, None, decision.changes, warning, decision.log_probability)
    other = another_puzzle(decision, given_probabilities, search) if decision.status == SOLVED else None
    if other is None:
        return decision
    cell, digit = other
    warning = f"unsure of the digits read: {cell_name(cell)} read as {digit} makes another puzzle with one solution"
    return Decision(decision.givens, UNSURE, None, decision.changes, warning, decision.log_probability)


def another_puzzle(decision: Decision, probabilities: np.ndarray, search: str = "bitmask") -> tuple[int, int] | None:
    """A given of a solved reading, read with less than WRITTEN_SURE, that read as another digit makes a
    puzzle with another single solution: (cell, digit), or None.

    Parameters
    ----------
    decision : Decision
        A solved reading.
    probabilities : np.ndarray
        Shape (81, 10), float: as for `choose_reading`; a given's other
        digits are its WRITTEN_ALTERNATIVES most probable after the one read,
        each at least MIN_ALTERNATIVE_PROBABILITY.
    search : str
        The exact search's engine.
    """
    for cell, read in enumerate(decision.givens):
        if not read or probabilities[cell, read] >= WRITTEN_SURE:
            continue
        ranked = [int(d) for d in np.argsort(-probabilities[cell, 1:], kind="stable") + 1 if d != read]
        for digit in ranked[:WRITTEN_ALTERNATIVES]:
            if probabilities[cell, digit] < MIN_ALTERNATIVE_PROBABILITY:
                break
            other = list(decision.givens)
            other[cell] = digit
            if breaks_rules(other):
                continue
            count = solve_unique(other, search=search)
            if count.status == SOLVED and count.solution != decision.solution:
                return cell, digit
    return None
