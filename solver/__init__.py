"""Sudoku solver: grid model, Dancing Links, human techniques, grading.

Knows nothing of pixels; works on 81-value grids (0 for empty).
"""

from .dlx import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, solve_unique
from .grid import InvalidPuzzleError, format_board, format_puzzle, parse_puzzle
from .solve import Solution, solve_puzzle
from .steps import Step

__all__ = [
    "InvalidPuzzleError", "MULTIPLE_SOLUTIONS", "NO_SOLUTION", "SOLVED", "Solution", "Step",
    "format_board", "format_puzzle", "parse_puzzle", "solve_puzzle", "solve_unique",
]
