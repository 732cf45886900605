"""Wings: xy_wing, xyz_wing, w_wing.

Technique write-ups: HoDoKu "Wings" (tech_wings.php), SudokuWiki "Y-Wing",
"XYZ Wing", "W-Wing".
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, conjugate_pairs
from .grid import PEER_BITS, digits_of, set_bits
from .steps import Step
from .techniques import Technique


def find_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot xy sees pincers xz and yz: z leaves every cell that sees both pincers.

    In HoDoKu's order (WingSolver): by the three cells in ascending order, and for the same three cells, the
    lowest as the pivot first, then the middle one, then the highest."""
    cands = board.candidates
    bivalue = board.bivalue_cells()
    found = []
    for pivot in set_bits(bivalue):
        pm = cands[pivot]
        wings = [c for c in set_bits(PEER_BITS[pivot] & bivalue) if (cands[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                za, zb = cands[a] & ~pm, cands[b] & ~pm
                if za != zb or (cands[a] & pm) == (cands[b] & pm):
                    continue
                z = za.bit_length()
                # z is no candidate of the pivot, so the pivot is never among the victims
                elims = tuple((c, z) for c in set_bits(PEER_BITS[a] & PEER_BITS[b] & board.digit_cells(z)))
                if elims:
                    trio = sorted((pivot, a, b))
                    found.append((trio, trio.index(pivot), pivot, a, b, z, elims))
    for _, _, pivot, a, b, _, elims in sorted(found, key=lambda f: (f[0], f[1])):
        yield Step(
            Technique.XY_WING,
            eliminations=elims,
            cells=(pivot, a, b),
            digits=digits_of(cands[pivot]),
        )


def find_xyz_wing(board: Board) -> Iterator[Step]:
    """Pivot xyz sees pincers xz and yz: z leaves every cell that sees all three."""
    cands = board.candidates
    bivalue = board.bivalue_cells()
    for pivot in range(81):
        pm = cands[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [c for c in set_bits(PEER_BITS[pivot] & bivalue) if cands[c] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                if cands[a] | cands[b] != pm or cands[a] == cands[b]:
                    continue
                zbit = cands[a] & cands[b]
                z = zbit.bit_length()
                elims = tuple(
                    (c, z) for c in set_bits(PEER_BITS[a] & PEER_BITS[b] & PEER_BITS[pivot] & board.digit_cells(z))
                )
                if elims:
                    yield Step(
                        Technique.XYZ_WING,
                        eliminations=elims,
                        cells=(pivot, a, b),
                        digits=digits_of(pm),
                    )


def find_w_wing(board: Board) -> Iterator[Step]:
    """Two equal bivalue cells xy joined by a strong link on x: y leaves cells that see both."""
    cands = board.candidates
    by_pair: dict[int, list[int]] = {}  # per candidate mask, its bivalue cells (ascending)
    for c in set_bits(board.bivalue_cells()):
        by_pair.setdefault(cands[c], []).append(c)
    # The pairs of equal bivalue cells that do not see each other, in the order of the first cell, then the second.
    twins = sorted(
        (a, b)
        for cells in by_pair.values()
        if len(cells) > 1
        for i, a in enumerate(cells)
        for b in cells[i + 1 :]
        if not PEER_BITS[a] >> b & 1
    )
    for a, b in twins:
        sight_a, sight_b = PEER_BITS[a], PEER_BITS[b]
        sight_both = sight_a & sight_b
        mask = cands[a]
        for x in reversed(digits_of(mask)):  # as HoDoKu: the lower digit eliminated first
            y = (mask ^ 1 << (x - 1)).bit_length()
            victims = sight_both & board.digit_cells(y)
            if not victims:
                continue  # no strong link on x can make this pair eliminate
            for h, p, q in conjugate_pairs(board, x):
                if p == a or p == b or q == a or q == b or (sight_both >> p | sight_both >> q) & 1:
                    continue  # HoDoKu takes no link with an end that sees both cells
                if not ((sight_a >> p & 1 and sight_b >> q & 1) or (sight_b >> p & 1 and sight_a >> q & 1)):
                    continue
                yield Step(
                    Technique.W_WING,
                    eliminations=tuple((c, y) for c in set_bits(victims)),
                    cells=(a, b, p, q),
                    houses=(h,),
                    digits=(x, y),
                )
