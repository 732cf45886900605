"""Subsets: naked and hidden pairs, triples, quads, and locked pairs/triples.

Technique write-ups: HoDoKu "Naked and Hidden Subsets" (tech_naked.php,
tech_hidden.php), SudokuWiki "Naked Candidates", "Hidden Candidates". A naked
subset of N cells holding only N digits between them removes those digits
from the rest of every house the cells share; N digits confined to N cells of
a house remove every other digit from those cells. As in HoDoKu
(SimpleSolver.createSubsetStep), a naked pair or triple whose cells share a box
and a line is a locked pair/triple when it removes candidates both in the box
and in the line outside the box; otherwise it is a naked pair/triple. Houses
are searched in HoDoKu's order, boxes first, then rows, then columns (locked
subsets: boxes only), so the step the ladder takes is the one HoDoKu takes.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

from .board import Board, memoised
from .grid import BOX_OF, HOUSE_GETTERS, HOUSES, HOUSES_OF_CELL, POPCOUNT, digits_of
from .steps import Step
from .techniques import Technique

SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


#: The digit sets (in the hidden view, the cell sets) a subset of 2, 3 or 4 can fill: the 9-bit masks of
#: 2, 3 and 4 bits, size by size (36 + 84 + 126).
_SETS = [m for size in (2, 3, 4) for m in range(512) if POPCOUNT[m] == size]


def _cover_table() -> list[int]:
    """Per 9-bit mask m: for m > 0, an int with a 1 in the 4-bit field 4 * r of every `_SETS[r]` holding all of
    m; 0 for m = 0. Summed over a house's nine masks, field r counts the masks inside `_SETS[r]`: at most
    9, so the fields never carry into each other."""
    covers = [0] * 512
    for r, union in enumerate(_SETS):
        subset = union
        while subset:  # the non-empty subsets of union
            covers[subset] += 1 << 4 * r
            subset = (subset - 1) & union
    return covers


_COVERS = _cover_table()
#: 4 - |set| in the field of every set of `_SETS`.
_BIAS = sum((4 - POPCOUNT[m]) << 4 * r for r, m in enumerate(_SETS))
#: `_COVERS` plus `_BIAS` (looked up for one mask of a house): a field of the sum then reaches 4 (bit 2 or 3)
#: exactly when at least as many masks as its set has bits lie inside the set (the counts stay below 16).
_COVERS_BIASED = [c + _BIAS for c in _COVERS]
#: _REACHED[zeros]: bits 2 and 3 of the fields of the sets of fewer bits than a house with `zeros` zero masks
#: has non-zero ones (a subset of all its open cells or digits removes nothing).
_REACHED = [sum(0b1100 << 4 * r for r, m in enumerate(_SETS) if POPCOUNT[m] < 9 - zeros) for zeros in range(10)]
#: What `naked_subsets_of` returns when there is none of any size.
NO_SUBSETS = ((), (), ())
#: _FIELD_LOWS[m]: bit 0 of the field of each digit of the 9-bit mask m in a house's 144-bit block of
#: `Board.house_fields` (times a 9-bit position mask: those positions in each of those fields).
_FIELD_LOWS = [sum(1 << 16 * d for d in range(9) if m >> d & 1) for m in range(512)]
#: _PLACES[m]: the set bits of the 9-bit mask m.
_PLACES = [tuple(i for i in range(9) if m >> i & 1) for m in range(512)]
#: The houses in the order HoDoKu searches them for subsets: boxes, then rows, then columns.
_HOUSE_ORDER = (*range(18, 27), *range(18))
#: The boxes: the houses a locked subset is searched in.
_BOXES = range(18, 27)


def naked_subsets_of(masks: tuple[int, ...]) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """The naked-subset rule over nine 9-bit masks, for sizes 2, 3 and 4: per size, every combination of that
    many indices (in `itertools.combinations` order) whose masks are non-zero and have exactly `size` bits in
    their union, with that union; none when at most `size` masks are non-zero (such a group holds every
    non-zero mask and so removes nothing). The masks of a house's cells (their candidates) give its naked subsets,
    those of its digits (their places) its hidden subsets, and those of one digit's nine rows or columns (its
    places in each) its basic fish (`fish`: a fish is a hidden subset of lines). A union fills one of
    `_SETS`, which then holds `size` masks or more: one sum of `_COVERS` finds those sets for all sizes
    (mostly none), and only their masks are combined."""
    zeros = masks.count(0)
    if zeros >= 7:
        return NO_SUBSETS
    c = _COVERS
    m0, m1, m2, m3, m4, m5, m6, m7, m8 = masks
    reached = (_COVERS_BIASED[m0] + c[m1] + c[m2] + c[m3] + c[m4] + c[m5] + c[m6] + c[m7] + c[m8]) & _REACHED[zeros]
    if not reached:
        return NO_SUBSETS
    found: tuple[list, list, list] = ([], [], [])
    while reached:
        r = (reached & -reached).bit_length() - 1 >> 2
        reached &= ~(0b1111 << 4 * r)
        union = _SETS[r]
        inside = [i for i in range(9) if masks[i] and not masks[i] & ~union]
        size = POPCOUNT[union]
        for group in combinations(inside, size):
            u = 0
            for i in group:
                u |= masks[i]
            if u == union:
                found[size - 2].append((group, union))
    return tuple(tuple(sorted(groups)) for groups in found)


def _groups_by_house(board: Board, hidden: bool) -> list[tuple]:
    """Per house (27), its `_naked_house_groups` or, with `hidden`, its `_hidden_house_groups`. Kept on the
    board from step to step and recomputed for the houses that changed only (`Board.per_house`); the finders
    of all sizes share them."""
    if hidden:
        return board.per_house("hidden subsets", _hidden_house_groups)
    return board.per_house("naked subsets", _naked_house_groups)


def _naked_house_groups(board: Board, house: int) -> tuple | None:
    """Per size (2, 3, 4), the naked subsets of a house (`naked_subsets_of` of its cells' candidates), each as
    `_naked_subset` gives them; None for none."""
    groups = naked_subsets_of(HOUSE_GETTERS[house](board.candidates))
    if groups == NO_SUBSETS:
        return None
    return tuple(tuple(_naked_subset(board, house, indices, union) for indices, union in by_size) for by_size in groups)


@memoised
def _naked_subset(house: int, indices: tuple[int, ...], union: int) -> tuple:
    """A `_naked_house_groups` entry: (its cells, its digits as a mask, the houses its cells share (one, or a
    line and a box), its targets in those houses - the `Board.house_fields` bits of its digits in their other
    cells, the candidates it removes - and for 2 or 3 cells sharing a line and a box the targets in the box
    and those in the line outside the box, else 0 and 0). It is a locked subset when candidates of both of
    these last two are left (HoDoKu's rule)."""
    cells, houses, others, in_box, in_line = _subset_geometry(house, indices)
    low = _FIELD_LOWS[union]
    return cells, union, houses, low * others, low * in_box, low * in_line


@cache  # static: 27 houses by 246 sets of 2 to 4 indices at most, built as met
def _subset_geometry(house: int, indices: tuple[int, ...]) -> tuple:
    """The cells of `house` at `indices`, the houses they share (ascending: the house itself, or a line and a
    box), and as `Board.house_fields` bits of one digit (bit 0 of each field: times `_FIELD_LOWS` of a digit
    mask, those digits) the other cells of the houses they share, of the box (for two or three cells sharing
    a line and a box, else 0) and of the line outside the box (likewise)."""
    cells = tuple(HOUSES[house][i] for i in indices)
    houses = tuple(h for h in HOUSES_OF_CELL[cells[0]] if all(h in HOUSES_OF_CELL[c] for c in cells))
    in_box = in_line = 0
    if len(cells) <= 3 and len(houses) == 2:
        line, box = houses
        in_box = _others((box,), cells)
        in_line = _others((line,), tuple(c for c in HOUSES[line] if BOX_OF[c] == box - 18))
    return cells, houses, _others(houses, cells), in_box, in_line


#: _POSITION[h]: cell -> its index in HOUSES[h], for the cells of house h.
_POSITION = [{c: i for i, c in enumerate(cells)} for cells in HOUSES]


def _others(houses: tuple[int, ...], cells: tuple[int, ...]) -> int:
    """The cells of `houses` other than `cells`, as bit 0 of their fields in `Board.house_fields` (times
    `_FIELD_LOWS` of a digit mask: those candidates, the ones a subset of those digits removes there)."""
    total = 0
    for h in houses:
        position = _POSITION[h]
        others = 511
        for c in cells:
            if c in position:
                others ^= 1 << position[c]
        total |= others << 144 * h
    return total


def _hidden_house_groups(board: Board, house: int) -> tuple | None:
    """Per size (2, 3, 4), the hidden subsets of a house (`naked_subsets_of` of its digits' places), each as (its
    cells, its digits as a mask, the bits of `Board.house_fields` of the other digits in those cells); None
    for none."""
    groups = naked_subsets_of(board.house_digit_positions(house))
    if groups == NO_SUBSETS:
        return None
    return tuple(
        tuple(_hidden_subset(board, house, indices, union) for indices, union in by_size) for by_size in groups
    )


@memoised
def _hidden_subset(house: int, indices: tuple[int, ...], union: int) -> tuple:
    """A `_hidden_house_groups` entry: digits `indices` (0-based) fill the cells at positions `union`."""
    keep = 0
    for i in indices:
        keep |= 1 << i
    cells = HOUSES[house]
    return tuple(cells[i] for i in _PLACES[union]), keep, _FIELD_LOWS[511 ^ keep] * union << 144 * house


def _naked(board: Board, size: int, locked_only: bool) -> Iterator[Step]:
    fields = board.house_fields
    cands = board.candidates
    by_house = _groups_by_house(board, False)
    for h in _BOXES if locked_only else _HOUSE_ORDER:
        entry = by_house[h]
        if entry is None:
            continue
        for cells, union, houses, targets, in_box, in_line in entry[size - 2]:
            if not fields & targets or bool(fields & in_box and fields & in_line) != locked_only:
                continue
            elims = [(c, d) for hh in houses for c in HOUSES[hh] if c not in cells for d in digits_of(cands[c] & union)]
            yield Step(
                Technique(f"{'locked' if locked_only else 'naked'}_{SIZE_NAMES[size]}"),
                eliminations=tuple(sorted(set(elims))),
                cells=cells,
                houses=houses,
                digits=digits_of(union),
            )


def _hidden(board: Board, size: int) -> Iterator[Step]:
    fields = board.house_fields
    cands = board.candidates
    by_house = _groups_by_house(board, True)
    for h in _HOUSE_ORDER:
        entry = by_house[h]
        if entry is None:
            continue
        for cells, keep, targets in entry[size - 2]:
            if fields & targets:
                yield Step(
                    Technique(f"hidden_{SIZE_NAMES[size]}"),
                    eliminations=tuple((c, d) for c in cells for d in digits_of(cands[c] & ~keep)),
                    cells=cells,
                    houses=(h,),
                    digits=digits_of(keep),
                )


def find_locked_pair(board: Board) -> Iterator[Step]:
    """Two cells in one box and one line holding the same two digits only."""
    return _naked(board, 2, locked_only=True)


def find_locked_triple(board: Board) -> Iterator[Step]:
    """Three cells in one box and one line holding the same three digits only."""
    return _naked(board, 3, locked_only=True)


def find_naked_pair(board: Board) -> Iterator[Step]:
    """Two cells of a house with the same two candidates only."""
    return _naked(board, 2, locked_only=False)


def find_naked_triple(board: Board) -> Iterator[Step]:
    """Three cells of a house with three candidates between them."""
    return _naked(board, 3, locked_only=False)


def find_naked_quad(board: Board) -> Iterator[Step]:
    """Four cells of a house with four candidates between them."""
    return _naked(board, 4, locked_only=False)


def find_hidden_pair(board: Board) -> Iterator[Step]:
    """Two digits confined to the same two cells of a house."""
    return _hidden(board, 2)


def find_hidden_triple(board: Board) -> Iterator[Step]:
    """Three digits confined to three cells of a house."""
    return _hidden(board, 3)


def find_hidden_quad(board: Board) -> Iterator[Step]:
    """Four digits confined to four cells of a house."""
    return _hidden(board, 4)
