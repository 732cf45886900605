"""The givens of a grid: the reading chosen, with the player's pen taken out and print put back.

`decide_givens` is the per-grid decision. When the most probable reading has
no single solution, pen that the cell classifier took for print is often the
cause (a wrong entry contradicts the givens), so the marks unlike the print are
taken out, in named steps, until the puzzle has one solution, and those it
needs are put back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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
from .written import SEPARATION_ROUNDS, needed_pen_warning, pen_kept_as_print, separate_written

#: Most givens taken out one at a time, beyond those unlike the print, while the reading has no solution or
#: one only by a dear repair (`decide_givens`' extra step); fitted with `benchmarks/handwriting.py`.
MAX_EXTRA_UNLIKE = 8


def decide_givens(probabilities: np.ndarray, looks: MarkLooks, search: str = "bitmask") -> Decision:
    """The printed puzzle of a grid: the most probable reading with one solution, the player's pen taken out.

    When the most probable reading (`choose_reading`) has one solution,
    `separate_written` takes out the pen the puzzle does not need. Otherwise
    the decision goes in steps, each on the marks taken out so far (the odd
    marks, read as no printed digit) and the reading chosen without them:

    1. take out: the givens of the most probable reading unlike the print
       (`unlike_the_print` at PEN_SCORE, those a repair would drop included);
    2. rounds (`_rounds`): while the reading has no solution, the marks kept
       are measured again without the odd ones, a cleaner print population,
       and those now unlike go too;
    3. extra (`_extra`): while it has no solution, or one only by a dear
       repair, the next most unlike given goes, one at a time;
    4. put back (`_put_back`): while it has several solutions, is unsure, or
       has one only by adding givens, the odd marks go back one at a time,
       each kept unless it leaves no solution; where print contradicts a
       given kept, that given goes instead;
    5. final checks (`_final_checks`): unsure when a mark put back is needed
       and the handwritten-digit model reads it otherwise, or when a mark
       surely printed was refused or contradicts the solution; else the marks
       surely printed that agree with the solution go back and
       `separate_written` runs on the result.

    When the steps end without one solution, the first decision stands. The
    log probability stays that of the classifier's own probabilities, so the
    confidence counts every mark taken out against the reading.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 10), float: as for `choose_reading`.
    looks : MarkLooks
        How the upright cells' marks look; what is not measured (None) does not count.
    search : str
        The exact search's engine (``"bitmask"`` or ``"dlx"``, see `solver.exact.search_engine`).

    Returns
    -------
    Decision
        ``written`` lists the cells read as print that were taken for pen.
    """
    decision = choose_reading(probabilities, search=search)
    if decision.status == SOLVED:
        return separate_written(decision, looks, search, probabilities)
    odd = _OddMarks(probabilities, looks, search)
    ranked = by_unlikeness(odd.read, looks, PEN_SCORE)
    unlike = [cell for cell, is_unlike in ranked if is_unlike]
    if not unlike:
        return decision
    odd.take_out(unlike)
    ranked = _rounds(odd, ranked)
    _extra(odd, [cell for cell, is_unlike in ranked if not is_unlike])
    by_hand = hand_readings(odd.cells, looks)  # every mark taken out, read once
    refused = _put_back(odd, by_hand)
    if odd.chosen.status != SOLVED:
        return decision
    return _final_checks(odd, by_hand, refused)


@dataclass
class _OddMarks:
    """`decide_givens`' marks taken out of the most probable reading, and the reading chosen without them.

    Attributes
    ----------
    probabilities : np.ndarray
        Shape (81, 10), float: the classifier's, as for `choose_reading`.
    looks : MarkLooks
        How the marks look.
    search : str
        The exact search's engine.
    read : list of int
        81 values: the most probable reading, every mark read as print included.
    without : np.ndarray
        Shape (81, 10), float64: `probabilities` with the odd marks read as surely no printed digit.
    cells : list of int
        The odd marks, in the order taken out.
    chosen : Decision
        `choose_reading` of `without`.
    """

    probabilities: np.ndarray
    looks: MarkLooks
    search: str
    read: list[int] = field(init=False)
    without: np.ndarray = field(init=False)
    cells: list[int] = field(init=False, default_factory=list)
    chosen: Decision = field(init=False)

    def __post_init__(self) -> None:
        self.read = [int(v) for v in np.asarray(self.probabilities).argmax(axis=1)]
        self.without = np.array(self.probabilities, np.float64)

    def kept(self) -> list[int]:
        """81 values: the most probable reading without the odd marks."""
        return [0 if c in self.cells else d for c, d in enumerate(self.read)]

    def choose(self) -> Decision:
        """`choose_reading` of `without` as it is now."""
        return choose_reading(self.without, search=self.search)

    def take_out(self, cells: list[int]) -> None:
        """Read `cells` as no printed digit, count them odd, and choose the reading again."""
        _read_as_empty(self.without, cells)
        self.cells += cells
        self.chosen = self.choose()


def _rounds(odd: _OddMarks, ranked: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
    """While the reading has no solution, up to SEPARATION_ROUNDS in all: the marks kept measured again
    against one another (`by_unlikeness` at PEN_SCORE) and those now unlike taken out. Returns the last
    ranking of the marks measured, `ranked` (the first) when none was taken out."""
    for _ in range(SEPARATION_ROUNDS - 1):
        if odd.chosen.status != NO_SOLUTION:
            break
        remeasured = by_unlikeness(odd.kept(), odd.looks, PEN_SCORE)
        more = [cell for cell, unlike in remeasured if unlike]
        if not more:
            break
        ranked = remeasured
        odd.take_out(more)
    return ranked


def _extra(odd: _OddMarks, next_unlike: list[int]) -> None:
    """While the reading has no solution, or one only by a dear repair (unsure), take out one more given at a
    time (at most MAX_EXTRA_UNLIKE; `_next_odd`); `next_unlike` are the givens not unlike the print, the most
    unlike first."""
    for _ in range(MAX_EXTRA_UNLIKE):
        chosen = odd.chosen
        if chosen.status != NO_SOLUTION and not (chosen.status == UNSURE and chosen.changes):
            break
        cell = _next_odd(odd, next_unlike)
        if cell < 0:
            break
        odd.take_out([cell])


def _next_odd(odd: _OddMarks, next_unlike: list[int]) -> int:
    """The given the extra step takes out next; -1 for none.

    First a mark whose digit the dear repair changed: a pen digit misread as
    print that contradicts the rest is taken out rather than changed. Not one
    that is print beyond doubt (`surely_print`), since then a kept pen digit is
    more likely what it contradicts, nor one more like the print (pen score)
    than the next most unlike given. Else the most unlike of the givens that
    repeat a digit in a house (`_most_unlike_repeat`), else the next most
    unlike given.
    """
    kept = odd.kept()
    following = next((c for c in next_unlike if c not in odd.cells), -1)
    changed = [
        c
        for c, read, _ in odd.chosen.changes
        if read and c not in odd.cells and not surely_print(c, read, kept, odd.probabilities, odd.looks)
    ]
    if changed and following >= 0:
        scores = pen_scores(kept, odd.looks)
        changed = [c for c in changed if scores.get(c, 0.0) >= scores.get(following, 0.0)]
    return changed[0] if changed else _most_unlike_repeat(kept, odd.looks, following)


def _put_back(odd: _OddMarks, by_hand: dict[int, int]) -> dict[int, bool]:
    """Put the odd marks back one at a time (`_put_back_order`) while the reading has several solutions, is
    unsure, or has one only by taking marks read as no printed digit for givens (a given the puzzle needs is
    among the odd marks); each stays back unless it leaves no solution (`_with_mark_back`).

    Returns the marks refused, each with whether it was refused while print beyond doubt against the givens
    kept then (`odd` holds the rest: its ``cells`` the marks still out, its ``chosen`` the reading).
    """
    refused: dict[int, bool] = {}
    for cell in _put_back_order(odd.cells, odd.read, by_hand, odd.looks):
        chosen = odd.chosen
        if chosen.status == NO_SOLUTION or (chosen.status == SOLVED and not _adds_givens(chosen)):
            break
        odd.without[cell] = odd.probabilities[cell]
        again, surely = _with_mark_back(odd, cell, by_hand)
        if again.status == NO_SOLUTION:
            _read_as_empty(odd.without, cell)
            refused[cell] = surely
        else:
            odd.chosen = again
            odd.cells = [c for c in odd.cells if c != cell]
    return refused


def _with_mark_back(odd: _OddMarks, cell: int, by_hand: dict[int, int]) -> tuple[Decision, bool]:
    """The reading with the odd mark `cell` back in ``odd.without``, and whether the mark is print beyond
    doubt that left no solution.

    Where the mark contradicts the givens kept, one of them may be the
    player's pen instead, and goes out in its place (added to ``odd.cells``):
    for print beyond doubt, the most unlike given kept (`_without_a_kept_given`);
    for a mark the handwritten-digit model reads as its printed digit, a kept
    given that may be pen misread as print (`_without_a_misread_given`); for a
    mark that leaves one solution only by a dear repair of a kept mark, the
    marks that repair changed (`_without_changed`).
    """
    again = odd.choose()
    read, givens = odd.read[cell], odd.chosen.givens
    surely = again.status == NO_SOLUTION and surely_print(cell, read, givens, odd.probabilities, odd.looks)
    instead: list[int] = []
    if surely:
        again, instead = _without_a_kept_given(odd, givens, cell, again)
    elif again.status == NO_SOLUTION and by_hand.get(cell, read) == read:
        again, instead = _without_a_misread_given(odd, givens, cell, again)
    elif again.status == UNSURE and again.changes:
        again, instead = _without_changed(odd, cell, again)
    odd.cells += instead
    return again, surely


def _final_checks(odd: _OddMarks, by_hand: dict[int, int], refused: dict[int, bool]) -> Decision:
    """The decision once the reading without the odd marks has one solution (``odd.chosen``).

    Unsure when a mark taken out as unlike the print, put back and needed, is
    read by hand as another digit (it may be pen misread as print, another
    puzzle); when a mark refused is print beyond doubt (refused while it was,
    or against the givens kept at the end, as pen put back later can make print
    look unlike the rest): a given kept is then wrong; or when a mark surely
    printed and still out contradicts the solution but no given of its houses.
    Else the marks surely printed that agree with the solution go back (a
    newspaper puzzle has givens it does not need) and `separate_written` takes
    out the pen left.
    """
    chosen = odd.chosen
    doubt = pen_kept_as_print(chosen.givens, by_hand)
    if doubt:
        return _unsure(odd, needed_pen_warning(chosen.givens, doubt))
    sure = [
        c
        for c, refused_sure in refused.items()
        if refused_sure or surely_print(c, odd.read[c], chosen.givens, odd.probabilities, odd.looks)
    ]
    if sure:
        detail = ", ".join(f"{cell_name(c)} read as printed {odd.read[c]}" for c in sure)
        return _unsure(odd, f"unsure of the digits read: marks surely printed contradict the other givens ({detail})")
    givens, against = _sure_print_back(odd)
    if against:
        detail = ", ".join(f"{cell_name(c)} read as printed {odd.read[c]}" for c in against)
        return _unsure(odd, f"unsure of the digits read: marks surely printed contradict the solution ({detail})")
    written = sorted(c for c in odd.cells if not givens[c])
    log_probability = log_probability_of(odd.probabilities, givens, written)
    again = Decision(givens, SOLVED, chosen.count, chosen.changes, chosen.warning, log_probability, written)
    return separate_written(again, odd.looks, odd.search, odd.probabilities)


def _sure_print_back(odd: _OddMarks) -> tuple[list[int], list[int]]:
    """The givens with the odd marks that are print beyond doubt and agree with the solution put back, and
    the odd marks surely printed that disagree with it but repeat no given of their row, column or box (a
    given kept may be pen, or a repair changed a sure reading: another puzzle)."""
    givens, solution = list(odd.chosen.givens), odd.chosen.solution
    against: list[int] = []
    if solution is None:
        return givens, against
    for cell in odd.cells:
        digit = odd.read[cell]
        if digit and surely_print(cell, digit, givens, odd.probabilities, odd.looks):
            if digit == solution[cell]:
                givens[cell] = digit
            elif not breaks_rules([digit if c == cell else d for c, d in enumerate(givens)]):
                against.append(cell)
    return givens, against


def _unsure(odd: _OddMarks, warning: str) -> Decision:
    """The reading without the odd marks, unsure, with `warning`."""
    chosen = odd.chosen
    log_probability = log_probability_of(odd.probabilities, chosen.givens, odd.cells)
    return Decision(chosen.givens, UNSURE, None, chosen.changes, warning, log_probability, sorted(odd.cells))


def _read_as_empty(probabilities: np.ndarray, cells: int | list[int]) -> None:
    """Set the rows of `cells` in `probabilities` (shape (81, 10), float, changed in place) to a sure
    "no printed digit": the marks taken out of the givens."""
    probabilities[cells] = 0.0
    probabilities[cells, 0] = 1.0


def _without_a_kept_given(odd: _OddMarks, givens: list[int], cell: int, failed: Decision) -> tuple[Decision, list[int]]:
    """A mark surely print (`cell`, back in ``odd.without``) left no solution (`failed`) with the `givens`
    kept: a kept given is then wrong. Take out the kept givens one at a time, the most unlike the print first
    (at most MAX_EXTRA_UNLIKE), until one solution is left or, for a given unlike the print (`by_unlikeness`
    at PEN_SCORE), until the reading has solutions at all (several while other marks are still out and may go
    back); then those that may be pen misread as print (`_without_a_misread_given`).

    Returns that decision and the cell taken out (``odd.without`` then marks it empty), or `failed` and no
    cell (``odd.without`` as it came).
    """
    kept = list(givens)
    kept[cell] = int(np.argmax(odd.without[cell]))
    tried = [(c, unlike) for c, unlike in by_unlikeness(kept, odd.looks, PEN_SCORE) if c != cell][:MAX_EXTRA_UNLIKE]
    for other, unlike in tried:
        trial = _chosen_without(odd, [other], repaired=True, several=unlike)
        if trial is not None:
            return trial, [other]
    return _without_a_misread_given(odd, givens, cell, failed)


def _without_a_misread_given(
    odd: _OddMarks, givens: list[int], cell: int, failed: Decision
) -> tuple[Decision, list[int]]:
    """A mark (`cell`, back in ``odd.without``) left no solution, or one only by a dear repair (`failed`),
    with the `givens` kept (81 values): take out the first kept given that may be pen misread as print
    (`read_otherwise_by_hand`) whose taking out leaves the reading with solutions (`_without_a_suspect`)."""
    kept = list(givens)
    kept[cell] = int(np.argmax(odd.without[cell]))
    suspects = read_otherwise_by_hand(kept, odd.without, odd.looks)
    return _without_a_suspect(odd, [c for c in suspects if c != cell], failed, repaired=True)


def _without_a_suspect(
    odd: _OddMarks, suspects: list[int], failed: Decision, repaired: bool
) -> tuple[Decision, list[int]]:
    """The first of `suspects` whose taking out leaves the reading with solutions (`_chosen_without` with
    `several`: one, or several while other marks are still out and may go back; with `repaired` False, none
    by a repair). Returns that decision and the cell taken out (``odd.without`` then marks it empty), or
    `failed` and no cell (``odd.without`` as it came)."""
    for other in suspects:
        trial = _chosen_without(odd, [other], repaired, several=True)
        if trial is not None:
            return trial, [other]
    return failed, []


def _chosen_without(odd: _OddMarks, cells: list[int], repaired: bool, several: bool = False) -> Decision | None:
    """`choose_reading` of ``odd.without`` with the marks of `cells` read as no printed digit: the decision
    when it is solved (with a repair only when `repaired`) or, with `several`, when it has solutions at all
    (several, or with `repaired` any but none: marks still out may go back), ``odd.without`` then keeping
    those cells empty; else None, ``odd.without`` as it came."""
    without = odd.without
    saved = without[cells].copy()
    _read_as_empty(without, cells)
    trial = odd.choose()
    if trial.status == SOLVED and (repaired or not trial.changes):
        return trial
    if several and (trial.status == MULTIPLE_SOLUTIONS or (repaired and trial.status != NO_SOLUTION)):
        return trial
    without[cells] = saved
    return None


def _without_changed(odd: _OddMarks, cell: int, unsure: Decision) -> tuple[Decision, list[int]]:
    """The reading ``odd.without`` (a mark, `cell`, just put back) has one solution only by a dear repair
    (`unsure`): a wrong pen digit kept, which the mark contradicts, may be the cause.

    The kept marks whose digit that repair changed (not `cell`) go out
    instead, when each is at least as unlike the print (`pen_scores` among the
    marks kept) as every other mark kept but `cell`, or when each may be pen
    misread as print (`read_otherwise_by_hand`), provided the reading is then
    solved with no repair: the puzzle without them keeps the repair's
    solution. Else the repair changed a mark like print, and a kept given that
    may be pen misread as print goes out instead (`_without_a_suspect`, no
    repair allowed).

    Returns the decision and the cells taken out (``odd.without`` then marks them empty), else `unsure` and
    no cell (``odd.without`` as it came).
    """
    changed = [c for c, read, _ in unsure.changes if read and c != cell]
    if not changed:
        return unsure, []
    kept = [int(v) for v in np.asarray(odd.without).argmax(axis=1)]
    scores = pen_scores(kept, odd.looks)
    others = [scores.get(c, 0.0) for c in range(81) if kept[c] and c not in changed and c != cell]
    most_unlike = not others or min(scores.get(c, 0.0) for c in changed) >= max(others)
    suspects = [] if most_unlike else read_otherwise_by_hand(kept, odd.without, odd.looks)
    if most_unlike or set(changed) <= set(suspects):
        again = _chosen_without(odd, changed, repaired=False)
        return (unsure, []) if again is None else (again, changed)
    spared = [c for c in suspects if c != cell and c not in changed]
    return _without_a_suspect(odd, spared, unsure, repaired=False)


def _put_back_order(odd: list[int], read: list[int], by_hand: dict[int, int], looks: MarkLooks) -> list[int]:
    """The taken-out marks `odd` (the most unlike first) in the order to put them back.

    First those the handwritten-digit model reads (`by_hand`, from
    `hand_readings`) as the digit read as print (`read`), or does not read;
    then those it reads otherwise (a pen digit misread as print, whose digit
    would make another puzzle). Within each, the least unlike first, measured
    again for each mark alone against the marks left (`read` without `odd`):
    the population the marks were first measured against held the pen too,
    which can make print look unlike. An ink of another colour comes last,
    then the pen score; without a print population left (fewer than
    MIN_POPULATION givens) the first order, reversed, stands.
    """
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
    of their houses (one of each such pair is not print), the most unlike the print (pen score, measured
    against `givens`); `following` (the next most unlike given) when none repeats."""
    repeats = repeated_cells(givens)
    if not repeats:
        return following
    scores = pen_scores(givens, looks)
    return max(repeats, key=lambda c: scores.get(c, 0.0))
