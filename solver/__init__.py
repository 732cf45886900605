"""Sudoku solver: grid model, exact search (Algorithm X), human techniques, grading.

Knows nothing of pixels; works on 81-value grids (0 for empty).
"""

from .exact import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, solve_unique
from .grid import InvalidPuzzleError, format_board, format_puzzle, parse_puzzle
from .position import Finished, Mistake, UnclearEntry, find_mistakes, parse_position, remaining_steps
from .solve import LogicError, Solution, solve_puzzle
from .status import Status
from .steps import Step
from .techniques import Level, Technique

__all__ = [
    "Finished",
    "InvalidPuzzleError",
    "Level",
    "LogicError",
    "MULTIPLE_SOLUTIONS",
    "Mistake",
    "NO_SOLUTION",
    "SOLVED",
    "Status",
    "Solution",
    "Step",
    "Technique",
    "find_mistakes",
    "format_board",
    "format_puzzle",
    "parse_position",
    "parse_puzzle",
    "remaining_steps",
    "solve_puzzle",
    "solve_unique",
    "UnclearEntry",
]
