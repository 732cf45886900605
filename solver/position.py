"""A player's position: the printed givens plus the player's entries (the digits written in by hand).

A puzzle in progress is two grids: the givens (the puzzle itself, which alone
decides the solution, the grade and whether there is exactly one solution)
and the player's entries. Entries are checked against the
unique solution (`find_mistakes`), and hints and explanations continue from
where the player stands (`remaining_steps`): the same logical ladder, started
from givens plus entries.

Text form (`parse_position`): the puzzle's 81 characters, then, after
whitespace, optionally 81 more for the entries (``.`` or ``0`` where
nothing is entered)::

    ..2.3.6....  ...1.......
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

from .grid import InvalidPuzzleError, cell_name, parse_grid_rows, parse_puzzle
from .logic import LogicResult, solve_logically
from .steps import Step

#: Cells named at most in the error for entries that differ from the givens under them (then "…").
CLASHES_NAMED = 5


def warn_deprecated(old: str, new: str) -> None:
    """Warn that `old`, a name of the player's digits before ``entries`` (issue 26), is deprecated for `new`.

    The old names go in snapsolve 0.3.0 (docs/json.md, "Changes"). Warns a
    `DeprecationWarning` pointing at the caller of the deprecated name.
    """
    warnings.warn(f"{old} is deprecated, use {new} (removed in snapsolve 0.3.0)", DeprecationWarning, stacklevel=3)


@dataclass(frozen=True)
class Mistake:
    """An entry that the unique solution does not have.

    Attributes
    ----------
    cell : int
        0..80, ``row * 9 + column``.
    entry : int
        The digit entered, 1..9.
    solution : int
        The solution's digit there, 1..9.
    """

    cell: int
    entry: int
    solution: int

    @property
    def entered(self) -> int:
        """Deprecated name of `entry` (the JSON key ``entered`` until snapsolve 0.3, see `docs/DESIGN.md`).

        Warns
        -----
        DeprecationWarning
            Always: read `entry`.
        """
        warn_deprecated("Mistake.entered", "Mistake.entry")
        return self.entry

    @property
    def text(self) -> str:
        """The mistake in words, without giving the right digit away: ``r3c5: the 7 is wrong``."""
        return f"{cell_name(self.cell)}: the {self.entry} is wrong"


def _article(digit: int) -> str:
    return f"an {digit}" if digit == 8 else f"a {digit}"


@dataclass(frozen=True)
class UnclearEntry:
    """A handwritten digit whose reading is not certain enough to call it right or wrong.

    Attributes
    ----------
    cell : int
        0..80, ``row * 9 + column``, upright.
    read : int
        The most probable reading, 1..9.
    alternatives : tuple of int
        Other digits the mark may be, most probable first (1..9, never `read`).
    """

    cell: int
    read: int
    alternatives: tuple[int, ...]

    @property
    def text(self) -> str:
        """The question for the player: ``r2c7: is this an 8 or a 9?``."""
        options = [_article(d) for d in (self.read, *self.alternatives)]
        choice = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
        return f"{cell_name(self.cell)}: is this {choice}?"


@dataclass(frozen=True)
class Finished:
    """The hint for a complete grid whose every entry is right: there is nothing left to do."""

    cells: tuple[int, ...] = ()
    text: str = "solved: the grid is complete and every entry is right"

    @classmethod
    def of(cls, entries: int) -> Finished:
        """The verdict on a grid the player completed with `entries` entries, every one right:
        ``solved: all 55 entries are right`` (the general text for none)."""
        if entries == 0:
            return cls()
        if entries == 1:
            return cls(text="solved: the one entry is right")
        return cls(text=f"solved: all {entries} entries are right")


def parse_position(text: str) -> tuple[list[int], list[int]]:
    """Parse a puzzle, in any of `grid.LAYOUTS`, with the player's entries after a puzzle's line.

    Parameters
    ----------
    text : str
        One line: 81 puzzle characters (see `grid.parse_puzzle`), optionally
        followed by whitespace and 81 characters of entries (``1``-``9``, and
        ``.`` or ``0`` elsewhere); any other trailing text (a rating) is
        ignored. Or several lines: a puzzle typed in rows
        (`grid.parse_grid_rows`), without entries.

    Returns
    -------
    (list of int, list of int)
        The givens and the entries, 81 values each, 0 for none. An entry
        equal to the given under it is that given (the player wrote the
        whole grid out): 0 in the entries.

    Raises
    ------
    InvalidPuzzleError
        A malformed puzzle, or an entry other than the given on a given's
        cell (the error counts them and names the first five).
    """
    if "\n" in text.strip():
        return parse_grid_rows(text), [0] * 81
    givens = parse_puzzle(text)
    fields = text.split()
    entries = [0] * 81
    written = fields[1] if len(fields) > 1 and len(fields[0]) == 81 else ""
    if len(written) == 81 and all(ch in ".0123456789" for ch in written):
        entries = [0 if ch in ".0" or int(ch) == givens[i] else int(ch) for i, ch in enumerate(written)]
        clash = [cell_name(i) for i in range(81) if entries[i] and givens[i]]
        if clash:
            more = ", …" if len(clash) > CLASHES_NAMED else ""
            how = "differs from the given under it" if len(clash) == 1 else "differ from the givens under them"
            raise InvalidPuzzleError(f"{len(clash)} of the entries {how}: {', '.join(clash[:CLASHES_NAMED])}{more}")
    return givens, entries


def find_mistakes(entries: list[int], solution: list[int]) -> list[Mistake]:
    """Entries that differ from the solution, in cell order.

    Parameters
    ----------
    entries : list of int
        81 values, 0 where nothing is entered.
    solution : list of int
        81 values, the unique solution.
    """
    return [Mistake(c, entries[c], solution[c]) for c in range(81) if entries[c] and entries[c] != solution[c]]


def remaining_steps(givens: list[int], entries: list[int], unique: Callable[[], bool] | None = None) -> list[Step]:
    """The logical steps from the player's position to the end (or until logic is stuck).

    Parameters
    ----------
    givens, entries : list of int
        81 values each, 0 for empty; entries must not be mistakes
        (check with `find_mistakes` first).
    unique : callable, optional
        As in `logic.solve_logically`: whether the puzzle has one solution
        (uniqueness techniques are used only then).

    Returns
    -------
    list of Step
    """
    return remaining_logic(givens, entries, unique).steps


def remaining_logic(givens: list[int], entries: list[int], unique: Callable[[], bool] | None = None) -> LogicResult:
    """Logic from the player's position: `remaining_steps` and the board where they end (solved or stuck)."""
    position = [g or e for g, e in zip(givens, entries)]
    return solve_logically(position, unique=unique)
