"""Intersections: locked candidates (pointing and claiming) and Sue de Coq.

Technique write-ups: HoDoKu "Intersections" (tech_intersections.php) and
"Sue de Coq" (tech_misc.php), SudokuWiki "Pointing Pairs, Pointing Triples",
"Box/Line Reduction" and "Sue de Coq".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from itertools import combinations
from operator import attrgetter, itemgetter
from typing import NamedTuple

from .board import Board, memoised
from .grid import HOUSE_BITS, HOUSES, POPCOUNT, box_of, digits_of
from .steps import Step
from .techniques import Technique


def _single(masks: tuple[int, ...]) -> tuple[int, ...]:
    """Per 9-bit position mask with at least two bits: the index of the one mask of `masks` holding it, else -1."""
    return tuple(
        next((k for k, m in enumerate(masks) if p & ~m == 0), -1) if p.bit_count() >= 2 else -1 for p in range(512)
    )


#: Per 9-bit position mask (of a box, or of a line): the third of the house (positions 0-2, 3-5, 6-8)
#: holding all of two or more positions, else -1. In a box a third is a row; in a line, a box.
_IN_ONE_THIRD = _single((0b000000111, 0b000111000, 0b111000000))
#: Per 9-bit position mask of a box: the box column (positions k, k+3, k+6) holding all of two or more, else -1.
_IN_ONE_BOX_COLUMN = _single((0b001001001, 0b010010010, 0b100100100))


def _pointing_table(box: int) -> list[tuple[int, int] | None]:
    """Per 9-bit position mask of a digit in box `box` (0..8): when two or more positions lie in one row or
    column of the box, (that line's house, the line's positions outside the box as a 9-bit mask); else None."""
    band, stack = divmod(box, 3)
    table: list[tuple[int, int] | None] = [None] * 512
    for p in range(512):
        if _IN_ONE_THIRD[p] >= 0:
            table[p] = 3 * band + _IN_ONE_THIRD[p], 0o777 & ~(0b111 << 3 * stack)
        elif _IN_ONE_BOX_COLUMN[p] >= 0:
            table[p] = 9 + 3 * stack + _IN_ONE_BOX_COLUMN[p], 0o777 & ~(0b111 << 3 * band)
    return table


def _claiming_table(house: int) -> list[tuple[int, int] | None]:
    """Per 9-bit position mask of a digit in line `house` (0..17): when two or more positions lie in one box,
    (that box's house, its positions off the line as a 9-bit mask); else None. A row is row line % 3 of its
    box; a column, box column line % 3."""
    line = house % 9
    table: list[tuple[int, int] | None] = [None] * 512
    for p in range(512):
        k = _IN_ONE_THIRD[p]
        if k < 0:
            continue
        if house < 9:
            table[p] = 18 + 3 * (line // 3) + k, 0o777 & ~(0b111 << 3 * (line % 3))
        else:
            table[p] = 18 + 3 * k + line // 3, 0o777 & ~(0b001001001 << line % 3)
    return table


#: `_pointing_table` of each box and `_claiming_table` of each line.
_POINTING = [_pointing_table(box) for box in range(9)]
_CLAIMING = [_claiming_table(house) for house in range(18)]


def _cells_of(house: int, positions: int) -> tuple[int, ...]:
    cells = HOUSES[house]
    return tuple(cells[i] for i in range(9) if positions >> i & 1)


def find_locked_candidates_pointing(board: Board) -> Iterator[Step]:
    """Type 1: in a box, a digit's candidates all lie in one row or column; it leaves the rest of that line.

    Boxes in order, each box's digits in order; each digit's steps are kept until its cells change
    (`Board.digit_steps`)."""
    return _by_house(Technique.LOCKED_CANDIDATES_POINTING, board.digit_steps("pointing", _pointing_patterns))


def find_locked_candidates_claiming(board: Board) -> Iterator[Step]:
    """Type 2: in a row or column, a digit's candidates all lie in one box; it leaves the rest of that box.

    Lines in order (rows, then columns), each line's digits in order; each digit's steps are kept until its
    cells change (`Board.digit_steps`)."""
    return _by_house(Technique.LOCKED_CANDIDATES_CLAIMING, board.digit_steps("claiming", _claiming_patterns))


class LockedPattern(NamedTuple):
    """Locked candidates: `digit` lies at `positions` (9-bit mask) of `house` only, all inside house `other`,
    so it leaves the positions `rest` of `other`."""

    house: int
    digit: int
    positions: int
    other: int
    rest: int


def _by_house(name: str, found: Iterator[LockedPattern]) -> Iterator[Step]:
    """The steps `name` of the patterns `_locked_patterns` gives digit by digit, in house order (stable:
    digits in order). A step is made only when it is asked for: the ladder takes the first."""
    return (_locked_step(name, pattern) for pattern in sorted(found, key=attrgetter("house")))


def _locked_patterns(first: int, tables: list, board: Board, d: int) -> Iterator[LockedPattern]:
    """The locked candidates on digit d: for the houses from `first` on (one per entry of `tables`, `_POINTING`
    or `_CLAIMING`), where the digit's positions lie in one other house, the digit leaves that house's
    positions outside this one."""
    positions = board.house_positions(d)
    for h, p, table in zip(range(first, first + len(tables)), positions[first:], tables):
        shape = table[p]
        if shape is None:
            continue
        other, outside = shape
        rest = positions[other] & outside
        if rest:
            yield LockedPattern(h, d, p, other, rest)


def _locked_step(name: str, pattern: LockedPattern) -> Step:
    """The locked candidates step `name` of a pattern."""
    h, d, p, other, rest = pattern
    return Step(
        name,
        eliminations=tuple((c, d) for c in _cells_of(other, rest)),
        cells=_cells_of(h, p),
        houses=(h, other),
        digits=(d,),
        base=(h,),
        cover=(other,),
    )


#: The patterns of one digit for each locked candidates finder (`Board.digit_steps`): boxes point into lines,
#: lines claim in boxes.
_pointing_patterns = partial(_locked_patterns, 18, _POINTING)
_claiming_patterns = partial(_locked_patterns, 0, _CLAIMING)


#: _SUBSET_ORDER[n]: the non-empty subsets of n items (n <= 6) as bitmasks (bit i: item i), size by size and
#: in `itertools.combinations` order within a size (the order the Sue de Coq search tries groups in).
_SUBSET_ORDER = [
    tuple(sum(1 << i for i in group) for size in range(1, n + 1) for group in combinations(range(n), size))
    for n in range(7)
]
#: _SUBSETS_IN[m]: the non-empty subsets of a 6-bit mask m, in `_SUBSET_ORDER` order; _RANK[m]: m's place in
#: that order; _ITEMS[m]: the set bits of m.
_SUBSETS_IN = [tuple(s for s in _SUBSET_ORDER[6] if not s & ~m) for m in range(64)]
_RANK = [_SUBSET_ORDER[6].index(m) if m else -1 for m in range(64)]
_ITEMS = [tuple(i for i in range(6) if m >> i & 1) for m in range(64)]


def _line_groups(line_masks: list[int], box_masks: list[int]) -> list[tuple[int, int, int, int]]:
    """The non-empty subsets L of the cells with candidates `line_masks` (at most 6) that share no digit with
    at least one of the cells with candidates `box_masks` (at most 6), in `_SUBSET_ORDER`: (L as a bitmask
    over `line_masks`, |L|, L's digits, the cells of `box_masks` that share no digit with L, as a bitmask).
    Found from the box side: the L that avoid a box cell are the subsets of the line cells that avoid it."""
    avoiding: dict[int, int] = {}
    for j, b in enumerate(box_masks):
        free = 0
        for i, m in enumerate(line_masks):
            if not m & b:
                free |= 1 << i
        for group in _SUBSETS_IN[free]:
            avoiding[group] = avoiding.get(group, 0) | 1 << j
    out = []
    for group in sorted(avoiding, key=_RANK.__getitem__):
        digits = 0
        for i in _ITEMS[group]:
            digits |= line_masks[i]
        out.append((group, POPCOUNT[group], digits, avoiding[group]))
    return out


def find_sue_de_coq(board: Board) -> Iterator[Step]:
    """Sue de Coq: intersection cells C of a line and a box, cells L from the rest of the line and B from the
    rest of the box, L's and B's digits disjoint, C + L + B holding exactly as many digits as cells.

    HoDoKu "Sue de Coq" (tech_misc.php), SudokuWiki "Sue de Coq". C has at
    least two more digits than cells. No L cell shares a house with a B cell
    on a common digit (their digits are disjoint), so all the cells hold
    different digits: each digit of the set is in exactly one of them. A
    digit that B lacks lies in C or L, both in the line: it leaves the rest
    of the line; a digit that L lacks leaves the rest of the box.
    """
    cands = board.candidates
    empty = board.empty_cells
    for line, box, get, inside, line_rest, box_rest in _SDC_SEGMENTS:
        if (empty & inside).bit_count() < 2 or not empty & line_rest or not empty & box_rest:
            continue  # fewer than two open intersection cells, or no open cell in the rest of the line or box
        for core, lgroup, bgroup, v, vl, vb, digits, used, elims in _sue_de_coq_at(board, line, box, get(cands)):
            yield Step(
                Technique.SUE_DE_COQ,
                eliminations=elims,
                cells=used,
                houses=(line, box),
                digits=digits_of(digits),
                cell_sets=((core, digits_of(v)), (lgroup, digits_of(vl)), (bgroup, digits_of(vb))),
            )


def _sdc_cells(line: int, box: int) -> tuple[int, ...]:
    """The 15 cells of a line and a box that cross: the line's, then the rest of the box's, in house order."""
    return tuple(HOUSES[line]) + tuple(c for c in HOUSES[box] if c not in HOUSES[line])


#: (line, box, getter of the 15 cells' entries, and as 81-bit sets the intersection cells, the rest of the line
#: and the rest of the box) for every line and each box it crosses, in search order.
_SDC_SEGMENTS = [
    (
        line,
        box,
        itemgetter(*_sdc_cells(line, box)),
        HOUSE_BITS[line] & HOUSE_BITS[box],
        HOUSE_BITS[line] & ~HOUSE_BITS[box],
        HOUSE_BITS[box] & ~HOUSE_BITS[line],
    )
    for line in range(18)
    for box in sorted({18 + box_of(c) for c in HOUSES[line]})
]
#: _SDC_LAYOUT[line, box]: the `_sdc_cells` of a line and box, and the positions among them (0..8, the
#: line's) of the intersection cells and of the rest of the line; the rest of the box is at positions 9..14.
_SDC_LAYOUT = {
    (line, box): (
        cells,
        tuple(k for k in range(9) if box_of(cells[k]) == box - 18),
        tuple(k for k in range(9) if box_of(cells[k]) != box - 18),
    )
    for line, box, *_ in _SDC_SEGMENTS
    for cells in [_sdc_cells(line, box)]
}


def _sdc_cores(inside: list[int], masks: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
    """The cores a Sue de Coq may start from: (size, positions, digit mask) of each 2 or 3 of the intersection
    cells (`inside`, positions in `masks`) that hold at least size + 2 digits, in search order."""
    cores = []
    for size in (2, 3):
        for core in combinations(inside, size):
            v = 0
            for k in core:
                v |= masks[k]
            if v.bit_count() >= size + 2:
                cores.append((size, core, v))
    return cores


@memoised
def _sue_de_coq_at(line: int, box: int, masks: tuple[int, ...]) -> list[tuple]:
    """The Sue de Coq patterns of one line and box, given the candidates of their 15 cells (`_sdc_cells`
    order): (core, line group, box group, their digit masks, all digits, cells used, eliminations) in search
    order. Memoised per puzzle on the 15 masks (`board.memoised`)."""
    cells, inside_at, line_rest_at = _SDC_LAYOUT[line, box]
    inside = [k for k in inside_at if masks[k]]
    if len(inside) < 2:
        return []
    line_rest = [k for k in line_rest_at if masks[k]]
    box_rest = [k for k in range(9, 15) if masks[k]]
    if not line_rest or not box_rest:
        return []
    cores = _sdc_cores(inside, masks)
    if not cores:
        return []
    box_masks = [masks[k] for k in box_rest]
    line_groups = _line_groups([masks[k] for k in line_rest], box_masks)
    if not line_groups:
        return []
    cands = dict(zip(cells, masks))
    out = []
    for size, core, v in cores:
        # With L's and B's digits disjoint (B among the box cells that avoid L's digits), the set holds
        # |V + VL| + |VB - V| digits, which must be size + |L| + |B|.
        for lset, lsize, vl, avoiding in line_groups:
            if not vl & v:
                continue
            excess = POPCOUNT[v | vl] - size - lsize
            if excess > POPCOUNT[avoiding]:
                continue  # |B| - |VB - V| is at most |B|
            for bset in _SUBSETS_IN[avoiding]:
                vb = 0
                for i in _ITEMS[bset]:
                    vb |= box_masks[i]
                if not vb & v or POPCOUNT[bset] - POPCOUNT[vb & ~v] != excess:
                    continue
                core_cells = tuple(cells[k] for k in core)
                lgroup = tuple(cells[line_rest[i]] for i in range(len(line_rest)) if lset >> i & 1)
                bgroup = tuple(cells[box_rest[i]] for i in range(len(box_rest)) if bset >> i & 1)
                digits = v | vl | vb
                used = set(core_cells) | set(lgroup) | set(bgroup)
                elims = [
                    (c, d)
                    for d in digits_of(digits & ~vb)
                    for c in HOUSES[line]
                    if cands[c] >> (d - 1) & 1 and c not in used
                ]
                elims += [
                    (c, d)
                    for d in digits_of(digits & ~vl)
                    for c in HOUSES[box]
                    if cands[c] >> (d - 1) & 1 and c not in used
                ]
                if elims:
                    out.append(
                        (core_cells, lgroup, bgroup, v, vl, vb, digits, tuple(sorted(used)), tuple(sorted(set(elims))))
                    )
    return out
