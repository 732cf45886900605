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
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..solver import SOLVED, InvalidPuzzleError, Status
from ..solver.exact import SearchResult, solve_unique
from ..solver.grid import check_givens

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


#: Platt scaling of a decision's log probability into the probability that every given is right:
#: P = 1 / (1 + exp(-(CONFIDENCE_INTERCEPT + CONFIDENCE_SLOPE * log_probability))), the log odds lowered by
#: CONFIDENCE_NOT_SOLVED for a reading unsure or without a single solution. Fitted by ``python
#: benchmarks/calibration.py --fit`` on synthetic photos apart from those its reliability table reports
#: (`docs/confidence.md`).
CONFIDENCE_INTERCEPT = 4.033
CONFIDENCE_SLOPE = 0.1599
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


def log_probability_of(probabilities: np.ndarray, givens: list[int], written: Iterable[int] = ()) -> float:
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
        if breaks_rules(reading):
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
        return Decision(best, first.status, log_probability=log_probability_of(probabilities, best))
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
            log_probability_of(probabilities, givens),
        )
    warning = f"repaired the reading: {_describe(changes)}" if changes else None
    return Decision(givens, SOLVED, count, changes, warning, log_probability_of(probabilities, givens))


def breaks_rules(givens: list[int]) -> bool:
    try:
        check_givens(givens)
    except InvalidPuzzleError:
        return True
    return False
