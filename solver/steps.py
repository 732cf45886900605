"""The step record that every technique finder produces.

As in HoDoKu, search and presentation are separate: a finder only produces
`Step` records - what the step does (placements, eliminations) and the pattern
that proves it (cells, houses, digits, base and cover houses, fins) - and
`explain` renders the step's words from those fields (HoDoKu's
``SolutionStep.toString``). The logical solver applies steps, grading counts
them, hints and explanations print them.
"""

from __future__ import annotations

from typing import NamedTuple

from .explain import explain
from .techniques import title


class Step(NamedTuple):
    """One logical deduction: an immutable record (a named tuple, the cheapest immutable record to build in
    CPython: a solve makes one per step, singles included).

    What a field means for each technique is listed in `explain` (which reads them).

    Attributes
    ----------
    technique : str
        Snake-case technique name, a `techniques.Technique` member (``Technique.X_WING == "x_wing"``).
    placements : tuple of (int, int)
        ``(cell, digit)`` pairs set by the step; cell is 0..80, digit 1..9.
    eliminations : tuple of (int, int)
        ``(cell, digit)`` candidates removed by the step.
    cells : tuple of int
        Cells that carry the pattern (for drawing a hint), in the order `explain` names them.
    houses : tuple of int
        Houses (0..26: rows, columns, boxes) that the pattern lives in.
    digits : tuple of int
        The digits of the pattern (1..9): a subset's digits, a fish's digit, a wing pivot's candidates, a
        unique rectangle's two digits.
    base : tuple of int
        Base houses (0..26): a fish's base lines, the house a locked candidate is confined in.
    cover : tuple of int
        Cover houses (0..26): a fish's cover lines, the house a locked candidate leaves the rest of.
    fins : tuple of int
        Fin cells (0..80) of a finned or sashimi fish.
    roof : tuple of int
        The roof of a unique rectangle: its corners with candidates besides the rectangle's two digits.
    floor : tuple of int
        The floor corner of a hidden rectangle that the step names (holding only the rectangle's digits).
    cell_sets : tuple of (tuple of int, tuple of int)
        Groups of cells, each with its digits: the almost locked sets of an ALS step (A, B; the pivot C first
        for an ALS-XY-Wing), the intersection, line and box cells of a Sue de Coq.
    chain : tuple of (int, tuple of int)
        The nodes of a chain from start to end, each (digit, its cells): one cell for a candidate, several for
        a group node of a grouped chain.
    variant : str
        The form of a technique whose one row covers several of HoDoKu's types: ``"wrap"`` or ``"trap"``
        (simple colors), ``"type 1"`` or ``"type 2"`` (multi-colors), ``"first link weak"`` (a chain whose
        start is assumed true: a discontinuous nice loop that proves its start false); empty for the others.
    fixed_text : str
        The step's words as given, not rendered: a step read back from JSON (it has no pattern fields).
        Empty for a step a finder made: `explain` renders its text.
    """

    technique: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    base: tuple[int, ...] = ()
    cover: tuple[int, ...] = ()
    fins: tuple[int, ...] = ()
    roof: tuple[int, ...] = ()
    floor: tuple[int, ...] = ()
    cell_sets: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    chain: tuple[tuple[int, tuple[int, ...]], ...] = ()
    variant: str = ""
    fixed_text: str = ""

    @property
    def text(self) -> str:
        """One-line explanation in words, cells in r1c1 notation: `fixed_text`, or `explain` of the fields."""
        return self.fixed_text or explain(self)

    @property
    def title(self) -> str:
        """The technique's display title, from `techniques.TECHNIQUES` (``"X-Wing"``)."""
        return title(self.technique)
