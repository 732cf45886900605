"""Solving a puzzle end to end: uniqueness first, then logic, then search.

As HoDoKu does, solutions are counted first (Dancing Links, stopping at two);
only a puzzle with exactly one solution goes through the logical solver (the
uniqueness techniques of later ladders are only sound then). When logic gets
stuck, the Dancing Links solution completes the grid and `needs_search` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .dlx import SOLVED, solve_unique
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


def solve_puzzle(givens: list[int]) -> Solution:
    """Count solutions, then solve a unique puzzle logically with search fallback.

    Parameters
    ----------
    givens : list of int
        81 values, 0 for empty. Conflicting givens give ``"no_solution"``.

    Returns
    -------
    Solution
    """
    exact = solve_unique(givens)
    if exact.status != SOLVED:
        return Solution(list(givens), exact.status)
    logic = solve_logically(givens)
    needs_search = not logic.solved
    level, score = grade(logic.steps, needs_search)
    return Solution(list(givens), SOLVED, exact.solution, logic.steps, needs_search, level, score)
