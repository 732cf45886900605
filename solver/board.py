"""Mutable solving state: placed digits and candidate bitmasks."""

from __future__ import annotations

import sys
from operator import itemgetter, lshift, or_

from .grid import BOXES, COLUMNS, HOUSES, HOUSES_OF_CELL, PEERS, digit_bit, initial_candidates
from .steps import Step

#: _SPREAD[mask]: bit d of a 9-bit candidate mask moved to bit 144 * d. Summing _SPREAD[mask] << shift
#: over the 81 cells of nine houses, with shift 16 * (house) + (index in the house), lays the candidates out
#: as nine 144-bit blocks (one per digit) of nine 16-bit fields (one per house): each field is the digit's
#: position mask in that house, and the bytes of the sum read as unsigned shorts give all 81 masks at once.
_SPREAD = tuple(sum(1 << (144 * d) for d in range(9) if m >> d & 1) for m in range(512))
_FIELD_SHIFTS = tuple(16 * (i // 9) + i % 9 for i in range(81))
#: The 81 cells in column-major and in box-major order (house after house, each in HOUSES order).
_COLUMN_MAJOR = itemgetter(*[c for col in COLUMNS for c in col])
_BOX_MAJOR = itemgetter(*[c for box in BOXES for c in box])
_ROW_SHIFTS = tuple(range(0, 81, 9))
_LITTLE = sys.byteorder == "little"


def _house_masks(cands) -> list[int]:
    """81 position masks of nine houses given their cells' candidates house after house (81 masks):
    entry 9 * (d - 1) + k is the mask of digit d in the k-th house."""
    layout = sum(map(lshift, map(_SPREAD.__getitem__, cands), _FIELD_SHIFTS))
    if _LITTLE:  # native unsigned shorts are little-endian here
        return memoryview(layout.to_bytes(162, "little")).cast("H").tolist()
    return [layout >> s & 511 for s in range(0, 1296, 16)]


def _tables(board: "Board") -> tuple[list[list[int]], list[int], list[tuple[int, ...]]]:
    """(positions, cells, by_house): positions[d][h] the 9-bit mask of places for digit d (1..9) in house h
    (as in `Board.house_positions`), cells[d] the 81-bit set of cells holding d (index 0 unused), by_house[h]
    the nine masks of house h, digits 1..9 in order."""
    cands = board.candidates
    rows = _house_masks(cands)
    cols = _house_masks(_COLUMN_MAJOR(cands))
    boxes = _house_masks(_BOX_MAJOR(cands))
    positions = [[]] + [rows[k:k + 9] + cols[k:k + 9] + boxes[k:k + 9] for k in range(0, 81, 9)]
    cells = [0] + [sum(map(lshift, rows[k:k + 9], _ROW_SHIFTS)) for k in range(0, 81, 9)]
    by_house = [tuple(masks[k::9]) for masks in (rows, cols, boxes) for k in range(9)]
    return positions, cells, by_house


#: The tables of `memoised` functions, emptied whenever a Board is made.
_MEMO_TABLES: list[dict] = []


def memo_table() -> dict:
    """A dict for memoised results that empties whenever a `Board` is made (see `memoised`)."""
    table: dict = {}
    _MEMO_TABLES.append(table)
    return table


def memoised_per_digit(table: dict, steps_of, board: "Board", digit: int) -> tuple:
    """The steps `steps_of(board, digit)` yields, memoised in `table` (a `memo_table`) on the digit and its
    cells: for finders of single-digit patterns, which depend on nothing else (most digits are unchanged
    from one step to the next)."""
    key = (digit, board.digit_cells(digit))
    found = table.get(key)
    if found is None:
        found = table[key] = tuple(steps_of(board, digit))
    return found


def memoised(function):
    """Memoise a pure function of hashable positional arguments, per puzzle: the table empties whenever a
    `Board` is made, so that a solve reuses what it found on earlier steps (most houses and lines are the
    same from one step to the next) but never what an earlier solve of the same puzzle found, and the table
    stays small. Another thread's new Board may empty a table at any time: callers read an entry once (a
    lost entry is only recomputed, results being pure functions of the key)."""
    table = memo_table()

    def wrapper(*args):
        try:
            return table[args]
        except KeyError:
            result = table[args] = function(*args)
            return result

    wrapper.__doc__, wrapper.__name__, wrapper.__wrapped__ = function.__doc__, function.__name__, function
    return wrapper


class Board:
    """Digits placed so far and the candidates left in every empty cell.

    Attributes
    ----------
    values : list of int
        81 values, 0 for empty.
    candidates : list of int
        81 9-bit masks (bit d-1 for digit d); 0 for a filled cell.
    house_empty : list of int
        Per house (0..26), the number of empty cells. Digits are placed with `place` only (it keeps this
        count); candidates may be set directly.
    """

    def __init__(self, grid: list[int]):
        self.values = list(grid)
        self.candidates = initial_candidates(grid)
        #: Per house (27), its number of empty cells (kept by `place`; full houses are looked up in it).
        self.house_empty = [[grid[c] for c in house].count(0) for house in HOUSES]
        self._cache: dict = {}
        for table in _MEMO_TABLES:
            table.clear()

    def cached(self, key, factory):
        """`factory(self)`, computed once per board state (the cache empties on every change)."""
        if key not in self._cache:
            self._cache[key] = factory(self)
        return self._cache[key]

    def house_positions(self, digit: int) -> list[int]:
        """Per house (27), a 9-bit mask of the positions (index in HOUSES[h]) still holding `digit`.

        Cached until the board changes: every finder of a pass shares it.
        """
        return self.cached("tables", _tables)[0][digit]

    def house_digit_positions(self, house: int) -> tuple[int, ...]:
        """The nine position masks of `house` (0..26), for digits 1..9 in order: the transpose of
        `house_positions`, for finders that work house by house. Cached until the board changes."""
        return self.cached("tables", _tables)[2][house]

    def digit_cells(self, digit: int) -> int:
        """The cells that still have `digit` as a candidate, as an 81-bit set; cached until the board changes."""
        return self.cached("tables", _tables)[1][digit]

    def place(self, cell: int, digit: int) -> None:
        """Set a digit and remove it from the candidates of the cell's peers."""
        self._cache.clear()
        if not self.values[cell]:
            for h in HOUSES_OF_CELL[cell]:
                self.house_empty[h] -= 1
        self.values[cell] = digit
        self.candidates[cell] = 0
        bit = ~digit_bit(digit)
        cands = self.candidates
        for p in PEERS[cell]:
            cands[p] &= bit

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove one candidate."""
        self._cache.clear()
        self.candidates[cell] &= ~digit_bit(digit)

    def apply(self, step: Step) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, d in step.placements:
            self.place(cell, d)
        for cell, d in step.eliminations:
            self.eliminate(cell, d)

    def is_solved(self) -> bool:
        """True when every cell holds a digit."""
        return all(self.values)

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate left (the grid has no solution)."""
        return 0 in map(or_, self.values, self.candidates)  # value | mask == 0: empty and no candidate


def cells_with(candidates: list[int], cells, digit: int) -> list[int]:
    """The cells among `cells` that still have `digit` as a candidate."""
    bit = 1 << (digit - 1)
    return [c for c in cells if candidates[c] & bit]


def sees(a: int, b: int) -> bool:
    """True when two different cells share a house."""
    return a != b and (a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3))


def conjugate_pairs(board: Board, digit: int) -> list[tuple[int, int, int]]:
    """Strong links on one digit: (house, cell a, cell b) for houses where it fits in exactly two cells.

    Parameters
    ----------
    board : Board
    digit : int
        1..9.

    Returns
    -------
    list of (int, int, int)
        In house order; cached until the board changes (callers must not modify it).
    """
    key = ("pairs", digit)
    out = board._cache.get(key)
    if out is None:
        out = board._cache[key] = [(h, HOUSES[h][_LOW[mask]], HOUSES[h][_HIGH[mask]])
                                   for h, mask in enumerate(board.house_positions(digit)) if _TWO[mask]]
    return out


#: Per 9-bit mask: has it exactly two bits, and the indices of its lowest and highest bits.
_TWO = tuple(m.bit_count() == 2 for m in range(512))
_LOW = tuple((m & -m).bit_length() - 1 for m in range(512))
_HIGH = tuple(m.bit_length() - 1 for m in range(512))
