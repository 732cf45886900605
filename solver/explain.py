"""A step's one-line text, rendered from its fields (HoDoKu's ``SolutionStep.toString``).

Finders build `Step` records of what a step does and the pattern behind it;
this module alone puts them into words: the technique's title
(`techniques.title`), then the pattern, cells in r1c1 notation and houses as
"row 3", "column 7", "box 5" (`grid.cell_name`, `grid.house_name`). The
texts are those the finders wrote before (`benchmarks/step_paths.py
--compare` keeps them identical).

The fields each technique's text reads:

- full house, hidden single: ``placements[0]`` (cell, digit), ``houses[0]``;
  naked single: ``placements[0]``.
- naked, locked and hidden subsets (HoDoKu "Naked/Hidden Subsets"): ``cells``,
  ``digits`` (the subset's), ``houses`` (the houses it clears; a hidden
  subset's one house).
- locked candidates (pointing, claiming): ``digits[0]``, ``base[0]`` (the house
  whose candidates of the digit lie in one other house), ``cover[0]`` (that
  other house, which the digit leaves elsewhere).
- basic, finned and sashimi fish (HoDoKu "Basic Fish", "Finned/Sashimi
  Fish"): ``digits[0]``, ``base`` and ``cover`` lines, ``fins`` (empty for a
  basic fish; the eliminations then keep to the fins' box).
- xy-wing, xyz-wing: ``cells`` (pivot, pincer, pincer), ``digits`` (the
  pivot's candidates); the digit eliminated is the one a pincer must hold.
- w-wing: ``cells`` (the two bivalue cells, then the strong link's ends),
  ``digits`` (the link's digit, then the digit eliminated).
- single-digit patterns (HoDoKu "Single Digit Patterns"), on ``digits[0]``:
  skyscraper ``houses`` (its two lines), ``cells`` (base, top, base, top);
  two-string kite ``houses`` (row, column, the box joining them), ``cells``
  (row end in the box, far row end, column end in the box, far column end);
  turbot fish ``houses``, ``cells`` (far, near, near, far); empty rectangle
  ``houses[0]`` (its box), ``cover`` (the row and column it lies on), the
  last two ``cells`` (the conjugate pair, near end first), the elimination.
- simple colors, multi-colors (HoDoKu "Coloring"): ``digits[0]``, ``variant``
  (wrap or trap; type 1 or type 2), the eliminations' cells.

Other techniques (see `fixed_text` of `steps.Step`) still carry the text their
finder wrote: uniqueness, Sue de Coq, chains, ALS and forcing chains.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .grid import box_of, cell_name, house_name
from .techniques import Technique, title

if TYPE_CHECKING:  # pragma: no cover
    from .steps import Step


def _cells(cells) -> str:
    """Cells in r1c1 notation, comma separated: ``"r1c2, r1c5"``."""
    return ", ".join(cell_name(c) for c in cells)


def _houses(houses, joint: str = ", ") -> str:
    """Houses by name: ``"row 1, row 4"``."""
    return joint.join(house_name(h) for h in houses)


def _digits(digits) -> str:
    """Digits joined by slashes: ``"3/7"``."""
    return "/".join(map(str, digits))


def _full_house(step: Step) -> str:
    cell, digit = step.placements[0]
    return (
        f"{title(step.technique)}: {cell_name(cell)} is the last empty cell of {house_name(step.houses[0])}, "
        f"so it is {digit}"
    )


def _naked_single(step: Step) -> str:
    cell, digit = step.placements[0]
    return f"{title(step.technique)}: {digit} is the only candidate left in {cell_name(cell)}"


def _hidden_single(step: Step) -> str:
    cell, digit = step.placements[0]
    return f"{title(step.technique)}: in {house_name(step.houses[0])}, {digit} fits only in {cell_name(cell)}"


def _naked_subset(step: Step) -> str:
    return (
        f"{title(step.technique)}: {_cells(step.cells)} hold only {_digits(step.digits)}, "
        f"so these leave the rest of {_houses(step.houses, ' and ')}"
    )


def _hidden_subset(step: Step) -> str:
    return (
        f"{title(step.technique)}: in {house_name(step.houses[0])}, {_digits(step.digits)} fit only in "
        f"{_cells(step.cells)}, so those cells hold nothing else"
    )


def _locked_candidates(step: Step) -> str:
    other = house_name(step.cover[0])
    return (
        f"{title(step.technique)}: in {house_name(step.base[0])}, {step.digits[0]} lies only in {other}, "
        f"so it leaves the rest of {other}"
    )


def _fish(step: Step) -> str:
    fins = f" with fins in box {box_of(step.fins[0]) + 1}" if step.fins else ""
    lines = "columns" if step.base[0] < 9 else "rows"  # the cover lines: columns for a fish on rows
    return (
        f"{title(step.technique)}: {step.digits[0]} in {_houses(step.base)} lies in {_houses(step.cover)}{fins}, "
        f"so it leaves the rest of those {lines}" + (" in that box" if step.fins else "")
    )


def _xy_wing(step: Step) -> str:
    pivot, a, b = step.cells
    return (
        f"{title(step.technique)}: pivot {cell_name(pivot)} ({_digits(step.digits)}) with pincers {cell_name(a)} "
        f"and {cell_name(b)}; one pincer is {step.eliminations[0][1]}"
    )


def _xyz_wing(step: Step) -> str:
    pivot, a, b = step.cells
    return (
        f"{title(step.technique)}: pivot {cell_name(pivot)} ({_digits(step.digits)}) with pincers {cell_name(a)} "
        f"and {cell_name(b)}; one of the three is {step.eliminations[0][1]}"
    )


def _w_wing(step: Step) -> str:
    a, b, p, q = step.cells
    x, y = step.digits
    return (
        f"{title(step.technique)}: {cell_name(a)} and {cell_name(b)} hold {x}/{y}, joined by the strong link on "
        f"{x} {cell_name(p)}-{cell_name(q)}; one of them is {y}"
    )


def _skyscraper(step: Step) -> str:
    d, (h1, h2), (base1, top1, base2, top2) = step.digits[0], step.houses, step.cells
    return (
        f"{title(step.technique)}: {d} in {house_name(h1)} and {house_name(h2)} stands on {cell_name(base1)} and "
        f"{cell_name(base2)}; one of {cell_name(top1)}, {cell_name(top2)} is {d}"
    )


def _two_string_kite(step: Step) -> str:
    d, (row, column, box), (_, row_far, _, column_far) = step.digits[0], step.houses, step.cells
    return (
        f"{title(step.technique)}: {d} in {house_name(row)} and {house_name(column)}, joined in {house_name(box)}; "
        f"one of {cell_name(row_far)}, {cell_name(column_far)} is {d}"
    )


def _turbot_fish(step: Step) -> str:
    d, (h1, h2), (far1, near1, near2, far2) = step.digits[0], step.houses, step.cells
    return (
        f"{title(step.technique)}: {d} in {house_name(h1)} and {house_name(h2)}; {cell_name(near1)} sees "
        f"{cell_name(near2)}, so one of {cell_name(far1)}, {cell_name(far2)} is {d}"
    )


def _empty_rectangle(step: Step) -> str:
    d, (row, column), (near, far) = step.digits[0], step.cover, step.cells[-2:]
    return (
        f"{title(step.technique)}: {d} in {house_name(step.houses[0])} lies on {house_name(row)} and "
        f"{house_name(column)}; with the conjugate pair {cell_name(near)}-{cell_name(far)} it cannot be in "
        f"{cell_name(step.eliminations[0][0])}"
    )


def _simple_colors(step: Step) -> str:
    d, lose = step.digits[0], _cells(c for c, _ in step.eliminations)
    if step.variant == "wrap":
        return f"{title(step.technique)} (wrap): two cells of one colour for {d} see each other, so {d} leaves {lose}"
    return f"{title(step.technique)} (trap): {lose} see both colours of the {d} cluster, and one colour is {d}"


def _multi_colors(step: Step) -> str:
    d, lose = step.digits[0], _cells(c for c, _ in step.eliminations)
    if step.variant == "type 1":
        return (
            f"{title(step.technique)} (type 1): {lose} see both colours of another {d} cluster, so none of them is {d}"
        )
    return (
        f"{title(step.technique)} (type 2): a {d} of one colour sees a {d} of a colour of another cluster, so one of "
        f"their opposite colours holds {d}: {lose} lose it"
    )


_T = Technique

#: Technique -> the function that renders its steps' text.
RENDERERS: dict[str, Callable[[Step], str]] = {
    _T.FULL_HOUSE: _full_house,
    _T.NAKED_SINGLE: _naked_single,
    _T.HIDDEN_SINGLE: _hidden_single,
    **dict.fromkeys((_T.LOCKED_PAIR, _T.LOCKED_TRIPLE, _T.NAKED_PAIR, _T.NAKED_TRIPLE, _T.NAKED_QUAD), _naked_subset),
    **dict.fromkeys((_T.HIDDEN_PAIR, _T.HIDDEN_TRIPLE, _T.HIDDEN_QUAD), _hidden_subset),
    **dict.fromkeys((_T.LOCKED_CANDIDATES_POINTING, _T.LOCKED_CANDIDATES_CLAIMING), _locked_candidates),
    **dict.fromkeys(
        (
            _T.X_WING,
            _T.SWORDFISH,
            _T.JELLYFISH,
            _T.FINNED_X_WING,
            _T.SASHIMI_X_WING,
            _T.FINNED_SWORDFISH,
            _T.SASHIMI_SWORDFISH,
            _T.FINNED_JELLYFISH,
            _T.SASHIMI_JELLYFISH,
        ),
        _fish,
    ),
    _T.XY_WING: _xy_wing,
    _T.XYZ_WING: _xyz_wing,
    _T.W_WING: _w_wing,
    _T.SKYSCRAPER: _skyscraper,
    _T.TWO_STRING_KITE: _two_string_kite,
    _T.TURBOT_FISH: _turbot_fish,
    _T.EMPTY_RECTANGLE: _empty_rectangle,
    _T.SIMPLE_COLORS: _simple_colors,
    _T.MULTI_COLORS: _multi_colors,
}


def explain(step: Step) -> str:
    """The one-line text of `step`, rendered from its fields (which ones, per technique: this module's notes).

    Parameters
    ----------
    step : Step
        A step as its finder made it.

    Returns
    -------
    str
        ``"Title: ..."``, cells in r1c1 notation; the step's `fixed_text`
        for a technique this module does not render (empty when it has none).
    """
    render = RENDERERS.get(step.technique)
    return step.fixed_text if render is None else render(step)
