"""Singles: full house, naked single, hidden single.

Technique write-ups: HoDoKu "Singles" (hodoku.sourceforge.net/en/tech_singles.php)
and SudokuWiki "Getting Started". Each finder yields `Step` records in cell or
house order and never changes the board.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .grid import HOUSE_GETTERS, HOUSE_SEGMENTS, HOUSES, cell_name, digits_of, house_name, segment_scan_lines
from .steps import Step
from .techniques import title


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


def _make_once_scan():
    """Generate `once(cands)`: per house (27, HOUSES order), the digits with exactly one candidate cell.

    Straight-line code over the 81 masks held in locals: the segments' digits present and present at
    least twice (`grid.segment_scan_lines`, shared with the exact search's scan), then each house from its
    three segments (`grid.HOUSE_SEGMENTS`).
    """
    lines = ["def once(c):", "    " + ", ".join(f"c{i}" for i in range(81)) + " = c", *segment_scan_lines()]
    out = []
    for h, (x, y, z) in enumerate(HOUSE_SEGMENTS):
        lines += [f"    u = o{x} | o{y}",
                  f"    s{h} = (u | o{z}) & ~(t{x} | t{y} | t{z} | (o{x} & o{y}) | (u & o{z}))"]
        out.append(f"s{h}")
    lines.append("    return (" + ", ".join(out) + ")")
    namespace: dict = {}
    exec("\n".join(lines), namespace)  # generated from the house tables only
    return namespace["once"]


_once = _make_once_scan()
#: Houses in the order hidden singles are looked for: boxes first, as people look, then rows and columns.
_HIDDEN_SINGLE_ORDER = tuple(range(18, 27)) + tuple(range(18))


def find_hidden_single(board: Board) -> Iterator[Step]:
    """A digit with a single possible cell in a house (boxes first, as people look)."""
    cands = board.candidates
    once = _once(cands)
    for h in _HIDDEN_SINGLE_ORDER:
        if not once[h]:
            continue
        house = HOUSES[h]
        for d in digits_of(once[h]):
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

