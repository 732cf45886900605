"""Mutable solving state: placed digits and candidate bitmasks."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from functools import wraps
from typing import Any, TypeVar

from .grid import HOUSE_GETTERS, HOUSES, HOUSES_OF_CELL, PEER_BITS, digit_bit, digits_of, initial_candidates
from .steps import Step

#: What a single-digit finder keeps per digit (`Board.digit_steps`): steps, or records that become steps.
T = TypeVar("T")

#: The house fields of a board (`Board.house_fields`): one int of 243 16-bit fields, field 9 * h + d - 1
#: holding digit d's 9-bit position mask in house h (bit i: the i-th cell of HOUSES[h]); house h is the
#: 144-bit block from bit 144 * h. A candidate is three bits of it, one in the field of each of its houses:
#: CANDIDATE_BITS[cell * 9 + d - 1].
CANDIDATE_BITS = [
    sum(1 << (16 * (9 * h + d) + HOUSES[h].index(c)) for h in HOUSES_OF_CELL[c]) for c in range(81) for d in range(9)
]
#: CELL_BITS[cell]: the bits of all nine candidates of a cell.
CELL_BITS = [sum(CANDIDATE_BITS[9 * c : 9 * c + 9]) for c in range(81)]
#: _HOUSE_DIGIT_BITS[h * 9 + d - 1]: the bits of digit d in the nine cells of house h.
_HOUSE_DIGIT_BITS = [sum(CANDIDATE_BITS[9 * c + d] for c in HOUSES[h]) for h in range(27) for d in range(9)]
#: The house fields of an empty board (every candidate open), and the set of all 81 cells.
ALL_HOUSE_FIELDS = sum(CELL_BITS)
ALL_CELLS = (1 << 81) - 1
#: PLACEMENT_KEEP[cell * 9 + d - 1]: the house fields that placing d in the cell keeps (all but its candidates
#: and d in its houses), as a non-negative mask: ``&`` with it is one pass, unlike ``& ~bits``.
PLACEMENT_KEEP = [
    ALL_HOUSE_FIELDS
    & ~(CELL_BITS[c] | _HOUSE_DIGIT_BITS[9 * h1 + d] | _HOUSE_DIGIT_BITS[9 * h2 + d] | _HOUSE_DIGIT_BITS[9 * h3 + d])
    for c, (h1, h2, h3) in enumerate(HOUSES_OF_CELL)
    for d in range(9)
]
#: Per cell, the other 80 cells and the cells that are not its peers, as 81-bit sets.
_OTHER_CELLS = [ALL_CELLS & ~(1 << c) for c in range(81)]
_NOT_PEERS = [ALL_CELLS & ~PEER_BITS[c] for c in range(81)]
#: Bit 0 and bit 15 of every field: with them, per-field arithmetic on a whole `Board.house_fields` value
#: (a field holds at most 9 bits, so bit 15 stops any borrow from crossing into the next field).
FIELD_LOWS = sum(1 << 16 * k for k in range(243))
FIELD_GUARDS = FIELD_LOWS << 15


def single_fields(fields: int) -> int:
    """The fields of `fields` (a `Board.house_fields` value) that hold exactly one bit, as bit 15 of each:
    per house, the digits with a single place left. SWAR: per field x, ``(x | guard) - 1`` keeps the guard
    exactly when x > 0, and its ``& x`` is ``x & (x - 1)``, non-zero when x has two bits or more."""
    less_one = (fields | FIELD_GUARDS) - FIELD_LOWS
    several = ((less_one & fields | FIELD_GUARDS) - FIELD_LOWS) & FIELD_GUARDS
    return less_one & FIELD_GUARDS & ~several


#: _FROM_NEXT_HOUSE[h]: keeps the blocks of the houses after h (clears house h's block and all before it).
_FROM_NEXT_HOUSE = [-(1 << 144 * (h + 1)) for h in range(27)]
_LITTLE = sys.byteorder == "little"


def changed_houses(before: int, after: int) -> list[int]:
    """The houses (ascending) whose blocks differ between two `Board.house_fields` values: those with a
    candidate removed in between."""
    diff = before ^ after
    out = []
    while diff:
        h = (diff & -diff).bit_length() // 144  # the lowest set bit's house (bit_length is its index + 1)
        out.append(h)
        diff &= _FROM_NEXT_HOUSE[h]
    return out


def _house_field_list(board: Board) -> list[int]:
    """The 243 fields of the board's `house_fields` as ints, field 9 * h + d - 1 at that index."""
    fields = board.house_fields
    if _LITTLE:  # native unsigned shorts are little-endian here: one C-level conversion
        return memoryview(fields.to_bytes(486, "little")).cast("H").tolist()
    return [fields >> s & 511 for s in range(0, 3888, 16)]


def _positions(board: Board) -> list[list[int]]:
    """positions[d][h]: the 9-bit mask of places for digit d (1..9) in house h (`Board.house_positions`)."""
    flat = board.cached("fields", _house_field_list)
    return [[]] + [flat[d::9] for d in range(9)]


def memoised(function):
    """Memoise a pure function of hashable positional arguments on the board of one solve: the wrapper is
    called as ``wrapper(board, *args)`` and returns ``function(*args)``, kept in ``board.memo`` (a table per
    function). A solve so reuses what it found on earlier steps (most houses and lines are the same from one
    step to the next) but never what another board found, and the table lives and dies with its board."""

    @wraps(function)
    def wrapper(board: Board, *args):
        table = board.memo[wrapper]
        try:
            return table[args]
        except KeyError:
            result = table[args] = function(*args)
            return result

    return wrapper


class Board:
    """Digits placed so far and the candidates left in every empty cell.

    Attributes
    ----------
    values : list of int
        81 values, 0 for empty.
    candidates : list of int
        81 9-bit masks (bit d-1 for digit d); 0 for a filled cell. Change them (and `values`) only through
        `place` and `eliminate`, which keep the attributes below in step.
    empty_cells : int
        The empty cells, as an 81-bit set.
    givens : int
        The cells that hold the puzzle's givens, as an 81-bit set: digits placed since are solved cells
        (avoidable rectangles tell them apart).
    house_empty : list of int
        Per house (0..26), the number of empty cells.
    house_fields : int
        Every digit's places in every house as one int of 243 16-bit fields: field 9 * h + d - 1 is the
        9-bit position mask of digit d in house h (bit i: the i-th cell of HOUSES[h]). A candidate is one bit
        in each of its three houses' fields (`CANDIDATE_BITS`), so removing candidates is a single ``&``.
    budget_exhausted : int
        How many chain searches on this board gave up on running out of their budget
        (`chains.SIMPLE_CHAIN_BUDGET`): kept across changes, so over a solve it counts them all (a finder
        whose result is memoised per puzzle counts its search once).
    """

    def __init__(self, grid: list[int], candidates: list[int] | None = None, givens: int | None = None):
        """Start from the givens `grid` (81 values, 0 for empty) with the candidates they leave, or with
        `candidates` (81 masks, 0 for a filled cell) for a position part-way through a solve or built by hand.
        `givens` (an 81-bit set of filled cells) names the filled cells that are the puzzle's givens; by
        default every filled cell of `grid` is one."""
        self.values = list(grid)
        self.empty_cells = sum(1 << c for c in range(81) if not grid[c])
        self.givens = ALL_CELLS & ~self.empty_cells if givens is None else givens
        #: Per house (27), its number of empty cells (kept by `place`; full houses are looked up in it).
        self.house_empty = [get(grid).count(0) for get in HOUSE_GETTERS]
        if candidates is None:  # what the givens remove, in bulk
            self.candidates = initial_candidates(grid)
            fields = ALL_HOUSE_FIELDS
            filled = 0
            seen = [0] * 10  # per digit, the cells that see a given of it
            for c, d in enumerate(grid):
                if d:
                    fields &= PLACEMENT_KEEP[9 * c + d - 1]
                    filled |= 1 << c
                    seen[d] |= PEER_BITS[c]
            self.house_fields = fields
            #: Per digit (index 0 unused), the cells that still have it, as an 81-bit set.
            self._digit_cells = [0] + [ALL_CELLS & ~filled & ~seen[d] for d in range(1, 10)]
        else:
            self.candidates = cands = list(candidates)
            self.house_fields = sum(CANDIDATE_BITS[9 * c + d - 1] for c in range(81) for d in digits_of(cands[c]))
            self._digit_cells = [0] + [sum(1 << c for c in range(81) if cands[c] >> d & 1) for d in range(9)]
        self._cache: dict = {}
        self._per_house: dict = {}  # key -> (house_fields when computed, per-house results): see per_house
        self._per_digit: dict = {}  # key -> per digit, (its cells, its steps): see digit_steps
        self._pairs: list = [None] * 10  # per digit, (its cells, its conjugate pairs): see conjugate_pairs
        self.budget_exhausted = 0
        #: Memoised results for this board's solve (`memoised`): a table per function or key, made when first asked.
        self.memo: defaultdict[object, dict] = defaultdict(dict)

    def cached(self, key, factory):
        """`factory(self)`, computed once per board state (the cache empties on every change)."""
        if key not in self._cache:
            self._cache[key] = factory(self)
        return self._cache[key]

    def per_house(self, key, compute) -> list:
        """``[compute(self, h) for h in range(27)]``, kept on this board from call to call (per `key`): only the
        houses with a candidate removed since the last call are computed again, so `compute` must depend on
        the house's own candidates only. Callers must not change the list."""
        fields = self.house_fields
        kept = self._per_house.get(key)
        if kept is None:
            results = [compute(self, h) for h in range(27)]
        elif kept[0] == fields:
            return kept[1]
        else:
            results = list(kept[1])
            changed = self._cache.get(("changed houses", kept[0]))  # the keys of a pass mostly share it
            if changed is None:
                changed = self._cache["changed houses", kept[0]] = changed_houses(kept[0], fields)
            for h in changed:
                results[h] = compute(self, h)
        self._per_house[key] = fields, results
        return results

    def digit_steps(self, key: Any, steps_of: Callable[[Board, int], Iterable[T]]) -> Iterator[T]:
        """The steps ``steps_of(self, d)`` yields, for digits d = 1..9 in turn. Each digit's steps are kept on
        this board (per `key`) until its cells change, so `steps_of` must depend on that digit's cells only
        (finders of single-digit patterns: most digits are unchanged from one step to the next). The items
        may also be other records that the finder turns into steps: sort keys for a finder that orders its
        steps by house first, patterns for one that makes only the step the ladder asks for."""
        kept = self._per_digit.get(key)
        if kept is None:  # per digit: its cells when its steps were found (-1: never), its steps
            none: list[tuple[T, ...]] = [()] * 10
            kept = self._per_digit[key] = [0] + [-1] * 9, none
        seen, steps = kept
        cells = self._digit_cells
        if seen == cells:  # no digit changed since the last call (finders that share a key, in one pass)
            if any(steps):
                for d in range(1, 10):
                    yield from steps[d]
            return
        for d in range(1, 10):
            if seen[d] != cells[d]:
                steps[d] = tuple(steps_of(self, d))
                seen[d] = cells[d]
            if steps[d]:
                yield from steps[d]

    def house_positions(self, digit: int) -> list[int]:
        """Per house (27), a 9-bit mask of the positions (index in HOUSES[h]) still holding `digit`.

        Cached until the board changes: every finder of a pass shares it.
        """
        return self.cached("positions", _positions)[digit]

    def house_digit_positions(self, house: int) -> tuple[int, ...]:
        """The nine position masks of `house` (0..26), for digits 1..9 in order: the transpose of
        `house_positions`, for finders that work house by house."""
        return tuple(self.cached("fields", _house_field_list)[9 * house : 9 * house + 9])

    def digit_cell_sets(self) -> list[int]:
        """`digit_cells` of digits 1..9, in order, as a new list."""
        return self._digit_cells[1:]

    def bivalue_cells(self) -> int:
        """The cells with exactly two candidates, as an 81-bit set (those in exactly two digits' cell sets);
        cached until the board changes."""
        bivalue = self._cache.get("bivalue")
        if bivalue is None:
            once = twice = more = 0
            for cells in self._digit_cells[1:]:
                more |= twice & cells
                twice |= once & cells
                once |= cells
            bivalue = self._cache["bivalue"] = twice & ~more
        return bivalue

    def digit_cells(self, digit: int) -> int:
        """The cells that still have `digit` as a candidate, as an 81-bit set."""
        return self._digit_cells[digit]

    def place(self, cell: int, digit: int) -> None:
        """Set a digit and remove it from the candidates of the cell's peers."""
        self._cache.clear()
        if not self.values[cell]:
            for h in HOUSES_OF_CELL[cell]:
                self.house_empty[h] -= 1
            self.empty_cells &= _OTHER_CELLS[cell]
        self.values[cell] = digit
        self.house_fields &= PLACEMENT_KEEP[9 * cell + digit - 1]
        digit_cells = self._digit_cells
        cands = self.candidates
        others = _OTHER_CELLS[cell]
        for d in digits_of(cands[cell]):
            digit_cells[d] &= others
        holders = digit_cells[digit] & PEER_BITS[cell]  # the peers that lose the digit
        digit_cells[digit] &= _NOT_PEERS[cell]
        cands[cell] = 0
        bit = ~digit_bit(digit)
        while holders:
            low = holders & -holders
            cands[low.bit_length() - 1] &= bit
            holders ^= low

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove one candidate."""
        self._cache.clear()
        self.candidates[cell] &= ~digit_bit(digit)
        self.house_fields &= ~CANDIDATE_BITS[9 * cell + digit - 1]
        self._digit_cells[digit] &= ~(1 << cell)

    def apply(self, step: Step) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, d in step.placements:
            self.place(cell, d)
        for cell, d in step.eliminations:
            self.eliminate(cell, d)

    def is_solved(self) -> bool:
        """True when every cell holds a digit."""
        return not self.empty_cells

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate left (the grid has no solution)."""
        c = self._digit_cells
        return bool(self.empty_cells & ~(c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7] | c[8] | c[9]))


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
        In house order; kept on the board until the digit's cells change (callers must not modify it).
    """
    cells = board.digit_cells(digit)
    kept = board._pairs[digit]
    if kept is None or kept[0] != cells:
        kept = board._pairs[digit] = (
            cells,
            [
                (h, HOUSES[h][_LOW[mask]], HOUSES[h][_HIGH[mask]])
                for h, mask in enumerate(board.house_positions(digit))
                if _TWO[mask]
            ],
        )
    return kept[1]


#: Per 9-bit mask: has it exactly two bits, and the indices of its lowest and highest bits.
_TWO = tuple(m.bit_count() == 2 for m in range(512))
_LOW = tuple((m & -m).bit_length() - 1 for m in range(512))
_HIGH = tuple(m.bit_length() - 1 for m in range(512))
