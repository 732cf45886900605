"""Single-digit patterns: skyscraper, two-string kite, empty rectangle, turbot fish.

Technique write-ups: HoDoKu "Single Digit Patterns" (tech_sdp.php),
SudokuWiki "Skyscraper", "2-String Kite", "Empty Rectangles", "Turbot Fish". Each joins two
strong links (conjugate pairs) on one digit by a weak link; one of the two far
ends must hold the digit, so cells that see both lose it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from .board import Board, conjugate_pairs
from .chains import index_sum
from .grid import BOX_OF, BOXES, PEER_BITS, set_bits
from .links import to_nodes
from .steps import Step
from .techniques import Technique


def find_skyscraper(board: Board) -> Iterator[Step]:
    """Two conjugate pairs in parallel lines, one end of each in a shared cross line: those in rows for every
    digit first, then those in columns (HoDoKu's SingleDigitPatternSolver order)."""
    for in_rows in (True, False):
        for kind, chain in board.digit_steps("conjugate chains", _conjugate_chains):
            if kind == 0 and (chain.house2 < 9) == in_rows:
                yield _skyscraper_step(*chain)


def find_two_string_kite(board: Board) -> Iterator[Step]:
    """A conjugate pair in a row and one in a column, joined through a box."""
    return (_kite_step(*chain) for kind, chain in board.digit_steps("conjugate chains", _conjugate_chains) if kind == 1)


def find_turbot_fish(board: Board) -> Iterator[Step]:
    """Two conjugate pairs on one digit whose near ends see each other: one far end holds the digit.

    HoDoKu's Turbot Fish: any strong - weak - strong chain of four cells on one
    digit; skyscraper and two-string kite are its special cases and come first
    in the ladder, so this finds the rest (for example links through boxes).
    As HoDoKu's X-Chain search of four nodes reports them (ChainSolver): the
    most eliminations first, then the smaller index sum (`chains.index_sum`).
    """
    chains = [chain for kind, chain in board.digit_steps("conjugate chains", _conjugate_chains) if kind == 2]
    if len(chains) > 1:
        chains.sort(key=lambda c: (-c.both.bit_count(), index_sum(to_nodes(c.both) << (c.digit - 1))))  # stable
    return (_turbot_step(*chain) for chain in chains)


class Chain(NamedTuple):
    """A strong - weak - strong chain of `_conjugate_chains` on `digit`: the conjugate pairs in houses `house1`
    and `house2`, their near ends (which see each other) and far ends, and the cells (81-bit set) that see
    both far ends and lose the digit."""

    digit: int
    house1: int
    house2: int
    near1: int
    far1: int
    near2: int
    far2: int
    both: int


def _conjugate_chains(board: Board, digit: int) -> list[tuple[int, Chain]]:
    """The skyscrapers (kind 0), two-string kites (kind 1) and turbot fish (kind 2) on one digit, as (kind,
    chain) pairs, each kind's chains in its finder's order (the finders make the steps of the chains they
    report, most chains found are never reported).

    All three are strong - weak - strong chains of two conjugate pairs whose near ends see each other, so one
    walk over the pairs of conjugate pairs finds them all: every chain is a turbot fish; it is also a
    skyscraper when both pairs lie in rows (or both in columns) with the near ends in one cross line and the
    far ends not, and a two-string kite when a row's pair and a column's pair have their near ends in one box
    and their far ends outside it."""
    peers = PEER_BITS
    box = BOX_OF
    pairs = conjugate_pairs(board, digit)
    if len(pairs) < 2:
        return []
    cells = board.digit_cells(digit)
    ends = [1 << a | 1 << b for _, a, b in pairs]
    sky_rows: list[tuple[int, Chain]] = []
    sky_columns: list[tuple[int, Chain]] = []
    kites: list[tuple[int, Chain]] = []
    turbots: list[tuple[int, Chain]] = []
    for i, (h1, a1, b1) in enumerate(pairs):
        sight_a1, sight_b1 = peers[a1], peers[b1]
        sight = sight_a1 | sight_b1
        ends1 = ends[i]
        for k in range(i + 1, len(pairs)):
            ends2 = ends[k]
            if not sight & ends2 or ends1 & ends2:
                continue  # no end of one pair sees an end of the other, or they share a cell
            h2, a2, b2 = pairs[k]
            open_cells = cells ^ ends1 ^ ends2  # the ends are cells with the digit, four different ones
            for near1, far1, near_sight in ((a1, b1, sight_a1), (b1, a1, sight_b1)):
                if not near_sight & ends2:
                    continue
                seen = peers[far1] & open_cells
                for near2, far2 in ((a2, b2), (b2, a2)):
                    if not near_sight >> near2 & 1 or not (both := seen & peers[far2]):
                        continue
                    chain = Chain(digit, h1, h2, near1, far1, near2, far2, both)
                    if h2 < 9:  # two rows
                        if near1 % 9 == near2 % 9 and far1 % 9 != far2 % 9:
                            sky_rows.append((0, chain))
                    elif h2 < 18:
                        if h1 >= 9:  # two columns
                            if near1 // 9 == near2 // 9 and far1 // 9 != far2 // 9:
                                sky_columns.append((0, chain))
                        elif box[near1] == box[near2] and box[far1] != box[near1] and box[far2] != box[near2]:
                            kites.append((1, chain))
                    turbots.append((2, chain))
    return sky_rows + sky_columns + kites + turbots


def _skyscraper_step(digit: int, h1: int, h2: int, base1: int, top1: int, base2: int, top2: int, both: int) -> Step:
    """The skyscraper on `digit` of the conjugate pairs in lines h1 and h2, standing on base1 and base2; the
    cells of `both` lose the digit."""
    return Step(
        Technique.SKYSCRAPER,
        eliminations=tuple((c, digit) for c in set_bits(both)),
        cells=(base1, top1, base2, top2),
        houses=(h1, h2),
        digits=(digit,),
    )


def _kite_step(digit: int, hr: int, hc: int, row_end: int, row_far: int, col_end: int, col_far: int, both: int) -> Step:
    """The two-string kite on `digit` of the conjugate pairs in row hr and column hc, joined in the box of their
    near ends; the cells of `both` lose the digit."""
    return Step(
        Technique.TWO_STRING_KITE,
        eliminations=tuple((c, digit) for c in set_bits(both)),
        cells=(row_end, row_far, col_end, col_far),
        houses=(hr, hc, 18 + BOX_OF[row_end]),
        digits=(digit,),
    )


def _turbot_step(digit: int, h1: int, h2: int, near1: int, far1: int, near2: int, far2: int, both: int) -> Step:
    """The turbot fish on `digit` of the conjugate pairs in houses h1 and h2, whose near ends see each other; the
    cells of `both` lose the digit."""
    return Step(
        Technique.TURBOT_FISH,
        eliminations=tuple((c, digit) for c in set_bits(both)),
        cells=(far1, near1, near2, far2),
        houses=(h1, h2),
        digits=(digit,),
    )


@cache  # 9 x 512 possible arguments: built as met, not all at import (50 ms a process)
def _er_crosses(b: int, p: int) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """For box b with the digit in positions `p`: (its cells, the (row, column) pairs that hold them all), in
    the order HoDoKu tries them (its ER patterns: the bottom row first, and in a row the right column first);
    no pairs when the cells are fewer than two or in one line."""
    cells = [BOXES[b][i] for i in range(9) if p >> i & 1]
    rows = {c // 9 for c in cells}
    cols = {c % 9 for c in cells}
    if len(cells) < 2 or len(rows) == 1 or len(cols) == 1:
        return tuple(cells), []
    return tuple(cells), [
        (r, k)
        for r in sorted(rows, reverse=True)
        for k in sorted(cols, reverse=True)
        if all(c // 9 == r or c % 9 == k for c in cells)
    ]


def find_empty_rectangle(board: Board) -> Iterator[Step]:
    """A box whose candidates for a digit lie on one row and one column, with a conjugate pair off the box."""
    return board.digit_steps("empty_rectangle", _empty_rectangle_steps)


def _empty_rectangle_steps(board: Board, digit: int) -> Iterator[Step]:
    """`find_empty_rectangle`'s steps on one digit: per box, per (row, column) cross holding its candidates, the
    conjugate pairs of columns with an end on the row, then those of rows with an end on the column, in house
    order (HoDoKu's SingleDigitPatternSolver order)."""
    pairs = conjugate_pairs(board, digit)
    if not pairs:
        return
    positions = board.house_positions(digit)
    boxes = [
        (b, cells, crosses) for b in range(9) for cells, crosses in (_er_crosses(b, positions[18 + b]),) if crosses
    ]
    if not boxes:
        return
    # (house, near end, far end) of the rows' pairs by the near end's column, of the columns' by its row (a
    # pair's two ends lie in two columns, or two rows: one end at most is near for a cross).
    rows_near_at: list[list[tuple[int, int, int]]] = [[] for _ in range(9)]
    columns_near_at: list[list[tuple[int, int, int]]] = [[] for _ in range(9)]
    for h, a, z in pairs:
        if h < 9:
            rows_near_at[a % 9].append((h, a, z))
            rows_near_at[z % 9].append((h, z, a))
        elif h < 18:
            columns_near_at[a // 9].append((h, a, z))
            columns_near_at[z // 9].append((h, z, a))
    box = BOX_OF
    digit_cells = board.digit_cells(digit)
    for b, cells, crosses in boxes:
        for er_row, er_col in crosses:
            # A conjugate pair in a column with its near end on the ER row (or in a row
            # with its near end on the ER column): whichever end holds the digit, the
            # cell where the far end's line crosses the ER's other line cannot.
            for h, near, far in columns_near_at[er_row]:
                target = (far // 9) * 9 + er_col
                if box[near] != b and box[far] != b and box[target] != b and digit_cells >> target & 1:
                    yield _er_step(digit, b, (er_row, er_col), cells, (h, near, far), target)
            for h, near, far in rows_near_at[er_col]:
                target = er_row * 9 + far % 9
                if box[near] != b and box[far] != b and box[target] != b and digit_cells >> target & 1:
                    yield _er_step(digit, b, (er_row, er_col), cells, (h, near, far), target)


def _er_step(
    digit: int, b: int, cross: tuple[int, int], cells: tuple[int, ...], pair: tuple[int, int, int], target: int
) -> Step:
    """The empty rectangle on `digit` in box b (its candidates `cells` on the row and column of `cross`,
    (er_row, er_col)) with the conjugate pair (h, near, far): near-far of house h, eliminating the digit
    from `target`."""
    er_row, er_col = cross
    h, near, far = pair
    return Step(
        Technique.EMPTY_RECTANGLE,
        eliminations=((target, digit),),
        cells=cells + (near, far),
        houses=(18 + b, h),
        digits=(digit,),
        cover=(er_row, 9 + er_col),
    )
