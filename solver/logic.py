"""The logical solver: apply the simplest available technique, one step at a time.

As HoDoKu does, every pass asks the finders in ladder order (simplest first)
for one step, applies the first step found and starts again from the top, so
the step log reads like a person's solution path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import Board
from .ladder import LADDER, Finder
from .steps import Step
from .techniques import UNIQUENESS_TECHNIQUES

__all__ = ["LADDER", "LogicResult", "next_step", "solve_logically"]


@dataclass
class LogicResult:
    """What logic alone achieved.

    Attributes
    ----------
    board : Board
        The state when logic stopped (solved, stuck or broken).
    steps : list of Step
        Steps in the order applied.
    """

    board: Board
    steps: list[Step]

    @property
    def solved(self) -> bool:
        """True when logic filled every cell."""
        return self.board.is_solved()


def next_step(
    board: Board, ladder: list[tuple[str, Finder]] | None = None, unique: Callable[[], bool] | None = None
) -> Step | None:
    """The simplest step available on `board`, or None when logic is stuck.

    Parameters
    ----------
    board : Board
    ladder : list, optional
        Finders, simplest first; defaults to `LADDER`.
    unique : callable, optional
        Asked (once a uniqueness technique has a step to offer) whether the
        puzzle has exactly one solution; uniqueness steps are skipped when it
        answers False. Without it they are used (the caller vouches).
    """
    for _, finder in ladder or LADDER:
        step = next(finder(board), None)
        if step is None:
            continue
        if step.technique in UNIQUENESS_TECHNIQUES and unique is not None and not unique():
            continue
        return step
    return None


def solve_logically(
    grid: list[int],
    ladder: list[tuple[str, Finder]] | None = None,
    max_steps: int = 2000,
    unique: Callable[[], bool] | None = None,
) -> LogicResult:
    """Apply logical steps until the grid is solved, broken or stuck.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty.
    ladder : list, optional
        Finders to use, simplest first; defaults to `LADDER`.
    max_steps : int
        Safety bound on the number of steps.
    unique : callable, optional
        See `next_step`: asked before the first uniqueness step is used.

    Returns
    -------
    LogicResult
    """
    board = Board(grid)
    steps: list[Step] = []
    while len(steps) < max_steps and not board.is_solved() and not board.is_broken():
        step = next_step(board, ladder, unique)
        if step is None:
            break
        board.apply(step)
        steps.append(step)
    return LogicResult(board, steps)
