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
- unique rectangles 1 to 6 (HoDoKu "Uniqueness Tests"): the first four
  ``cells`` (the rectangle), ``digits`` (its two), ``roof``; type 3 also the
  rest of ``cells`` (the cells of the naked subset); the eliminations' digit.
  Hidden rectangle: ``cells``, ``digits``, ``floor[0]``, the elimination.
  Avoidable rectangles: ``cells`` (c11, c12, c21, c22), ``digits``, the
  eliminations. BUG+1: ``cells[0]``, ``digits[0]`` (the digit it must be), the
  eliminations' digits.
- Sue de Coq: ``cell_sets`` (intersection, line and box cells with their
  digits), ``houses`` (line, box), ``digits`` (all of them).
- remote pair: ``cells`` (the chain), ``digits`` (its two).
- ALS-XZ: ``cell_sets`` (A, B), ``digits`` (the restricted commons), the
  eliminations' digits; ALS-XY-Wing: ``cell_sets`` (C, A, B), ``digits``
  (x, y, then the digits A and B share besides).
- chains (x-chain, xy-chain, AIC, continuous and discontinuous nice loops and
  their grouped forms; HoDoKu "Chains and Loops"): ``chain`` (the nodes, read
  with ``=`` for a strong link and ``-`` for a weak one), ``variant`` (first
  link weak or not), the eliminations.
- forcing chains and nets: ``variant`` ``"contradiction"`` when an assumption
  breaks the grid: the eliminated candidate is the assumption, and a forcing
  chain's ``chain`` is (the assumption, the node it makes both true and false).
  Otherwise the premises are every candidate of ``cells[0]``, or, when
  ``base`` is set, every place for ``digits[0]`` in ``base[0]``; the step's
  placement or eliminations are what they all imply.
- brute force (where logic stops and the exact search finishes, the last of
  an explanation's steps, `solve.search_step`): ``cells`` (the cells still
  empty), ``cell_sets`` (each of them with its candidates left),
  ``placements`` (the search's digits).

`Step.fixed_text` carries the text of a step that no finder made here (one
read back from JSON); every finder's steps are rendered.
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


def _wing(step: Step) -> str:
    """An xy-wing or xyz-wing: the pivot with its digits, the pincers, and which of them holds the digit eliminated."""
    pivot, a, b = step.cells
    holder = "one pincer" if step.technique == Technique.XY_WING else "one of the three"
    return (
        f"{title(step.technique)}: pivot {cell_name(pivot)} ({_digits(step.digits)}) with pincers {cell_name(a)} "
        f"and {cell_name(b)}; {holder} is {step.eliminations[0][1]}"
    )


def _w_wing(step: Step) -> str:
    a, b, p, q = step.cells
    x, y = step.digits
    return (
        f"{title(step.technique)}: {cell_name(a)} and {cell_name(b)} hold {x}/{y}, joined by the strong link on "
        f"{x} {cell_name(p)}-{cell_name(q)}; one of them is {y}"
    )


def _two_houses(step: Step) -> str:
    """A skyscraper, two-string kite or turbot fish: the digit in its two houses (a kite's row and column), how
    they are joined, and the two far ends of which one holds the digit."""
    d, c = step.digits[0], step.cells
    if step.technique == Technique.SKYSCRAPER:  # cells: base, top, base, top
        joined, far = f" stands on {cell_name(c[0])} and {cell_name(c[2])}; ", (c[1], c[3])
    elif step.technique == Technique.TWO_STRING_KITE:  # cells: row end in the box, far row end, column end, far
        joined, far = f", joined in {house_name(step.houses[2])}; ", (c[1], c[3])
    else:  # turbot fish; cells: far, near, near, far
        joined, far = f"; {cell_name(c[1])} sees {cell_name(c[2])}, so ", (c[0], c[3])
    return (
        f"{title(step.technique)}: {d} in {_houses(step.houses[:2], ' and ')}{joined}"
        f"one of {cell_name(far[0])}, {cell_name(far[1])} is {d}"
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


def _rectangle(step: Step) -> str:
    """The common start of a unique rectangle's text: the four corners and the two digits."""
    a, b = step.digits
    return f"{title(step.technique)}: {_cells(step.cells[:4])} would be a deadly pattern on {a}/{b}; "


def _other(step: Step, digit: int) -> int:
    """The rectangle's digit other than `digit`."""
    a, b = step.digits
    return b if digit == a else a


def _unique_rectangle(step: Step) -> str:
    kind, roof, z = step.technique[-1], step.roof, step.eliminations[0][1]
    if kind == "1":
        a, b = step.digits
        rest = f"so {cell_name(roof[0])} is neither {a} nor {b}"
    elif kind in "25":
        rest = f"one of {_cells(roof)} is {z}"
    elif kind == "3":
        rest = (
            f"the extra digits of {cell_name(roof[0])}/{cell_name(roof[1])} form a naked subset with "
            f"{_cells(step.cells[4:])}"
        )
    elif kind == "4":
        rest = f"{_other(step, z)} in {cell_name(roof[0])}/{cell_name(roof[1])} is locked there, so neither is {z}"
    else:
        rest = (
            f"{z} forms an x-wing on the rectangle and must sit on the floor cells, so it leaves "
            f"{cell_name(roof[0])} and {cell_name(roof[1])}"
        )
    return _rectangle(step) + rest


def _hidden_rectangle(step: Step) -> str:
    a, b = step.digits
    cell, y = step.eliminations[0]
    return _rectangle(step) + (
        f"{cell_name(step.floor[0])} holds only {a}/{b} and {_other(step, y)} is locked to the rectangle in both "
        f"lines through {cell_name(cell)}, so {cell_name(cell)} is not {y}"
    )


def _avoidable_rectangle(step: Step) -> str:
    a, b = step.digits
    start = f"{title(step.technique)}: {_cells(step.cells)} would be a deadly pattern on {a}/{b} of "
    if step.technique == Technique.AVOIDABLE_RECTANGLE_1:
        cell, digit = step.eliminations[0]
        return start + f"solved cells, none a given, so {cell_name(cell)} is not {digit}"
    x = step.eliminations[0][1]
    return (
        start + f"cells none a given, so {cell_name(step.cells[2])} or {cell_name(step.cells[3])} is {x}, "
        "which leaves the cells that see both"
    )


def _bug_plus_1(step: Step) -> str:
    return (
        f"{title(step.technique)}: every other empty cell has two candidates; {cell_name(step.cells[0])} must be "
        f"{step.digits[0]} or the grid would have two solutions, so it is neither "
        + " nor ".join(str(e) for _, e in step.eliminations)
    )


def _sue_de_coq(step: Step) -> str:
    (core, v), (line_cells, vl), (box_cells, vb) = step.cell_sets
    line, box = step.houses
    return (
        f"{title(step.technique)}: {_cells(core)} ({_digits(v)}) with {_cells(line_cells)} ({_digits(vl)}) in "
        f"{house_name(line)} and {_cells(box_cells)} ({_digits(vb)}) in {house_name(box)} hold "
        f"{_digits(step.digits)}, one each"
    )


def _remote_pair(step: Step) -> str:
    x, y = step.digits
    return (
        f"{title(step.technique)}: {x}/{y} alternate along {_cells(step.cells)}; cells seeing both kinds lose "
        f"{x} and {y}"
    )


def _als(cell_set: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    """An almost locked set by its cells and digits: ``r1c2,r1c5 {1,4,7}``."""
    cells, digits = cell_set
    return ",".join(cell_name(c) for c in cells) + " {" + ",".join(map(str, digits)) + "}"


def _als_xz(step: Step) -> str:
    a, b = step.cell_sets
    text = f"{title(step.technique)}: A = {_als(a)}, B = {_als(b)}, restricted common {_digits(step.digits)}"
    if len(step.digits) >= 2:
        return text + "; doubly linked, so both sets are locked"
    return text + f"; A or B holds {' and '.join(str(d) for d in sorted({d for _, d in step.eliminations}))}"


def _als_xy_wing(step: Step) -> str:
    c, a, b = step.cell_sets
    x, y, *zs = step.digits
    return (
        f"{title(step.technique)}: pivot C = {_als(c)}, A = {_als(a)} (restricted common {x}), B = {_als(b)} "
        f"(restricted common {y}); A or B holds " + " and ".join(map(str, zs))
    )


def _node(node: tuple[int, tuple[int, ...]]) -> str:
    """A chain node: a candidate ``5r3c7``, a group node ``5r5c4/r5c6``."""
    digit, cells = node
    return f"{digit}{'/'.join(cell_name(c) for c in cells)}"


def _chain(step: Step) -> str:
    names = [_node(n) for n in step.chain]
    first_weak = step.variant == "first link weak"
    links = "-=" if first_weak else "=-"
    text = names[0] + "".join(f" {links[i % 2]}{name}" for i, name in enumerate(names[1:]))
    verb = "is" if len(step.eliminations) == 1 else "are"
    false = f"{', '.join(f'{d}{cell_name(c)}' for c, d in step.eliminations)} {verb} false"
    start = names[0]
    if first_weak:
        also = "it false" if step.chain[-1] == step.chain[0] else f"{names[-1]} true as well"
        text += f"; {start} true would make {also}, so it is false"
    elif step.technique.endswith("discontinuous_nice_loop"):
        text += f"; {start} false would make it true, so it is true: {false}"
    elif step.technique.endswith("continuous_nice_loop"):
        text += f" - {start}; every link holds both ways, so {false}"
    else:
        text += f"; {start} or {names[-1]} is true, so {false}"
    return f"{title(step.technique)}: {text}"


def _forcing(step: Step) -> str:
    name = title(step.technique)
    if step.variant == "contradiction":
        cell, digit = step.eliminations[0]
        assumed = f"{digit}{cell_name(cell)}"
        if step.chain:
            return (
                f"{name} (contradiction): if {assumed} were true, {_node(step.chain[1])} would be both true and false, "
                f"so {assumed} is false"
            )
        return (
            f"{name} (contradiction): assuming {assumed} and following singles breaks the grid, so {assumed} is false"
        )
    if step.base:
        premises = f"each place for {step.digits[0]} in {house_name(step.base[0])}"
    else:
        premises = f"each candidate of {cell_name(step.cells[0])}"
    if step.placements:
        cell, digit = step.placements[0]
        return f"{name}: {premises} leads to {digit}{cell_name(cell)}, so it is true"
    return f"{name}: {premises} rules out {', '.join(f'{d}{cell_name(c)}' for c, d in step.eliminations)}"


def _brute_force(step: Step) -> str:
    n = len(step.cells)
    cells = "1 cell is" if n == 1 else f"{n} cells are"
    return (
        f"{title(step.technique)}: logic finds no further step here; {cells} still empty, and the exact search "
        "(Knuth's Algorithm X) fills them from their candidates"
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
    **dict.fromkeys((_T.XY_WING, _T.XYZ_WING), _wing),
    _T.W_WING: _w_wing,
    **dict.fromkeys((_T.SKYSCRAPER, _T.TWO_STRING_KITE, _T.TURBOT_FISH), _two_houses),
    _T.EMPTY_RECTANGLE: _empty_rectangle,
    _T.SIMPLE_COLORS: _simple_colors,
    _T.MULTI_COLORS: _multi_colors,
    **dict.fromkeys(
        (
            _T.UNIQUE_RECTANGLE_1,
            _T.UNIQUE_RECTANGLE_2,
            _T.UNIQUE_RECTANGLE_3,
            _T.UNIQUE_RECTANGLE_4,
            _T.UNIQUE_RECTANGLE_5,
            _T.UNIQUE_RECTANGLE_6,
        ),
        _unique_rectangle,
    ),
    _T.HIDDEN_RECTANGLE: _hidden_rectangle,
    _T.AVOIDABLE_RECTANGLE_1: _avoidable_rectangle,
    _T.AVOIDABLE_RECTANGLE_2: _avoidable_rectangle,
    _T.BUG_PLUS_1: _bug_plus_1,
    _T.SUE_DE_COQ: _sue_de_coq,
    _T.REMOTE_PAIR: _remote_pair,
    _T.ALS_XZ: _als_xz,
    _T.ALS_XY_WING: _als_xy_wing,
    **dict.fromkeys(
        (
            _T.X_CHAIN,
            _T.XY_CHAIN,
            _T.AIC,
            _T.CONTINUOUS_NICE_LOOP,
            _T.DISCONTINUOUS_NICE_LOOP,
            _T.GROUPED_AIC,
            _T.GROUPED_CONTINUOUS_NICE_LOOP,
            _T.GROUPED_DISCONTINUOUS_NICE_LOOP,
        ),
        _chain,
    ),
    _T.FORCING_CHAIN: _forcing,
    _T.FORCING_NET: _forcing,
    _T.BRUTE_FORCE: _brute_force,
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
