"""The step record that every technique finder produces.

As in HoDoKu, search and presentation are separate: a finder only produces
`Step` records; the logical solver applies them, grading counts them, hints
and explanations print them.
"""

from __future__ import annotations

from typing import NamedTuple

from .techniques import title


class Step(NamedTuple):
    """One logical deduction: an immutable record (a named tuple, the cheapest immutable record to build in
    CPython: a solve makes one per step, singles included).

    Attributes
    ----------
    technique : str
        Snake-case technique name as HoDoKu/SudokuWiki spell it, for example
        ``"hidden_single"`` or ``"x_wing"``.
    placements : tuple of (int, int)
        ``(cell, digit)`` pairs set by the step; cell is 0..80, digit 1..9.
    eliminations : tuple of (int, int)
        ``(cell, digit)`` candidates removed by the step.
    cells : tuple of int
        Cells that carry the pattern (for drawing a hint).
    houses : tuple of int
        Houses (0..26: rows, columns, boxes) that the pattern lives in.
    text : str
        One-line explanation in words, cells in r1c1 notation.
    """

    technique: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    text: str = ""

    @property
    def title(self) -> str:
        """The technique's display title, from `techniques.TECHNIQUES` (``"X-Wing"``)."""
        return title(self.technique)

    def to_json(self) -> dict:
        """The JSON form of `docs/DESIGN.md`: technique, placements, eliminations, text."""
        return {
            "technique": self.technique,
            "placements": [list(p) for p in self.placements],
            "eliminations": [list(e) for e in self.eliminations],
            "text": self.text,
        }
