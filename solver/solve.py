"""Solving a puzzle end to end: logic first, Dancing Links when it is needed.

Uniqueness techniques are only sound on a puzzle with exactly one solution, so
HoDoKu counts solutions before it solves. Counting costs more than solving an
easy puzzle, and most puzzles never reach a uniqueness step, so here the count
(Dancing Links, stopping at two) runs lazily: the first time a uniqueness
technique has a step to offer, or when logic stops short. A puzzle that logic
completes without it has exactly one solution: every step was forced by the
givens. When logic gets stuck, the Dancing Links solution completes the grid
and `needs_search` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .dlx import NO_SOLUTION, SOLVED, SearchResult, solve_unique
from .grid import InvalidPuzzleError, check_givens, is_valid_solution
from .grading import grade, technique_counts
from .logic import solve_logically
from .steps import Step


@dataclass
class Solution:
    """Everything known about one puzzle.

    Attributes
    ----------
    givens : list of int
        The puzzle, 81 values, 0 for empty.
    status : str
        ``"solved"``, ``"no_solution"`` or ``"multiple_solutions"``.
    solution : list of int or None
        81 values when solved.
    steps : list of Step
        Logical steps applied (empty unless solved).
    needs_search : bool
        True when logic alone did not finish.
    level : str or None
        HoDoKu level (easy .. extreme) when solved.
    score : int or None
        HoDoKu score when solved.
    """

    givens: list[int]
    status: str
    solution: list[int] | None = None
    steps: list[Step] = field(default_factory=list)
    needs_search: bool = False
    level: str | None = None
    score: int | None = None

    @property
    def techniques(self) -> dict[str, int]:
        """Technique name -> number of steps that used it."""
        return technique_counts(self.steps)


def solve_puzzle(givens: list[int], known: SearchResult | None = None) -> Solution:
    """Solve logically, counting solutions by Dancing Links only when needed, with search fallback.

    Parameters
    ----------
    givens : list of int
        81 values, 0 for empty. Conflicting givens give ``"no_solution"``
        (`grid.check_givens` says which digits conflict).
    known : SearchResult, optional
        The Dancing Links count of these givens, when the caller has it.

    Returns
    -------
    Solution
    """
    try:
        check_givens(givens)
    except InvalidPuzzleError:
        return Solution(list(givens), NO_SOLUTION)
    counted: list[SearchResult] = [known] if known is not None else []

    def count() -> SearchResult:
        if not counted:
            counted.append(solve_unique(givens))
        return counted[0]

    logic = solve_logically(givens, unique=lambda: count().status == SOLVED)
    if logic.solved and is_valid_solution(givens, logic.board.values):
        solution = logic.board.values
    else:
        exact = count()
        if exact.status != SOLVED:
            return Solution(list(givens), exact.status)
        solution = exact.solution
    needs_search = not logic.solved
    level, score = grade(logic.steps, needs_search)
    return Solution(list(givens), SOLVED, list(solution), logic.steps, needs_search, level, score)
