"""Wings: xy_wing, xyz_wing, w_wing.

Technique write-ups: HoDoKu "Wings" (tech_wings.php), SudokuWiki "Y-Wing",
"XYZ Wing", "W-Wing".
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, conjugate_pairs
from .grid import PEER_BITS, cell_name, digits_of, set_bits
from .steps import Step
from .techniques import title


def find_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot xy sees pincers xz and yz: z leaves every cell that sees both pincers."""
    cands = board.candidates
    bivalue = board.bivalue_cells()
    for pivot in set_bits(bivalue):
        pm = cands[pivot]
        wings = [c for c in set_bits(PEER_BITS[pivot] & bivalue) if (cands[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                za, zb = cands[a] & ~pm, cands[b] & ~pm
                if za != zb or (cands[a] & pm) == (cands[b] & pm):
                    continue
                z = za.bit_length()
                # z is no candidate of the pivot, so the pivot is never among the victims
                elims = tuple((c, z) for c in set_bits(PEER_BITS[a] & PEER_BITS[b] & board.digit_cells(z)))
                if elims:
                    x, y = digits_of(pm)
                    yield Step("xy_wing", eliminations=elims, cells=(pivot, a, b),
                               text=f"{title('xy_wing')}: pivot {cell_name(pivot)} ({x}/{y}) with pincers {cell_name(a)} and "
                                    f"{cell_name(b)}; one pincer is {z}")


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
            for b in wings[i + 1:]:
                if cands[a] | cands[b] != pm or cands[a] == cands[b]:
                    continue
                zbit = cands[a] & cands[b]
                z = zbit.bit_length()
                elims = tuple((c, z) for c in set_bits(PEER_BITS[a] & PEER_BITS[b] & PEER_BITS[pivot]
                                                       & board.digit_cells(z)))
                if elims:
                    yield Step("xyz_wing", eliminations=elims, cells=(pivot, a, b),
                               text=f"{title('xyz_wing')}: pivot {cell_name(pivot)} ({'/'.join(map(str, digits_of(pm)))}) with "
                                    f"pincers {cell_name(a)} and {cell_name(b)}; one of the three is {z}")


def find_w_wing(board: Board) -> Iterator[Step]:
    """Two equal bivalue cells xy joined by a strong link on x: y leaves cells that see both."""
    cands = board.candidates
    links = {d: conjugate_pairs(board, d) for d in range(1, 10)}
    by_pair: dict[int, list[int]] = {}  # per candidate mask, its bivalue cells (ascending)
    for c in set_bits(board.bivalue_cells()):
        by_pair.setdefault(cands[c], []).append(c)
    for a in set_bits(board.bivalue_cells()):
        sight_a = PEER_BITS[a]
        same = by_pair[cands[a]]
        for b in same[same.index(a) + 1:]:
            if sight_a >> b & 1:
                continue
            sight_b = PEER_BITS[b]
            for x in digits_of(cands[a]):
                y = next(d for d in digits_of(cands[a]) if d != x)
                victims = sight_a & sight_b & board.digit_cells(y)
                if not victims:
                    continue  # no strong link on x can make this pair eliminate
                for h, p, q in links[x]:
                    if p == a or p == b or q == a or q == b:
                        continue
                    if not ((sight_a >> p & 1 and sight_b >> q & 1) or (sight_b >> p & 1 and sight_a >> q & 1)):
                        continue
                    yield Step("w_wing", eliminations=tuple((c, y) for c in set_bits(victims)), cells=(a, b, p, q),
                               houses=(h,),
                               text=f"{title('w_wing')}: {cell_name(a)} and {cell_name(b)} hold {x}/{y}, joined by the strong "
                                    f"link on {x} {cell_name(p)}-{cell_name(q)}; one of them is {y}")
