"""The player's pen among the givens of a solved reading: marks unlike the print that the puzzle does not need."""

from __future__ import annotations

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
    doubt = pen_kept_as_print(givens, hand_readings(suspects, looks))
    log_probability = (
        decision.log_probability if probabilities is None else log_probability_of(probabilities, givens, written)
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
    """`separate_written`'s rounds: the givens that may be pen (`may_be_pen` at PEN_SCORE_SOLVED), the most
    unlike first, each taken out of `givens` (changed in place; appended to `moved`) when the puzzle without
    it still has exactly one solution, `decision`'s; up to SEPARATION_ROUNDS rounds, each measured against
    the givens left. Cells of `kept` stay. Returns the exact search's count of the last taken out, or
    `result` (the count so far) when none was."""
    for _ in range(SEPARATION_ROUNDS):
        moved_now = 0
        for cell in may_be_pen(givens, looks, probabilities, PEN_SCORE_SOLVED):  # the givens left this round
            if cell in kept:
                continue
            count = _moved_if_not_needed(givens, moved, cell, decision.solution, search)
            if count is not None:
                moved_now += 1
                result = count
        if not moved_now:
            break
    return result


#: A mark out of the givens goes back (`_like_the_print_left`) when the printed-digit model reads it as the
#: solution's digit with at least PUT_BACK_PRINT and, among the givens left, it may not be pen at a pen score
#: of PUT_BACK_SCORE (`may_be_pen`: its ink is the print's, and neither shape test doubts it). On photos
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
    score of PUT_BACK_SCORE (`may_be_pen`). A mark that agrees with the
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
        if cell in scores and cell not in may_be_pen(with_it, looks, probabilities, PUT_BACK_SCORE, scores):
            back.append((cell, digit))
    return back


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


def pen_kept_as_print(givens: list[int], by_hand: dict[int, int]) -> list[tuple[int, int]]:
    """(cell, digit by hand) of the marks read by hand (`by_hand`: those taken out as unlike the print, then
    put back) kept as givens whose handwritten reading is another digit. Only marks unlike the print are
    asked: on the printed-only training photos the handwritten-digit model reads 907 of 3,604 printed givens
    as another digit."""
    return [(c, d) for c, d in by_hand.items() if givens[c] and d != givens[c]]
