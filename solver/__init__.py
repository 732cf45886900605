"""Sudoku solver: grid model, exact search (Algorithm X), human techniques, grading.

Knows nothing of pixels; works on 81-value grids (0 for empty).

The names below are imported on first use (PEP 562), so that importing one
module of the package (``snapsolve.solver.techniques`` for the level names of
``snapsolve --help``) does not load the technique finders.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_HOMES = {
    "Finished": "position",
    "InvalidPuzzleError": "grid",
    "Level": "techniques",
    "LogicError": "solve",
    "MULTIPLE_SOLUTIONS": "exact",
    "Mistake": "position",
    "NO_SOLUTION": "exact",
    "SOLVED": "exact",
    "Status": "status",
    "Solution": "solve",
    "Step": "steps",
    "Technique": "techniques",
    "find_mistakes": "position",
    "format_board": "grid",
    "format_puzzle": "grid",
    "parse_position": "position",
    "parse_puzzle": "grid",
    "remaining_steps": "position",
    "solve_puzzle": "solve",
    "solve_unique": "exact",
    "UnclearEntry": "position",
}

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

if TYPE_CHECKING:
    from .exact import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, solve_unique
    from .grid import InvalidPuzzleError, format_board, format_puzzle, parse_puzzle
    from .position import Finished, Mistake, UnclearEntry, find_mistakes, parse_position, remaining_steps
    from .solve import LogicError, Solution, solve_puzzle
    from .status import Status
    from .steps import Step
    from .techniques import Level, Technique


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
