"""The givens of a grid: the reading chosen, marks unlike the print taken out and put back as the puzzle needs."""

from __future__ import annotations

import math

import numpy as np

from ..solver import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED
from ..solver.grid import cell_name, repeated_cells
from .looks import (
    PEN_SCORE,
    MarkLooks,
    by_unlikeness,
    colour_outliers,
    hand_readings,
    pen_scores,
    read_otherwise_by_hand,
    surely_print,
)
from .reading import UNSURE, Decision, breaks_rules, choose_reading, log_probability_of
from .written import SEPARATION_ROUNDS, pen_kept_as_print, separate_written

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
    another digit, `read_otherwise_by_hand`); when a mark not surely
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
    ranked = by_unlikeness(most_probable, looks, PEN_SCORE)
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
        remeasured = by_unlikeness(left, looks, PEN_SCORE)
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
            if read and c not in odd and not surely_print(c, read, kept, probabilities, looks)
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
    by_hand = hand_readings(odd, looks)  # every mark taken out, read once
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
        surely = again.status == NO_SOLUTION and surely_print(
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
    log_probability = log_probability_of(probabilities, second.givens, odd)
    doubt = pen_kept_as_print(second.givens, by_hand)
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
        if c in refused_sure or surely_print(c, most_probable[c], second.givens, probabilities, looks)
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
            if digit and surely_print(cell, digit, givens, probabilities, looks):
                if digit == solution[cell]:
                    givens[cell] = digit
                elif not breaks_rules([digit if c == cell else d for c, d in enumerate(givens)]):
                    against.append(cell)
        if against:
            # a mark surely printed, taken out, contradicts the solution but not the givens kept (a mark that
            # repeats a given of its row, column or box is the odd one): a given kept may be a pen digit, or
            # a repair may have changed a sure reading, and either can make another puzzle
            detail = ", ".join(f"{cell_name(c)} read as printed {most_probable[c]}" for c in against)
            warning = f"unsure of the digits read: marks surely printed contradict the solution ({detail})"
            return Decision(second.givens, UNSURE, None, second.changes, warning, log_probability, sorted(odd))
    odd = [c for c in odd if not givens[c]]
    log_probability = log_probability_of(probabilities, givens, odd)
    again = Decision(givens, SOLVED, second.count, second.changes, second.warning, log_probability, sorted(odd))
    return separate_written(again, looks, search, probabilities)


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
    PEN_SCORE, or an ink outlier: `by_unlikeness`), until the reading has a solution (several while
    other marks are still out and may go back); then those that may be pen misread as print
    (`read_otherwise_by_hand`), until the reading has a solution (one, or several while other marks are
    still out). Returns that decision and the cell taken out (`without` then marks it empty), or `failed`
    and no cell (`without` as it came)."""
    kept = list(givens)
    kept[cell] = int(np.argmax(without[cell]))
    tried = [(c, unlike) for c, unlike in by_unlikeness(kept, looks, PEN_SCORE) if c != cell][:MAX_EXTRA_UNLIKE]
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
    print (`read_otherwise_by_hand`, or `suspects` when the caller has them already; not `cell` nor those
    of `spare`), the first whose taking out leaves the reading with solutions (`_chosen_without` with
    `several`: one, or several while other marks are still out and may go back; with `repaired` False, none
    by a repair). Returns that decision and the cell taken out (`without` then marks it empty), or `failed`
    and no cell (`without` as it came)."""
    if suspects is None:
        kept = list(givens)
        kept[cell] = int(np.argmax(without[cell]))
        suspects = read_otherwise_by_hand(kept, without, looks)
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
    (`read_otherwise_by_hand`). Else a kept mark more like a pen digit, not the one changed, may be what
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
    suspects = [] if most_unlike else read_otherwise_by_hand(kept, without, looks)
    if most_unlike or set(changed) <= set(suspects):
        again = _chosen_without(without, changed, search, repaired=False)
        return (unsure, []) if again is None else (again, changed)
    # the repair changes a mark that looks like print: a kept given that may be pen misread as print, and
    # that the mark contradicts, out instead (the reading then without repair; other marks may still go back)
    return _without_a_misread_given(
        without, kept, cell, looks, search, unsure, repaired=False, spare=changed, suspects=suspects
    )


def _put_back_order(odd: list[int], read: list[int], by_hand: dict[int, int], looks: MarkLooks) -> list[int]:
    """The taken-out marks `odd` (the most unlike first) in the order to put them back: those the
    handwritten-digit model reads (`by_hand`, from `hand_readings`) as the digit read as print (`read`), or
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
            colour = cell in colour_outliers(cells, looks.inks, looks.ruling)
            unlike[cell] = (colour, scores[cell], rank[cell])
    order = sorted(odd, key=lambda c: unlike.get(c, (True, math.inf, rank[c])))
    alike = [c for c in order if by_hand.get(c, read[c]) == read[c]]
    return alike + [c for c in order if c not in alike]


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
