"""Wings: xy_wing, xyz_wing, w_wing.

Technique write-ups: HoDoKu "Wings" (tech_wings.php), SudokuWiki "Y-Wing",
"XYZ Wing", "W-Wing".
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, conjugate_pairs, sees
from .grid import PEERS, cell_name, digits_of
from .steps import Step
from .techniques import title


def find_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot xy sees pincers xz and yz: z leaves every cell that sees both pincers."""
    cands = board.candidates
    for pivot in range(81):
        pm = cands[pivot]
        if pm.bit_count() != 2:
            continue
        wings = [c for c in PEERS[pivot] if cands[c].bit_count() == 2 and (cands[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                za, zb = cands[a] & ~pm, cands[b] & ~pm
                if za != zb or (cands[a] & pm) == (cands[b] & pm):
                    continue
                z = za.bit_length()
                elims = tuple((c, z) for c in range(81)
                              if c not in (a, b, pivot) and cands[c] & za and sees(c, a) and sees(c, b))
                if elims:
                    x, y = digits_of(pm)
                    yield Step("xy_wing", eliminations=elims, cells=(pivot, a, b),
                               text=f"{title('xy_wing')}: pivot {cell_name(pivot)} ({x}/{y}) with pincers {cell_name(a)} and "
                                    f"{cell_name(b)}; one pincer is {z}")


def find_xyz_wing(board: Board) -> Iterator[Step]:
    """Pivot xyz sees pincers xz and yz: z leaves every cell that sees all three."""
    cands = board.candidates
    for pivot in range(81):
        pm = cands[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [c for c in PEERS[pivot] if cands[c].bit_count() == 2 and cands[c] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                if cands[a] | cands[b] != pm or cands[a] == cands[b]:
                    continue
                zbit = cands[a] & cands[b]
                z = zbit.bit_length()
                elims = tuple((c, z) for c in range(81) if c not in (a, b, pivot) and cands[c] & zbit
                              and sees(c, a) and sees(c, b) and sees(c, pivot))
                if elims:
                    yield Step("xyz_wing", eliminations=elims, cells=(pivot, a, b),
                               text=f"{title('xyz_wing')}: pivot {cell_name(pivot)} ({'/'.join(map(str, digits_of(pm)))}) with "
                                    f"pincers {cell_name(a)} and {cell_name(b)}; one of the three is {z}")


def find_w_wing(board: Board) -> Iterator[Step]:
    """Two equal bivalue cells xy joined by a strong link on x: y leaves cells that see both."""
    cands = board.candidates
    bivalue = [c for c in range(81) if cands[c].bit_count() == 2]
    links = {d: conjugate_pairs(board, d) for d in range(1, 10)}
    for i, a in enumerate(bivalue):
        for b in bivalue[i + 1:]:
            if cands[a] != cands[b] or sees(a, b):
                continue
            for x in digits_of(cands[a]):
                y = next(d for d in digits_of(cands[a]) if d != x)
                ybit = 1 << (y - 1)
                for h, p, q in links[x]:
                    if {p, q} & {a, b}:
                        continue
                    if not ((sees(p, a) and sees(q, b)) or (sees(p, b) and sees(q, a))):
                        continue
                    elims = tuple((c, y) for c in range(81)
                                  if c not in (a, b) and cands[c] & ybit and sees(c, a) and sees(c, b))
                    if elims:
                        yield Step("w_wing", eliminations=elims, cells=(a, b, p, q), houses=(h,),
                                   text=f"{title('w_wing')}: {cell_name(a)} and {cell_name(b)} hold {x}/{y}, joined by the strong "
                                        f"link on {x} {cell_name(p)}-{cell_name(q)}; one of them is {y}")
