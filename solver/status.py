"""`Status`: what a puzzle's givens allow, the ``status`` of a grid in the JSON (`docs/DESIGN.md`)."""

from __future__ import annotations

from .strenum import StrEnum


class Status(StrEnum):
    """A grid's status; each member is its JSON string (``Status.SOLVED == "solved"``).

    The exact search (`solver.exact.solve_unique`) tells the first three apart;
    ``UNSURE`` is the reading's, not the puzzle's: snapsolve's repair
    (`snapsolve.repair.decide_givens`) sets it when no reading of a photo's
    digits is sure enough to name the puzzle.
    """

    SOLVED = "solved"
    NO_SOLUTION = "no_solution"
    MULTIPLE_SOLUTIONS = "multiple_solutions"
    UNSURE = "unsure"
