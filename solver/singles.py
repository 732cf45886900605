"""Singles: full house, naked single, hidden single.

Technique write-ups: HoDoKu "Singles" (hodoku.sourceforge.net/en/tech_singles.php)
and SudokuWiki "Getting Started". Each finder yields `Step` records in cell or
house order and never changes the board.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, single_fields
from .grid import HOUSE_GETTERS, HOUSES, set_bits
from .steps import Step
from .techniques import Technique

#: The techniques, as module constants (a name lookup; the enum's attribute lookup costs more, once a step).
FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE = Technique.FULL_HOUSE, Technique.NAKED_SINGLE, Technique.HIDDEN_SINGLE


def find_full_house(board: Board) -> Iterator[Step]:
    """A house with exactly one empty cell: the missing digit goes there."""
    values = board.values
    empty = board.house_empty
    if 1 not in empty:
        return
    for h, get in enumerate(HOUSE_GETTERS):
        if empty[h] == 1:
            in_house = get(values)
            cell = HOUSES[h][in_house.index(0)]
            missing = 45 - sum(in_house)
            yield Step(
                FULL_HOUSE,
                placements=((cell, missing),),
                cells=(cell,),
                houses=(h,),
            )


def find_naked_single(board: Board) -> Iterator[Step]:
    """A cell with a single candidate left (cells in order): the cells in exactly one digit's cell set."""
    once = twice = 0
    for cells in board.digit_cell_sets():
        twice |= once & cells
        once |= cells
    for cell in set_bits(once & ~twice):
        d = board.candidates[cell].bit_length()
        yield Step(
            NAKED_SINGLE,
            placements=((cell, d),),
            cells=(cell,),
        )


#: The house fields (`Board.house_fields`) of the boxes: from house 18's block on.
_BOXES_FROM = 144 * 18


def find_hidden_single(board: Board) -> Iterator[Step]:
    """A digit with a single possible cell in a house (boxes first, as people look; then rows and columns,
    each house's digits in order): the house fields with one bit (`board.single_fields`)."""
    cands = board.candidates
    fields = board.house_fields
    singles = single_fields(fields)
    for flags, first in ((singles >> _BOXES_FROM, 18), (singles & ((1 << _BOXES_FROM) - 1), 0)):
        for bit in set_bits(flags):
            h, d = divmod(bit // 16, 9)
            h += first
            cell = HOUSES[h][(fields >> (16 * (9 * h + d)) & 511).bit_length() - 1]
            d += 1
            if cands[cell] == 1 << (d - 1):
                continue  # a naked single, reported as such
            yield Step(
                HIDDEN_SINGLE,
                placements=((cell, d),),
                cells=(cell,),
                houses=(h,),
            )
