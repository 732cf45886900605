"""Uniqueness: unique rectangles types 1-6, hidden rectangle, avoidable rectangles types 1-2 and BUG+1.

Technique write-ups: HoDoKu "Uniqueness" (tech_ur.php), SudokuWiki "Unique
Rectangles" and "BUG". A puzzle with exactly one solution can never reach a
deadly pattern: four empty cells in two rows, two columns and two boxes left
with only the same two candidates {a, b} (the digits could be swapped). As in
HoDoKu (its default "allow missing candidates"), a corner that lost a or b to
logic still counts while no house of it holds that digit: the swapped grid
would satisfy the givens all the same. Only sound when the puzzle is known to
have a single solution; `solver.solve` counts solutions before logic runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, compress

from .board import ALL_CELLS, Board, cells_with, sees
from .grid import (
    BOX_OF,
    BOXES,
    COLUMNS,
    HOUSE_BITS,
    HOUSES,
    HOUSES_OF_CELL,
    PEER_BITS,
    ROWS,
    box_of,
    digits_of,
    set_bits,
)
from .steps import Step
from .techniques import Technique


def _find_rectangles(board: Board) -> list[tuple[tuple[int, ...], int, int, tuple[int, int, int, int]]]:
    """The possible deadly patterns in HoDoKu's search order (UniquenessSolver): from each bivalue cell in turn
    (corner 1, digits a and b), each cell of its box in its row or column that allows both (corner 2, in box
    order), then the cells along the two corners' columns (or rows) outside the box that allow both (corners 3
    and 4, in line order); each rectangle once, with the digits of the first corner 1 that reaches it. As
    (cells TL TR BL BR, a, b, the corners in that search order)."""
    cands = board.candidates
    values = board.values
    # A cell "allows" d when it is empty and no house of it holds d: a candidate deleted by logic does not
    # disqualify a rectangle (HoDoKu's default, "allow missing candidates"): the swapped grid would satisfy
    # the givens all the same. blocked[d]: the cells that see a d.
    blocked = [0] * 10
    for cell in compress(range(81), values):
        blocked[values[cell]] |= PEER_BITS[cell]
    empty = board.empty_cells
    seen: set[tuple[int, ...]] = set()
    found = []
    for first in set_bits(board.bivalue_cells()):
        a, b = digits_of(cands[first])
        allowed = empty & ~(blocked[a] | blocked[b])  # the cells that allow both digits
        row, column, box = first // 9, first % 9, BOX_OF[first]
        for second in BOXES[box]:
            if second == first or not allowed >> second & 1 or (second // 9 != row and second % 9 != column):
                continue
            if second // 9 == row:  # the rectangle's other side lies along the two columns
                lines = zip(COLUMNS[column], COLUMNS[second % 9])
            else:
                lines = zip(ROWS[row], ROWS[second // 9])
            for third, fourth in lines:
                if BOX_OF[third] == box or not allowed >> third & 1 or not allowed >> fourth & 1:
                    continue
                cells = tuple(sorted((first, second, third, fourth)))
                if cells not in seen:
                    seen.add(cells)
                    found.append((cells, a, b, (first, second, third, fourth)))
    return found


def _rectangles(board: Board) -> list[tuple[tuple[int, int, int, int], int, int, tuple[int, int, int, int]]]:
    """`_find_rectangles`, cached per board state."""
    return board.cached("rectangles", _find_rectangles)


def _split_rectangles(board: Board) -> list[tuple[tuple[int, int, int, int], int, int, int, list[int], list[int]]]:
    """`_rectangles` with each rectangle's digit mask of a and b, its floor (the cells holding only a/b) and its
    roof (the cells with more digits), for every unique rectangle type to share (cached per board state)."""
    cands = board.candidates
    out = []
    for cells, a, b, _ in _rectangles(board):
        ab = (1 << (a - 1)) | (1 << (b - 1))
        out.append((cells, a, b, ab, [c for c in cells if not cands[c] & ~ab], [c for c in cells if cands[c] & ~ab]))
    return out


def _ur(board: Board, kind: int) -> Iterator[Step]:
    cands = board.candidates
    name = Technique(f"unique_rectangle_{kind}")
    for cells, a, b, ab, floor, roof in board.cached("split rectangles", _split_rectangles):
        if kind == 1 and len(floor) == 3:
            (r,) = roof
            if cands[r] & ab:
                yield Step(
                    name,
                    eliminations=tuple((r, d) for d in (a, b) if cands[r] >> (d - 1) & 1),
                    cells=cells,
                    digits=(a, b),
                    roof=(r,),
                )
        if len(floor) == 2 and kind in (2, 5):
            extra = cands[roof[0]] & ~ab
            side = sees(roof[0], roof[1]) and (roof[0] // 9 == roof[1] // 9 or roof[0] % 9 == roof[1] % 9)
            if extra == cands[roof[1]] & ~ab and extra.bit_count() == 1 and side == (kind == 2):
                yield from _extra_digit_step(board, name, cells, roof, extra, a, b)
        if kind == 5 and len(floor) == 1:
            extras = {cands[c] & ~ab for c in roof}
            if len(extras) == 1 and next(iter(extras)).bit_count() == 1:
                yield from _extra_digit_step(board, name, cells, roof, extras.pop(), a, b)
        if kind == 3 and len(floor) == 2 and sees(roof[0], roof[1]):
            yield from _ur3(board, cells, roof, a, b)
        if kind == 4 and len(floor) == 2 and sees(roof[0], roof[1]):
            yield from _ur4(board, cells, roof, a, b)
        if kind == 6 and len(floor) == 2 and not sees(floor[0], floor[1]):
            yield from _ur6(board, cells, roof, a, b)


def _ur4(board: Board, cells, roof, a: int, b: int) -> Iterator[Step]:
    """Type 4: one of a/b locked to the two roof cells in a house they share; the other leaves both."""
    cands = board.candidates
    name = Technique.UNIQUE_RECTANGLE_4
    shared = set(HOUSES_OF_CELL[roof[0]]) & set(HOUSES_OF_CELL[roof[1]])
    for h in sorted(shared):
        for u, v in ((a, b), (b, a)):
            # u must go in a roof cell (no house of the rectangle holds it yet): the roof cannot be v.
            if set(cells_with(cands, HOUSES[h], u)) <= set(roof) and (
                victims := tuple((r, v) for r in roof if cands[r] >> (v - 1) & 1)
            ):
                yield Step(
                    name,
                    eliminations=victims,
                    cells=cells,
                    houses=(h,),
                    digits=(a, b),
                    roof=tuple(roof),
                )


def _ur6(board: Board, cells, roof, a: int, b: int) -> Iterator[Step]:
    """Type 6: the floor diagonal; a or b confined to the rectangle in both its rows and columns leaves the roof."""
    cands = board.candidates
    name = Technique.UNIQUE_RECTANGLE_6
    rows = {c // 9 for c in cells}
    cols = {c % 9 for c in cells}
    for u in (a, b):
        lines = [ROWS[r] for r in rows] + [COLUMNS[c] for c in cols]
        if all(set(cells_with(cands, line, u)) <= set(cells) for line in lines) and (
            victims := tuple((r, u) for r in roof if cands[r] >> (u - 1) & 1)
        ):
            yield Step(
                name,
                eliminations=victims,
                cells=cells,
                digits=(a, b),
                roof=tuple(roof),
            )


def _extra_digit_step(board, name, cells, roof, extra, a, b) -> Iterator[Step]:
    z = extra.bit_length()
    elims = tuple(
        (c, z) for c in range(81) if c not in cells and board.candidates[c] & extra and all(sees(c, r) for r in roof)
    )
    if elims:
        yield Step(name, eliminations=elims, cells=cells, digits=(a, b), roof=tuple(roof))


def _ur3(board: Board, cells, roof, a: int, b: int) -> Iterator[Step]:
    """Type 3: the roof's extra digits act as one virtual cell in a naked subset of a shared house."""
    cands = board.candidates
    ab = (1 << (a - 1)) | (1 << (b - 1))
    extra = (cands[roof[0]] | cands[roof[1]]) & ~ab
    shared = set(HOUSES_OF_CELL[roof[0]]) & set(HOUSES_OF_CELL[roof[1]])
    for h in sorted(shared):
        others = [c for c in HOUSES[h] if cands[c] and c not in cells]
        for k in range(1, 4):
            for group in combinations(others, k):
                union = extra
                for c in group:
                    union |= cands[c]
                if union.bit_count() != k + 1:
                    continue
                elims = tuple((c, d) for c in others if c not in group for d in digits_of(cands[c] & union))
                if elims:
                    yield Step(
                        Technique.UNIQUE_RECTANGLE_3,
                        eliminations=elims,
                        cells=cells + group,
                        houses=(h,),
                        digits=(a, b),
                        roof=tuple(roof),
                    )


def find_unique_rectangle_1(board: Board) -> Iterator[Step]:
    """Three cells of the rectangle hold only a/b: the fourth is neither a nor b."""
    return _ur(board, 1)


def find_unique_rectangle_2(board: Board) -> Iterator[Step]:
    """Two side-by-side roof cells with the same one extra digit z: z leaves cells that see both."""
    return _ur(board, 2)


def find_unique_rectangle_3(board: Board) -> Iterator[Step]:
    """The roof's extra digits complete a naked subset in a house shared by both roof cells."""
    return _ur(board, 3)


def find_unique_rectangle_4(board: Board) -> Iterator[Step]:
    """One of a/b is locked to the two roof cells in a shared house: the other leaves both."""
    return _ur(board, 4)


def find_unique_rectangle_5(board: Board) -> Iterator[Step]:
    """Two diagonal (or three) roof cells with the same one extra digit z: z leaves cells that see them all."""
    return _ur(board, 5)


def find_unique_rectangle_6(board: Board) -> Iterator[Step]:
    """Diagonal floor: a digit confined to the rectangle in both rows and columns leaves the roof cells."""
    return _ur(board, 6)


def find_hidden_rectangle(board: Board) -> Iterator[Step]:
    """A floor corner holds only a/b; if a is a conjugate pair along both lines through the opposite corner D
    (each time with a rectangle corner), D is not b.

    HoDoKu "Hidden Rectangle" (tech_ur.php). Were D b, both corners that share a
    line with D would be a, the floor corner b, and the four corners a deadly
    pattern.
    """
    cands = board.candidates
    for cells, a, b, order in _rectangles(board):
        ab = (1 << (a - 1)) | (1 << (b - 1))
        floor = [c for c in order if not cands[c] & ~ab]
        # HoDoKu looks for one when one corner, or two diagonal corners, hold only a/b (in its search order).
        if not (
            len(floor) == 1 or (len(floor) == 2 and floor[0] // 9 != floor[1] // 9 and floor[0] % 9 != floor[1] % 9)
        ):
            continue
        for corner in floor:
            i = cells.index(corner)
            # Corners are TL, TR, BL, BR: index ^ 3 is diagonal, ^ 1 shares the row, ^ 2 the column.
            d, row_mate, column_mate = cells[i ^ 3], cells[i ^ 2], cells[i ^ 1]
            for x, y in ((a, b), (b, a)):
                places = board.digit_cells(x)
                if (
                    places & HOUSE_BITS[d // 9] == 1 << d | 1 << row_mate
                    and places & HOUSE_BITS[9 + d % 9] == 1 << d | 1 << column_mate
                    and cands[d] >> (y - 1) & 1
                ):
                    yield Step(
                        Technique.HIDDEN_RECTANGLE,
                        eliminations=((d, y),),
                        cells=cells,
                        digits=(a, b),
                        floor=(corner,),
                    )


def find_bug_plus_1(board: Board) -> Iterator[Step]:
    """Bivalue Universal Grave + 1: the grid would be a BUG but for one digit of its one trivalue cell.

    A BUG (every empty cell bivalue, every digit twice in each house it is left in) has two solutions.
    When one cell has a third candidate d, d appears three times in that cell's row, column and box and
    every other (house, digit) at most twice, d must go in that cell: the cell's other candidates are
    eliminated (HoDoKu's BUG+1 step, ``UniquenessSolver``; SudokuWiki "BUG"). A naked single follows.
    """
    cands = board.candidates
    extra = board.empty_cells & ~board.bivalue_cells()
    if not extra or extra & (extra - 1) or cands[cell := extra.bit_length() - 1].bit_count() != 3:
        return
    threes = set()
    for d in range(1, 10):
        for house_index, positions in enumerate(board.house_positions(d)):
            count = positions.bit_count()
            if count > 3:
                return
            if count == 3:
                threes.add((house_index, d))
    for d in digits_of(cands[cell]):
        if threes == {(house_index, d) for house_index in HOUSES_OF_CELL[cell]}:
            others = tuple((cell, e) for e in digits_of(cands[cell]) if e != d)
            yield Step(
                Technique.BUG_PLUS_1,
                eliminations=others,
                cells=(cell,),
                digits=(d,),
            )
            return


#: _OUTSIDE_BAND[k] / _OUTSIDE_STACK[k]: the cells outside band k (rows 3k..3k+2) / stack k (columns 3k..3k+2).
_OUTSIDE_BAND = [ALL_CELLS & ~(HOUSE_BITS[3 * k] | HOUSE_BITS[3 * k + 1] | HOUSE_BITS[3 * k + 2]) for k in range(3)]
_OUTSIDE_STACK = [
    ALL_CELLS & ~(HOUSE_BITS[9 + 3 * k] | HOUSE_BITS[10 + 3 * k] | HOUSE_BITS[11 + 3 * k]) for k in range(3)
]


def _avoidable_rectangles(board: Board) -> list[Step]:
    """Every avoidable rectangle step of the position, types 1 and 2, in HoDoKu's order (cached per state).

    HoDoKu "Avoidable Rectangle" (tech_ur.php, ``UniquenessSolver.findAvoidableRectangles``): a deadly
    pattern may also form from solved cells, as long as none of the four is a given (the givens could not
    be swapped; digits found by logic could). Two solved non-given cells c11 = a and c12 = b share a box and
    a line; c21 and c22 lie on the lines through c11 and c12 in another box, c21 in c11's line. Were c21 = b
    and c22 = a, the four would be swappable. Type 1: c21 is solved b (not a given) and c22 still has a, or
    c22 is solved a and c21 still has b: that candidate goes. Type 2: c21 holds only {b, x} and c22 only
    {a, x}: one of them is x, so x leaves every cell that sees both. Scanned as HoDoKu does: c11 in cell
    order, c12 in the order of the box's cells, the far pair along the lines.
    """
    values, cands = board.values, board.candidates
    solved = ALL_CELLS & ~board.empty_cells & ~board.givens  # filled by logic, not givens
    bivalue = board.bivalue_cells()
    if not solved & (solved - 1) or not bivalue:
        return []
    solved_as = [0] * 10  # per digit, the solved non-given cells holding it
    for cell in set_bits(solved):
        solved_as[values[cell]] |= 1 << cell
    # fit[d]: the cells that can be a far corner needing d: solved d (not a given), or bivalue with d
    fit = [solved_as[d] | bivalue & board.digit_cells(d) for d in range(10)]
    steps: list[Step] = []
    seen: set[int] = set()
    for c11 in set_bits(solved):
        a = values[c11]
        row, column = divmod(c11, 9)
        box = box_of(c11)
        partners = solved & HOUSE_BITS[18 + box] & (HOUSE_BITS[row] | HOUSE_BITS[9 + column]) & ~(1 << c11)
        for c12 in BOXES[box]:
            if not partners >> c12 & 1:
                continue
            b = values[c12]
            if c12 // 9 == row:  # c21, c22 down the columns of c11 and c12, outside the band
                near = fit[b] & HOUSE_BITS[9 + column] & _OUTSIDE_BAND[row // 3]
            else:  # along their rows, outside the stack
                near = fit[b] & HOUSE_BITS[row] & _OUTSIDE_STACK[column // 3]
            shift = c12 - c11  # c22 = c21 + shift: c21 moved as c11 moves to c12
            hits = (near << shift if shift > 0 else near >> -shift) & fit[a]  # the c22 of fitting c21 that fit too
            for c22 in set_bits(hits):
                c21 = c22 - shift
                if values[c21] and values[c22]:
                    continue  # four solved cells: no candidate left to take
                rectangle = 1 << c11 | 1 << c12 | 1 << c21 | 1 << c22
                if rectangle in seen:
                    continue
                seen.add(rectangle)
                cells = (c11, c12, c21, c22)
                if values[c21] or values[c22]:
                    cell, digit = (c22, a) if values[c21] else (c21, b)
                    steps.append(
                        Step(
                            Technique.AVOIDABLE_RECTANGLE_1,
                            eliminations=((cell, digit),),
                            cells=cells,
                            digits=(a, b),
                        )
                    )
                    continue
                x = digits_of(cands[c21] & ~(1 << (b - 1)))[0]
                if not cands[c22] >> (x - 1) & 1:
                    continue
                victims = set_bits(PEER_BITS[c21] & PEER_BITS[c22] & board.digit_cells(x))
                if victims:
                    steps.append(
                        Step(
                            Technique.AVOIDABLE_RECTANGLE_2,
                            eliminations=tuple((v, x) for v in victims),
                            cells=cells,
                            digits=(a, b),
                        )
                    )
    return steps


def find_avoidable_rectangles(board: Board) -> Iterator[Step]:
    """Avoidable rectangles (see `_avoidable_rectangles`): every type 1 step (three corners solved, none a
    given: the fourth loses the digit that would complete the deadly pattern), then every type 2 step (two
    unsolved corners holding only {b, x} and {a, x}: x leaves the cells that see both), as HoDoKu tries
    type 1 before type 2."""
    steps = board.cached("avoidable rectangles", _avoidable_rectangles)
    yield from (s for s in steps if s.technique == Technique.AVOIDABLE_RECTANGLE_1)
    yield from (s for s in steps if s.technique == Technique.AVOIDABLE_RECTANGLE_2)
