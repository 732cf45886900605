"""Singles: full house, naked single, hidden single.

Technique write-ups: HoDoKu "Singles" (hodoku.sourceforge.net/en/tech_singles.php)
and SudokuWiki "Getting Started". Each finder yields `Step` records in cell or
house order and never changes the board.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .grid import HOUSE_GETTERS, HOUSES, cell_name, digits_of, house_name
from .steps import Step
from .techniques import title


def find_full_house(board: Board) -> Iterator[Step]:
    """A house with exactly one empty cell: the missing digit goes there."""
    values = board.values
    for h, get in enumerate(HOUSE_GETTERS):
        in_house = get(values)
        if in_house.count(0) == 1:
            cell = HOUSES[h][in_house.index(0)]
            missing = 45 - sum(in_house)
            yield Step(
                "full_house",
                placements=((cell, missing),),
                cells=(cell,),
                houses=(h,),
                text=f"{title('full_house')}: {cell_name(cell)} is the last empty cell of {house_name(h)}, so it is {missing}",
            )


def find_naked_single(board: Board) -> Iterator[Step]:
    """A cell with a single candidate left."""
    for cell, mask in enumerate(board.candidates):
        if mask and mask & (mask - 1) == 0:
            d = mask.bit_length()
            yield Step(
                "naked_single",
                placements=((cell, d),),
                cells=(cell,),
                text=f"{title('naked_single')}: {d} is the only candidate left in {cell_name(cell)}",
            )


def find_hidden_single(board: Board) -> Iterator[Step]:
    """A digit with a single possible cell in a house (boxes first, as people look)."""
    cands = board.candidates
    for h in list(range(18, 27)) + list(range(18)):
        house = HOUSES[h]
        once = twice = 0
        for c in house:
            m = cands[c]
            twice |= once & m
            once |= m
        for d in digits_of(once & ~twice):
            bit = 1 << (d - 1)
            cell = next(c for c in house if cands[c] & bit)
            if cands[cell] == bit:
                continue  # a naked single, reported as such
            yield Step(
                "hidden_single",
                placements=((cell, d),),
                cells=(cell,),
                houses=(h,),
                text=f"{title('hidden_single')}: in {house_name(h)}, {d} fits only in {cell_name(cell)}",
            )

