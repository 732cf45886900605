"""Mutable solving state: placed digits and candidate bitmasks."""

from __future__ import annotations

from operator import mul, or_

from .grid import HOUSE_GETTERS, HOUSES, PEERS, digit_bit, initial_candidates
from .steps import Step

#: Position i of a house weighs 1 << i.
_POSITION_BITS = tuple(1 << i for i in range(9))


class Board:
    """Digits placed so far and the candidates left in every empty cell.

    Attributes
    ----------
    values : list of int
        81 values, 0 for empty.
    candidates : list of int
        81 9-bit masks (bit d-1 for digit d); 0 for a filled cell.
    """

    def __init__(self, grid: list[int]):
        self.values = list(grid)
        self.candidates = initial_candidates(grid)
        self._cache: dict = {}

    def cached(self, key, factory):
        """`factory(self)`, computed once per board state (the cache empties on every change)."""
        if key not in self._cache:
            self._cache[key] = factory(self)
        return self._cache[key]

    def house_positions(self, digit: int) -> list[int]:
        """Per house (27), a 9-bit mask of the positions (index in HOUSES[h]) still holding `digit`.

        Cached until the board changes: every finder of a pass shares it.
        """
        key = ("positions", digit)
        if key not in self._cache:
            shift = digit - 1
            has = [m >> shift & 1 for m in self.candidates]  # 0/1 per cell
            self._cache[key] = [sum(map(mul, get(has), _POSITION_BITS)) for get in HOUSE_GETTERS]
        return self._cache[key]

    def digit_cells(self, digit: int) -> int:
        """The cells that still have `digit` as a candidate, as an 81-bit set; cached until the board changes."""
        key = ("cells", digit)
        if key not in self._cache:
            bit = 1 << (digit - 1)
            self._cache[key] = sum(1 << c for c, m in enumerate(self.candidates) if m & bit)
        return self._cache[key]

    def place(self, cell: int, digit: int) -> None:
        """Set a digit and remove it from the candidates of the cell's peers."""
        self._cache.clear()
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
    """
    out = []
    for h, mask in enumerate(board.house_positions(digit)):
        if mask.bit_count() == 2:
            i = (mask & -mask).bit_length() - 1
            j = mask.bit_length() - 1
            out.append((h, HOUSES[h][i], HOUSES[h][j]))
    return out
