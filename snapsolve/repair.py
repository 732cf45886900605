"""Consistency repair: the most probable reading of a grid that is a proper puzzle.

A classifier alone turns one misread digit into "no solution". Knowing the
rules does better: when the most probable reading breaks a rule or has no or
several solutions, readings are tried in order of decreasing probability
(changing up to MAX_CHANGES cells to their next most probable class, empty
included) until one has exactly one solution. A reading is reported as
``unsure`` instead of solved when it needed unlikely changes, or when a
nearly-as-probable reading also has exactly one solution: then the photo does
not say which puzzle it shows, and a wrong solution must not be presented as
right.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from solver import SOLVED, InvalidPuzzleError, Solution, solve_puzzle
from solver.dlx import SearchResult, solve_unique
from solver.grid import check_givens

#: Most cells changed from their most probable class.
MAX_CHANGES = 3
#: Most readings handed to Dancing Links during one repair.
MAX_SEARCHES = 60
#: Alternatives less probable than this are not tried.
MIN_ALTERNATIVE_PROBABILITY = 0.005
#: A repair whose changes are jointly this much less probable than the
#: reading they replace is unsure (log of the probability ratio).
MAX_REPAIR_COST = math.log(40.0)
#: A second uniquely solvable reading within this factor of the best one makes
#: the grid ambiguous (log of the probability ratio).
AMBIGUITY_COST = math.log(8.0)

UNSURE = "unsure"


@dataclass
class Decision:
    """The reading chosen for a grid and how sure it is.

    Attributes
    ----------
    givens : list of int
        81 values, 0 for empty: the reading solved (or the most probable one).
    solution : Solution
        Solver result for `givens`; its status is ``unsure`` when the reading
        cannot be trusted.
    changes : list of (int, int, int)
        (cell, digit read, digit used) for every repaired cell.
    warning : str or None
        One line for a person when the reading was repaired or is unsure.
    """

    givens: list[int]
    solution: Solution
    changes: list[tuple[int, int, int]] = field(default_factory=list)
    warning: str | None = None


def _alternatives(probabilities: np.ndarray) -> list[tuple[float, int, int]]:
    """(cost, cell, class) for every plausible other class of every cell, cheapest first."""
    best = probabilities.argmax(axis=1)
    out = []
    for cell in range(81):
        p_best = probabilities[cell, best[cell]]
        for cls in np.argsort(-probabilities[cell])[1:3]:
            p = probabilities[cell, cls]
            if p >= MIN_ALTERNATIVE_PROBABILITY:
                out.append((math.log(p_best / p), cell, int(cls)))
    out.sort()
    return out


def _readings_by_cost(options: list[tuple[float, int, int]]):
    """Subsets of `options` (at most MAX_CHANGES, one per cell) in order of total cost."""
    if not options:
        return
    heap = [(options[0][0], (0,))]
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
        return str(d) if d else "empty"
    return ", ".join(f"r{c // 9 + 1}c{c % 9 + 1} read as {name(a)}, taken as {name(b)}" for c, a, b in changes)


def choose_reading(probabilities: np.ndarray) -> Decision:
    """The most probable reading with exactly one solution, or an honest failure.

    Parameters
    ----------
    probabilities : np.ndarray
        Shape (81, 10), float: per cell, probability of empty (column 0) and
        of digits 1..9.

    Returns
    -------
    Decision
        Status ``solved`` (possibly repaired, with a warning), ``unsure``,
        ``no_solution`` or ``multiple_solutions`` (the most probable reading's
        own status when no repair was found).
    """
    best = [int(v) for v in probabilities.argmax(axis=1)]
    options = _alternatives(probabilities)
    first = solve_unique(best)  # conflicting givens count as no solution
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
        count = solve_unique(reading)
        if count.status == SOLVED:
            found.append((cost, chosen, count))
            if len(found) == 2:
                break
    if not found:
        return Decision(best, Solution(best, first.status))
    cost, chosen, count = found[0]
    givens = list(best)
    changes = []
    for i in chosen:
        _, cell, cls = options[i]
        changes.append((cell, best[cell], cls))
        givens[cell] = cls
    if len(found) > 1 or cost > MAX_REPAIR_COST:
        why = ("another reading fits as well" if len(found) > 1 else "the repair needs unlikely changes")
        detail = f" ({_describe(changes)})" if changes else ""
        return Decision(givens, Solution(givens, UNSURE), changes, f"unsure of the digits read: {why}{detail}")
    warning = f"repaired the reading: {_describe(changes)}" if changes else None
    return Decision(givens, solve_puzzle(givens, known=count), changes, warning)


def _breaks_rules(givens: list[int]) -> bool:
    try:
        check_givens(givens)
    except InvalidPuzzleError:
        return True
    return False
