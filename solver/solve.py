"""Solving a puzzle end to end: logic first, exact search (`exact`) when it is needed.

Uniqueness techniques are only sound on a puzzle with exactly one solution, so
HoDoKu counts solutions before it solves. Counting costs more than solving an
easy puzzle, and most puzzles never reach a uniqueness step, so here the count
(exact search, stopping at two) runs lazily: the first time a uniqueness
technique has a step to offer, or when logic stops short. A puzzle that logic
completes without it has exactly one solution: every step was forced by the
givens. When logic gets stuck, the exact search's solution completes the grid
and `needs_search` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board
from .exact import DEFAULT_SEARCH, NO_SOLUTION, SOLVED, SearchResult, solve_unique
from .grading import grade, technique_counts
from .grid import InvalidPuzzleError, cell_name, check_givens, digits_of, is_valid_solution
from .logic import LogicResult, solve_logically
from .position import Mistake, find_mistakes, remaining_logic, warn_deprecated
from .status import Status
from .steps import Step
from .techniques import Level, Technique


class LogicError(AssertionError):
    """A logical step contradicted the puzzle's unique solution: a bug in a technique finder, never bad input."""


@dataclass
class Solution:
    """Everything known about one puzzle.

    Attributes
    ----------
    givens : list of int
        The puzzle, 81 values, 0 for empty.
    status : Status
        ``SOLVED``, ``NO_SOLUTION`` or ``MULTIPLE_SOLUTIONS``.
    solution : list of int or None
        81 values when solved.
    steps : list of Step
        Logical steps applied (empty unless solved).
    needs_search : bool
        True when logic alone did not finish.
    level : Level or None
        HoDoKu level (easy .. extreme) when solved.
    score : int or None
        HoDoKu score when solved.
    entries : list of int
        81 values: the player's entries, digits written in by hand (0 elsewhere).
    mistakes : list of Mistake
        Entries that differ from the solution (empty unless solved).
    remaining : list of Step
        Logical steps from the player's position (givens plus entries)
        to the end: the same as `steps` when nothing is entered, empty when an
        entry is a mistake.
    budget_exhausted : int
        How many chain searches of the logical solve gave up on running out
        of their budget (`Board.budget_exhausted`); 0 when none did. Such a
        search may have missed a chain, so a path with a count above 0 may
        differ from the one an unbounded search gives.
    search : Step or None
        Where the `remaining` steps stop short of the end: the exact search's
        step (`search_step`: the cells still empty, their candidates left, the
        search's digits); None when logic finishes from the player's position.
    """

    givens: list[int]
    status: Status
    solution: list[int] | None = None
    steps: list[Step] = field(default_factory=list)
    needs_search: bool = False
    level: Level | None = None
    score: int | None = None
    entries: list[int] = field(default_factory=lambda: [0] * 81)
    mistakes: list[Mistake] = field(default_factory=list)
    remaining: list[Step] = field(default_factory=list)
    budget_exhausted: int = 0
    search: Step | None = None

    @property
    def techniques(self) -> dict[str, int]:
        """Technique name -> number of steps that used it."""
        return technique_counts(self.steps)

    @property
    def placed(self) -> list[int]:
        """Deprecated name of `entries` (removed in snapsolve 0.3.0; docs/json.md, "Changes").

        Warns
        -----
        DeprecationWarning
            Always: read `entries`.
        """
        warn_deprecated("Solution.placed", "Solution.entries")
        return self.entries


def solve_puzzle(
    givens: list[int],
    known: SearchResult | None = None,
    entries: list[int] | None = None,
    search: str = DEFAULT_SEARCH,
    *,
    placed: list[int] | None = None,
) -> Solution:
    """Solve logically, counting solutions by exact search only when needed, with search fallback.

    Parameters
    ----------
    givens : list of int
        81 values, 0 for empty. Conflicting givens give ``"no_solution"``
        (`grid.check_givens` says which digits conflict).
    known : SearchResult, optional
        The exact search's count of these givens, when the caller has it.
    entries : list of int, optional
        81 values: the player's entries, digits written in by hand (0
        elsewhere). They never change the puzzle, its status or its grade;
        they are checked against the solution (`Solution.mistakes`) and the
        `remaining` steps start from them.
    search : str
        The exact search's engine, ``"bitmask"`` or ``"dlx"`` (see
        `exact.search_engine`); the result is the same with either.
    placed : list of int, optional
        Deprecated name of `entries` (keyword only; removed in snapsolve 0.3.0).

    Returns
    -------
    Solution

    Raises
    ------
    TypeError
        Both `entries` and its deprecated name `placed` are given.
    ValueError
        `search` names no engine.
    LogicError
        A logical step contradicted the unique solution (a finder's bug):
        see `check_steps`. The exact search's solution never replaces a
        logical path that breaks the rules.

    Warns
    -----
    DeprecationWarning
        `placed` is given (use `entries`).
    """
    if placed is not None:
        if entries is not None:
            raise TypeError("solve_puzzle() takes entries or its deprecated name placed, not both")
        warn_deprecated("solve_puzzle(placed=...)", "solve_puzzle(entries=...)")
        entries = placed
    entries = list(entries) if entries is not None else [0] * 81
    try:
        check_givens(givens)
    except InvalidPuzzleError:
        return Solution(list(givens), NO_SOLUTION, entries=entries)
    counted: list[SearchResult] = [known] if known is not None else []

    def count() -> SearchResult:
        if not counted:
            counted.append(solve_unique(givens, search=search))
        return counted[0]

    logic = solve_logically(givens, unique=lambda: count().status == SOLVED)
    exact = None if logic.solved else count()
    if exact is not None and exact.status != SOLVED:
        return Solution(list(givens), exact.status, entries=entries, budget_exhausted=logic.board.budget_exhausted)
    return _solved(givens, entries, logic, _checked_solution(givens, logic, exact))


def _checked_solution(givens: list[int], logic: LogicResult, exact: SearchResult | None) -> list[int]:
    """The solution: the grid logic filled, or else the exact search's (`exact`, solved); the logical steps
    checked against it (`check_steps`).

    Raises
    ------
    LogicError
        Logic filled the grid wrongly, a step contradicts the solution, or the steps broke the grid.
    """
    if exact is None:
        if not is_valid_solution(givens, logic.board.values):
            raise LogicError(f"logical steps filled the grid with a wrong solution ({_last_techniques(logic.steps)})")
        solution = logic.board.values
        check_steps(logic.steps, solution)
        return solution
    assert exact.solution is not None  # a solved search carries its solution
    solution = exact.solution
    check_steps(logic.steps, solution)  # names the first false step
    if logic.board.is_broken():
        raise LogicError(f"logical steps broke the grid ({_last_techniques(logic.steps)})")
    return solution


def _solved(givens: list[int], entries: list[int], logic: LogicResult, solution: list[int]) -> Solution:
    """The `Solution` of a puzzle with one solution: its grade, the entries' mistakes, and the steps from the
    player's position (none when an entry is wrong), ending with the exact search's step where logic stops short.

    Raises
    ------
    LogicError
        A step from the player's position contradicts the solution (`check_steps`).
    """
    needs_search = not logic.solved
    level, score = grade(logic.steps, needs_search)
    mistakes = find_mistakes(entries, solution)
    searched = None  # the exact search's step, where logic from the position stops short
    if not any(entries):
        remaining = logic.steps
        searched = None if logic.solved else search_step(logic.board, solution)
    elif mistakes:
        remaining = []
    else:
        from_position = remaining_logic(givens, entries, unique=lambda: True)
        remaining = from_position.steps
        check_steps(remaining, solution)
        searched = None if from_position.solved else search_step(from_position.board, solution)
    return Solution(
        list(givens),
        SOLVED,
        list(solution),
        logic.steps,
        needs_search,
        level,
        score,
        entries,
        mistakes,
        remaining,
        logic.board.budget_exhausted,
        searched,
    )


def search_step(board: Board, solution: list[int]) -> Step:
    """Where logic stopped short: the exact search's step (technique ``brute_force``) that finishes the grid.

    Parameters
    ----------
    board : Board
        The board where logic found no further step (not solved, not broken).
    solution : list of int
        81 values, the exact search's solution.

    Returns
    -------
    Step
        ``cells``: the cells still empty, in order; ``cell_sets``: each of them
        (one cell) with the candidates logic left it; ``placements``: the
        search's digit in each. Its text: `explain` (``Brute Force: ...``).
    """
    empty = tuple(c for c in range(81) if not board.values[c])
    return Step(
        Technique.BRUTE_FORCE,
        placements=tuple((c, solution[c]) for c in empty),
        cells=empty,
        cell_sets=tuple(((c,), digits_of(board.candidates[c])) for c in empty),
    )


def check_steps(steps: list[Step], solution: list[int]) -> None:
    """Raise `LogicError` unless every step agrees with the unique solution.

    Parameters
    ----------
    steps : list of Step
        Logical steps, in the order applied.
    solution : list of int
        The unique solution, 81 values.

    Raises
    ------
    LogicError
        A placement that differs from the solution, or an elimination of the
        solution's digit: a bug in the finder that made the step. The
        solution is never substituted for the steps (a soundness bug must
        show, not be hidden).
    """
    truth = set(enumerate(solution))  # the solution's (cell, digit) pairs
    for k, step in enumerate(steps):
        if truth.issuperset(step.placements) and truth.isdisjoint(step.eliminations):
            continue
        wrong = [(c, d) for c, d in step.placements if solution[c] != d]
        wrong += [(c, d) for c, d in step.eliminations if solution[c] == d]
        if wrong:
            c, d = wrong[0]
            raise LogicError(
                f"step {k + 1} ({step.technique}) {'places' if (c, d) in step.placements else 'removes'} "
                f"{d} at {cell_name(c)}, against the unique solution: {step.text}"
            )


def _last_techniques(steps: list[Step]) -> str:
    """The techniques of the last few steps, for a LogicError's message."""
    return "last steps: " + ", ".join(s.technique for s in steps[-3:]) if steps else "no steps"
