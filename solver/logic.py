"""The logical solver: apply the simplest available technique, one step at a time.

As HoDoKu does, every pass asks the finders in ladder order (simplest first)
for one step, applies the first step found and starts again from the top, so
the step log reads like a person's solution path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .board import Board
from .singles import find_full_house, find_hidden_single, find_naked_single
from .steps import Step

Finder = Callable[[Board], Iterator[Step]]

#: (technique family, finder) in the order a person tries them.
LADDER: list[tuple[str, Finder]] = [
    ("full_house", find_full_house),
    ("naked_single", find_naked_single),
    ("hidden_single", find_hidden_single),
]


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


def next_step(board: Board, ladder: list[tuple[str, Finder]] | None = None) -> Step | None:
    """The simplest step available on `board`, or None when logic is stuck."""
    for _, finder in ladder or LADDER:
        step = next(finder(board), None)
        if step is not None:
            return step
    return None


def solve_logically(grid: list[int], ladder: list[tuple[str, Finder]] | None = None,
                    max_steps: int = 2000) -> LogicResult:
    """Apply logical steps until the grid is solved, broken or stuck.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty.
    ladder : list, optional
        Finders to use, simplest first; defaults to `LADDER`.
    max_steps : int
        Safety bound on the number of steps.

    Returns
    -------
    LogicResult
    """
    board = Board(grid)
    steps: list[Step] = []
    while len(steps) < max_steps and not board.is_solved() and not board.is_broken():
        step = next_step(board, ladder)
        if step is None:
            break
        board.apply(step)
        steps.append(step)
    return LogicResult(board, steps)
