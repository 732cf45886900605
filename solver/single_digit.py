"""Single-digit patterns: skyscraper, two-string kite, empty rectangle, turbot fish.

Technique write-ups: HoDoKu "Single Digit Patterns" (tech_sdp.php),
SudokuWiki "Skyscraper", "2-String Kite", "Empty Rectangles", "Turbot Fish". Each joins two
strong links (conjugate pairs) on one digit by a weak link; one of the two far
ends must hold the digit, so cells that see both lose it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from .board import Board, conjugate_pairs
from .grid import BOXES, PEER_BITS, box_of, cell_name, house_name, set_bits
from .steps import Step
from .techniques import title


#: Box (0..8) of each cell, as a table.
_BOX = tuple(box_of(c) for c in range(81))


def _see_both(board: Board, digit: int, a: int, b: int, exclude: int) -> tuple[tuple[int, int], ...]:
    """Candidates of `digit` in cells (not in `exclude`, an 81-bit set) that see both a and b."""
    both = PEER_BITS[a] & PEER_BITS[b] & board.digit_cells(digit) & ~exclude
    return tuple((c, digit) for c in set_bits(both))


def find_skyscraper(board: Board) -> Iterator[Step]:
    """Two conjugate pairs in parallel lines, one end of each in a shared cross line."""
    return board.digit_steps("skyscraper", _skyscraper_steps)


def _skyscraper_steps(board: Board, digit: int) -> Iterator[Step]:
    """`find_skyscraper`'s steps on one digit."""
    pairs = conjugate_pairs(board, digit)
    if len(pairs) < 2:
        return
    for rows in (True, False):
        lines = [p for p in pairs if p[0] < 9] if rows else [p for p in pairs if 9 <= p[0] < 18]
        # Per pair, its two cross lines (columns of a row's pair, rows of a column's) as a 9-bit mask.
        crossing = [1 << a % 9 | 1 << b % 9 if rows else 1 << a // 9 | 1 << b // 9 for _, a, b in lines]
        for i in range(len(lines)):
            h1, a1, b1 = lines[i]
            for j in range(i + 1, len(lines)):
                if not crossing[i] & crossing[j]:
                    continue  # no cross line for the two bases
                h2, a2, b2 = lines[j]
                for base1, top1 in ((a1, b1), (b1, a1)):
                    for base2, top2 in ((a2, b2), (b2, a2)):
                        if rows:
                            if base1 % 9 != base2 % 9 or top1 % 9 == top2 % 9:
                                continue
                        elif base1 // 9 != base2 // 9 or top1 // 9 == top2 // 9:
                            continue
                        elims = _see_both(board, digit, top1, top2, 1 << a1 | 1 << b1 | 1 << a2 | 1 << b2)
                        if elims:
                            yield Step("skyscraper", eliminations=elims, cells=(base1, top1, base2, top2),
                                       houses=(h1, h2),
                                       text=f"{title('skyscraper')}: {digit} in {house_name(h1)} and {house_name(h2)} "
                                            f"stands on {cell_name(base1)} and {cell_name(base2)}; one of "
                                            f"{cell_name(top1)}, {cell_name(top2)} is {digit}")


def find_two_string_kite(board: Board) -> Iterator[Step]:
    """A conjugate pair in a row and one in a column, joined through a box."""
    return board.digit_steps("two_string_kite", _two_string_kite_steps)


def _two_string_kite_steps(board: Board, digit: int) -> Iterator[Step]:
    """`find_two_string_kite`'s steps on one digit."""
    box = _BOX
    pairs = conjugate_pairs(board, digit)
    rows = [(p, 1 << box[p[1]] | 1 << box[p[2]]) for p in pairs if p[0] < 9]  # with the boxes of its ends
    cols = [(p, 1 << box[p[1]] | 1 << box[p[2]]) for p in pairs if 9 <= p[0] < 18]
    for (hr, r1, r2), row_boxes in rows:
        for (hc, c1, c2), column_boxes in cols:
            if not row_boxes & column_boxes or r1 == c1 or r1 == c2 or r2 == c1 or r2 == c2:
                continue  # no box for the two near ends, or a shared cell
            for row_end, row_far in ((r1, r2), (r2, r1)):
                if box[row_far] == box[row_end]:
                    continue
                for col_end, col_far in ((c1, c2), (c2, c1)):
                    if box[row_end] != box[col_end] or box[col_far] == box[col_end]:
                        continue
                    elims = _see_both(board, digit, row_far, col_far, 1 << r1 | 1 << r2 | 1 << c1 | 1 << c2)
                    if elims:
                        yield Step("two_string_kite", eliminations=elims, cells=(row_end, row_far, col_end, col_far),
                                   houses=(hr, hc, 18 + box[row_end]),
                                   text=f"{title('two_string_kite')}: {digit} in {house_name(hr)} and {house_name(hc)}, "
                                        f"joined in box {box[row_end] + 1}; one of {cell_name(row_far)}, "
                                        f"{cell_name(col_far)} is {digit}")


@cache  # 9 x 512 possible arguments: built as met, not all at import (50 ms a process)
def _er_crosses(b: int, p: int) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """For box b with the digit in positions `p`: (its cells, the (row, column) pairs that hold them all), in
    the order the search tries them; no pairs when the cells are fewer than two or in one line."""
    cells = [BOXES[b][i] for i in range(9) if p >> i & 1]
    rows = {c // 9 for c in cells}
    cols = {c % 9 for c in cells}
    if len(cells) < 2 or len(rows) == 1 or len(cols) == 1:
        return tuple(cells), []
    return tuple(cells), [(r, k) for r in rows for k in cols if all(c // 9 == r or c % 9 == k for c in cells)]



def find_empty_rectangle(board: Board) -> Iterator[Step]:
    """A box whose candidates for a digit lie on one row and one column, with a conjugate pair off the box."""
    return board.digit_steps("empty_rectangle", _empty_rectangle_steps)


def _empty_rectangle_steps(board: Board, digit: int) -> Iterator[Step]:
    """`find_empty_rectangle`'s steps on one digit."""
    box = _BOX
    cands = board.candidates
    bit = 1 << (digit - 1)
    pairs = conjugate_pairs(board, digit)
    if not pairs:
        return
    positions = board.house_positions(digit)
    for b in range(9):
        cells, crosses = _er_crosses(b, positions[18 + b])
        for er_row, er_col in crosses:
            # A conjugate pair in a column with its near end on the ER row (or in a row
            # with its near end on the ER column): whichever end holds the digit, the
            # cell where the far end's line crosses the ER's other line cannot.
            for h, a, z in pairs:
                if h >= 18 or box[a] == b or box[z] == b:
                    continue
                for near, far in ((a, z), (z, a)):
                    if h >= 9 and near // 9 == er_row:
                        target = (far // 9) * 9 + er_col
                    elif h < 9 and near % 9 == er_col:
                        target = er_row * 9 + far % 9
                    else:
                        continue
                    if box[target] == b or not cands[target] & bit or target in (near, far):
                        continue
                    yield Step("empty_rectangle", eliminations=((target, digit),), cells=cells + (near, far),
                               houses=(18 + b, h),
                               text=f"{title('empty_rectangle')}: {digit} in box {b + 1} lies on row {er_row + 1} and "
                                    f"column {er_col + 1}; with the conjugate pair {cell_name(near)}-"
                                    f"{cell_name(far)} it cannot be in {cell_name(target)}")


def find_turbot_fish(board: Board) -> Iterator[Step]:
    """Two conjugate pairs on one digit whose near ends see each other: one far end holds the digit.

    HoDoKu's Turbot Fish: any strong - weak - strong chain of four cells on one
    digit; skyscraper and two-string kite are its special cases and come first
    in the ladder, so this finds the rest (for example links through boxes).
    """
    return board.digit_steps("turbot_fish", _turbot_fish_steps)


def _turbot_fish_steps(board: Board, digit: int) -> Iterator[Step]:
    """`find_turbot_fish`'s steps on one digit."""
    peers = PEER_BITS
    pairs = conjugate_pairs(board, digit)
    if len(pairs) < 2:
        return
    cells = board.digit_cells(digit)
    ends = [1 << a | 1 << b for _, a, b in pairs]
    for i, (h1, a1, b1) in enumerate(pairs):
        sight_a1, sight_b1 = peers[a1], peers[b1]
        sight = sight_a1 | sight_b1
        ends1 = ends[i]
        for k in range(i + 1, len(pairs)):
            ends2 = ends[k]
            if not sight & ends2 or ends1 & ends2:
                continue  # no end of one pair sees an end of the other, or they share a cell
            h2, a2, b2 = pairs[k]
            open_cells = cells & ~(ends1 | ends2)
            for near1, far1, near_sight in ((a1, b1, sight_a1), (b1, a1, sight_b1)):
                if not near_sight & ends2:
                    continue
                seen = peers[far1] & open_cells
                for near2, far2 in ((a2, b2), (b2, a2)):
                    if not near_sight >> near2 & 1 or not seen & peers[far2]:
                        continue
                    elims = _see_both(board, digit, far1, far2, ends1 | ends2)
                    yield Step("turbot_fish", eliminations=elims, cells=(far1, near1, near2, far2),
                               houses=(h1, h2),
                               text=f"{title('turbot_fish')}: {digit} in {house_name(h1)} and {house_name(h2)}; "
                                    f"{cell_name(near1)} sees {cell_name(near2)}, so one of "
                                    f"{cell_name(far1)}, {cell_name(far2)} is {digit}")
