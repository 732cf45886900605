"""Single-digit patterns: skyscraper, two-string kite, empty rectangle, turbot fish.

Technique write-ups: HoDoKu "Single Digit Patterns" (tech_sdp.php),
SudokuWiki "Skyscraper", "2-String Kite", "Empty Rectangles", "Turbot Fish". Each joins two
strong links (conjugate pairs) on one digit by a weak link; one of the two far
ends must hold the digit, so cells that see both lose it.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, cells_with, conjugate_pairs, sees
from .grid import BOXES, PEER_BITS, box_of, cell_name, house_name
from .steps import Step
from .techniques import title


def _see_both(board: Board, digit: int, a: int, b: int, exclude: set[int]) -> tuple[tuple[int, int], ...]:
    """Candidates of `digit` in cells (not in `exclude`) that see both a and b."""
    both = PEER_BITS[a] & PEER_BITS[b] & board.digit_cells(digit)
    if not both:
        return ()
    return tuple((c, digit) for c in range(81) if both >> c & 1 and c not in exclude)


def find_skyscraper(board: Board) -> Iterator[Step]:
    """Two conjugate pairs in parallel lines, one end of each in a shared cross line."""
    for digit in range(1, 10):
        pairs = conjugate_pairs(board, digit)
        for kind, cross in ((range(0, 9), lambda c: c % 9), (range(9, 18), lambda c: c // 9)):
            lines = [p for p in pairs if p[0] in kind]
            for i in range(len(lines)):
                for j in range(i + 1, len(lines)):
                    h1, a1, b1 = lines[i]
                    h2, a2, b2 = lines[j]
                    for base1, top1 in ((a1, b1), (b1, a1)):
                        for base2, top2 in ((a2, b2), (b2, a2)):
                            if cross(base1) != cross(base2) or cross(top1) == cross(top2):
                                continue
                            elims = _see_both(board, digit, top1, top2, {a1, b1, a2, b2})
                            if elims:
                                yield Step("skyscraper", eliminations=elims, cells=(base1, top1, base2, top2),
                                           houses=(h1, h2),
                                           text=f"{title('skyscraper')}: {digit} in {house_name(h1)} and {house_name(h2)} "
                                                f"stands on {cell_name(base1)} and {cell_name(base2)}; one of "
                                                f"{cell_name(top1)}, {cell_name(top2)} is {digit}")


def find_two_string_kite(board: Board) -> Iterator[Step]:
    """A conjugate pair in a row and one in a column, joined through a box."""
    for digit in range(1, 10):
        pairs = conjugate_pairs(board, digit)
        rows = [p for p in pairs if p[0] < 9]
        cols = [p for p in pairs if 9 <= p[0] < 18]
        for hr, r1, r2 in rows:
            for hc, c1, c2 in cols:
                for row_end, row_far in ((r1, r2), (r2, r1)):
                    for col_end, col_far in ((c1, c2), (c2, c1)):
                        if len({row_end, row_far, col_end, col_far}) < 4:
                            continue
                        if box_of(row_end) != box_of(col_end) or box_of(row_far) == box_of(row_end) \
                                or box_of(col_far) == box_of(col_end):
                            continue
                        elims = _see_both(board, digit, row_far, col_far, {r1, r2, c1, c2})
                        if elims:
                            yield Step("two_string_kite", eliminations=elims, cells=(row_end, row_far, col_end, col_far),
                                       houses=(hr, hc, 18 + box_of(row_end)),
                                       text=f"{title('two_string_kite')}: {digit} in {house_name(hr)} and {house_name(hc)}, "
                                            f"joined in box {box_of(row_end) + 1}; one of {cell_name(row_far)}, "
                                            f"{cell_name(col_far)} is {digit}")


def find_empty_rectangle(board: Board) -> Iterator[Step]:
    """A box whose candidates for a digit lie on one row and one column, with a conjugate pair off the box."""
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        pairs = conjugate_pairs(board, digit)
        for b, box in enumerate(BOXES):
            cells = cells_with(board.candidates, box, digit)
            if len(cells) < 2:
                continue
            rows = {c // 9 for c in cells}
            cols = {c % 9 for c in cells}
            if len(rows) == 1 or len(cols) == 1:
                continue  # locked candidates, not an empty rectangle
            for er_row in rows:
                for er_col in cols:
                    if not all(c // 9 == er_row or c % 9 == er_col for c in cells):
                        continue
                    # A conjugate pair in a column with its near end on the ER row (or in a row
                    # with its near end on the ER column): whichever end holds the digit, the
                    # cell where the far end's line crosses the ER's other line cannot.
                    for h, a, z in pairs:
                        for near, far in ((a, z), (z, a)):
                            if 9 <= h < 18 and near // 9 == er_row and box_of(near) != b and box_of(far) != b:
                                target = (far // 9) * 9 + er_col
                            elif h < 9 and near % 9 == er_col and box_of(near) != b and box_of(far) != b:
                                target = er_row * 9 + far % 9
                            else:
                                continue
                            if box_of(target) == b or not board.candidates[target] & bit or target in (near, far):
                                continue
                            yield Step("empty_rectangle", eliminations=((target, digit),), cells=tuple(cells) + (near, far),
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
    for digit in range(1, 10):
        pairs = conjugate_pairs(board, digit)
        for i, (h1, a1, b1) in enumerate(pairs):
            for h2, a2, b2 in pairs[i + 1:]:
                if len({a1, b1, a2, b2}) < 4:
                    continue
                for near1, far1 in ((a1, b1), (b1, a1)):
                    for near2, far2 in ((a2, b2), (b2, a2)):
                        if not sees(near1, near2):
                            continue
                        elims = _see_both(board, digit, far1, far2, {a1, b1, a2, b2})
                        if elims:
                            yield Step("turbot_fish", eliminations=elims, cells=(far1, near1, near2, far2),
                                       houses=(h1, h2),
                                       text=f"{title('turbot_fish')}: {digit} in {house_name(h1)} and {house_name(h2)}; "
                                            f"{cell_name(near1)} sees {cell_name(near2)}, so one of "
                                            f"{cell_name(far1)}, {cell_name(far2)} is {digit}")
