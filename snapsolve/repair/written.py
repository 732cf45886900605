"""The player's pen among the givens of a solved reading: marks unlike the print that the puzzle does not need.

A printed digit is decided per grid, not cell by cell alone: one typeface
prints every given of a grid alike, and a neat handwritten digit that the cell
classifier took for print differs from them in several small ways at once
(`looks`). Such a mark is checked as an entry instead of trusted as a given,
provided the puzzle has the same single solution without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..solver import SOLVED
from ..solver.exact import SearchResult, solve_unique
from ..solver.grid import cell_name
from .looks import (
    PEN_GIVEN_DOUBT,
    PEN_SCORE_SOLVED,
    MarkLooks,
    doubted_by_shape,
    hand_readings,
    like_the_players_pen,
    lone_far_copies,
    may_be_pen,
    pen_scores,
    unlike_the_print,
)
from .reading import UNSURE, Decision, log_probability_of

#: Of copies of one digit far apart from one another (`lone_far_copies`), one the puzzle does not need is pen
#: only when its pen score exceeds those of the copies it needs by at least this; fitted with
#: `benchmarks/handwriting.py`.
LONE_COPY_MARGIN = 1.0
#: Rounds of `separate_written`: the pen moved in one round leaves the grid's print a cleaner reference (its
#: median height and place, its shapes' spread) for the next.
SEPARATION_ROUNDS = 3
#: A mark out of the givens goes back when the printed-digit model reads it as the solution's digit with at
#: least PUT_BACK_PRINT and, among the givens left, it may not be pen at a pen score of PUT_BACK_SCORE
#: (`_like_the_print_left`); fitted with `benchmarks/handwriting.py`.
PUT_BACK_SCORE = 1.0
PUT_BACK_PRINT = 0.9


def separate_written(
    decision: Decision, looks: MarkLooks, search: str = "bitmask", probabilities: np.ndarray | None = None
) -> Decision:
    """Take givens that do not look like the grid's own print for the player's entries.

    Each step takes a given out only when the givens without it (and the
    marks already out) still have exactly one solution, the same one:

    1. rounds (`_take_out_unlike`): the givens that may be pen (`may_be_pen`
       at PEN_SCORE_SOLVED: another ink, a pen score above it, far by shape
       from their digit's print and doubted, or doubted and plainly unlike the
       print), the most unlike first, in up to SEPARATION_ROUNDS rounds, each
       measured against the givens left;
    2. far copies (`_take_out_far_copies`): of copies of one digit that all
       lie far from one another (`lone_far_copies`: the shapes say one is not
       print, not which), those the puzzle does not need that score plainly
       more unlike the print (LONE_COPY_MARGIN) than those it needs or, when it
       needs none, than the copy most like the print;
    3. the player's own pen: a given nearer the player's own writing of its
       digit than the grid's print of it (`like_the_players_pen`);
    4. put back (`_like_the_print_left`): each mark out, measured again against
       the print left once the pen is out, that agrees with the solution and
       now looks like the print goes back; the rounds then run once more, those
       marks staying, so pen the puzzle needed only while they were out goes
       too.

    Where some marks were taken for pen, a given the puzzle needs that still
    looks unlike the print, or that the classifier doubts (PEN_GIVEN_DOUBT),
    and that the handwritten-digit model reads as another digit makes the
    decision unsure: it may be pen misread as print, and another puzzle.

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
        was chosen from; without them no given counts as doubted and no mark
        goes back.

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
    pen = _Separation(list(decision.givens), looks, search, probabilities, decision.solution, decision.count)
    _take_out_unlike(pen)
    _take_out_far_copies(pen)
    for cell in like_the_players_pen(pen.givens, looks, pen.solution):
        pen.move_if_not_needed(cell)
    out = sorted(set(decision.written) | set(pen.moved))
    returned = _like_the_print_left(pen, out)
    for cell, digit in returned:
        pen.givens[cell] = digit
    if returned:
        _take_out_unlike(pen, kept={cell for cell, _ in returned})
    givens = pen.givens
    moved = [c for c in pen.moved if not givens[c]]
    written = sorted(c for c in set(out) | set(moved) if not givens[c])
    doubt = pen_kept_as_print(givens, hand_readings(_pen_suspects(pen) if written else [], looks))
    log_probability = (
        decision.log_probability if probabilities is None else log_probability_of(probabilities, givens, written)
    )
    if doubt:
        warning = needed_pen_warning(givens, doubt)
        return Decision(givens, UNSURE, None, decision.changes, warning, log_probability, written)
    if not moved and not returned:
        return decision
    return Decision(givens, SOLVED, pen.count, decision.changes, decision.warning, log_probability, written)


@dataclass
class _Separation:
    """`separate_written`'s givens as the pen goes out.

    Attributes
    ----------
    givens : list of int
        81 values, changed in place: the givens left.
    looks : MarkLooks
        How the marks look.
    search : str
        The exact search's engine.
    probabilities : np.ndarray or None
        Shape (81, 10), float: the classifier's, as for `choose_reading`.
    solution : list of int or None
        81 values: the solution every step keeps.
    count : SearchResult or None
        The exact search's count of the givens left.
    moved : list of int
        The cells taken out, in order.
    """

    givens: list[int]
    looks: MarkLooks
    search: str
    probabilities: np.ndarray | None
    solution: list[int] | None
    count: SearchResult | None
    moved: list[int] = field(default_factory=list)

    def solved_without(self, cell: int) -> SearchResult | None:
        """The exact search's count of the givens without `cell` when it still has exactly one solution,
        `solution`; else None."""
        count = solve_unique([0 if c == cell else d for c, d in enumerate(self.givens)], search=self.search)
        return count if count.status == SOLVED and count.solution == self.solution else None

    def move_if_not_needed(self, cell: int) -> bool:
        """Take `cell` out of the givens when the puzzle without it keeps its one solution; whether it went."""
        count = self.solved_without(cell)
        if count is None:
            return False
        self.givens[cell] = 0
        self.moved.append(cell)
        self.count = count
        return True


def _take_out_unlike(pen: _Separation, kept: set[int] | frozenset[int] = frozenset()) -> None:
    """`separate_written`'s rounds: the givens that may be pen (`may_be_pen` at PEN_SCORE_SOLVED), the most
    unlike first, each taken out when the puzzle does not need it; up to SEPARATION_ROUNDS rounds, each
    measured against the givens left. Cells of `kept` stay."""
    for _ in range(SEPARATION_ROUNDS):
        moved_now = 0
        for cell in may_be_pen(pen.givens, pen.looks, pen.probabilities, PEN_SCORE_SOLVED):  # the givens left
            if cell not in kept and pen.move_if_not_needed(cell):
                moved_now += 1
        if not moved_now:
            break


def _take_out_far_copies(pen: _Separation) -> None:
    """Of copies of one digit far apart from one another (`lone_far_copies`), take out those the puzzle does
    not need that score at least LONE_COPY_MARGIN more unlike the print than the copies it needs (or, when
    it needs none, than the copy most like the print, which stands for it)."""
    scores = pen_scores(pen.givens, pen.looks)
    for copies in lone_far_copies(pen.givens, pen.looks):
        needed = [c for c in copies if pen.solved_without(c) is None]
        if not needed:
            needed = [min(copies, key=lambda c: scores.get(c, 0.0))]
        least = max(scores.get(c, 0.0) for c in needed) + LONE_COPY_MARGIN
        for cell in copies:
            if cell in needed or scores.get(cell, 0.0) < least:
                continue
            pen.move_if_not_needed(cell)


def _pen_suspects(pen: _Separation) -> list[int]:
    """Givens left that may be pen too, where some pen of the grid was read as print: those still unlike the
    print (the puzzle needs them), those far by shape and doubted (`doubted_by_shape`), and those needed that
    the classifier doubts (PEN_GIVEN_DOUBT)."""
    givens, probabilities = pen.givens, pen.probabilities
    suspects = unlike_the_print(givens, pen.looks, PEN_SCORE_SOLVED)
    suspects += [c for c in doubted_by_shape(givens, pen.looks, probabilities) if c not in suspects]
    if probabilities is not None:
        suspects += [
            c
            for c in range(81)
            if givens[c]
            and c not in suspects
            and probabilities[c, givens[c]] < PEN_GIVEN_DOUBT
            and pen.solved_without(c) is None
        ]
    return suspects


def _like_the_print_left(pen: _Separation, out: list[int]) -> list[tuple[int, int]]:
    """(cell, digit) of the marks out of the givens (`out`) that look like the print of the givens left after
    all.

    Each is measured alone against the givens left (the print once the pen is
    out): read as the solution's digit by the printed-digit model with at
    least PUT_BACK_PRINT, given a pen score (`pen_scores`: the grid has a
    print population), and not among the givens that may be pen at a pen
    score of PUT_BACK_SCORE (`may_be_pen`). A mark that agrees with the
    solution changes neither the solution nor its uniqueness when it goes back.
    Empty without `probabilities` or a solution.
    """
    givens, solution, looks, probabilities = pen.givens, pen.solution, pen.looks, pen.probabilities
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
        if cell in scores and cell not in may_be_pen(with_it, looks, probabilities, PUT_BACK_SCORE, scores):
            back.append((cell, digit))
    return back


def pen_kept_as_print(givens: list[int], by_hand: dict[int, int]) -> list[tuple[int, int]]:
    """(cell, digit by hand) of the marks read by hand (`by_hand`) kept as givens whose handwritten reading is
    another digit. Only marks that may be pen are to be asked: the handwritten-digit model reads a fourth of
    printed givens as another digit."""
    return [(c, d) for c, d in by_hand.items() if givens[c] and d != givens[c]]


def needed_pen_warning(givens: list[int], doubt: list[tuple[int, int]]) -> str:
    """The warning of a reading whose givens need marks that may be pen misread as print: `doubt` as from
    `pen_kept_as_print`."""
    detail = ", ".join(f"{cell_name(c)} read as printed {givens[c]}, by hand {d}" for c, d in doubt)
    return f"unsure of the digits read: marks that look written by hand are needed as givens ({detail})"
