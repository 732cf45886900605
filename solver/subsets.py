"""Subsets: naked and hidden pairs, triples, quads, and locked pairs/triples.

Technique write-ups: HoDoKu "Naked and Hidden Subsets" (tech_naked.php,
tech_hidden.php), SudokuWiki "Naked Candidates", "Hidden Candidates". A naked
subset of N cells holding only N digits between them removes those digits
from the rest of the house; N digits confined to N cells of a house remove
every other digit from those cells. A naked pair or triple whose cells share
both a box and a line is a locked pair/triple: it clears both houses.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .grid import HOUSE_GETTERS, HOUSES, HOUSES_OF_CELL, POPCOUNT, cell_name, digits_of, house_name
from .steps import Step
from .techniques import title

SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _digits_text(mask: int) -> str:
    return "/".join(map(str, digits_of(mask)))


def _tight_groups(masks: tuple[int, ...], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every `size`-combination (2 to 4) of indices into `masks` whose union has exactly `size` bits, with
    that union, in the order of `itertools.combinations`. Zero masks and masks of more than `size` bits never
    take part; a partial union with more than `size` bits ends its branch."""
    popcount = POPCOUNT
    items = [(i, m) for i, m in enumerate(masks) if m and popcount[m] <= size]
    n = len(items)
    out: list[tuple[tuple[int, ...], int]] = []
    if n < size:
        return out
    for a in range(n - size + 1):
        ia, ma = items[a]
        for b in range(a + 1, n - size + 2):
            ib, mb = items[b]
            uab = ma | mb
            if size == 2:
                if popcount[uab] == 2:
                    out.append(((ia, ib), uab))
                continue
            if popcount[uab] > size:
                continue
            for c in range(b + 1, n - size + 3):
                ic, mc = items[c]
                uabc = uab | mc
                if size == 3:
                    if popcount[uabc] == 3:
                        out.append(((ia, ib, ic), uabc))
                    continue
                if popcount[uabc] > 4:
                    continue
                for d in range(c + 1, n):
                    i_d, md = items[d]
                    u = uabc | md
                    if popcount[u] == 4:
                        out.append(((ia, ib, ic, i_d), u))
    return out


def _house_groups(masks: tuple[int, ...], size: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """`_tight_groups(masks, size)` when more than `size` of the nine masks are non-zero, else nothing."""
    if 9 - masks.count(0) <= size:
        return ()
    return tuple(_tight_groups(masks, size))


def _groups_by_house(board: Board, hidden: bool, size: int) -> list[tuple]:
    """Per house (27), its `_house_groups` of `size` for naked subsets (masks: the cells' candidates) or,
    with `hidden`, hidden subsets (masks: the digits' places). Kept on the board from step to step and
    recomputed for the houses that changed only (`Board.per_house`); the locked and naked finders of a size
    share it."""
    if hidden:
        return board.per_house(("hidden subsets", size),
                               lambda b, h: _house_groups(b.house_digit_positions(h), size))
    return board.per_house(("naked subsets", size),
                           lambda b, h: _house_groups(HOUSE_GETTERS[h](b.candidates), size))


def _naked(board: Board, size: int, locked_only: bool) -> Iterator[Step]:
    cands = board.candidates
    for h, groups in enumerate(_groups_by_house(board, False, size)):
        if not groups:
            continue
        if locked_only and h >= 18:
            break  # a locked subset is reported from its line (the lower of its two houses)
        house = HOUSES[h]
        for indices, union in groups:
            if locked_only and indices[0] // 3 != indices[-1] // 3:
                continue  # a locked subset lies in one segment (box) of its line
            group = tuple(house[i] for i in indices)
            shared = set.intersection(*(set(HOUSES_OF_CELL[c]) for c in group))
            locked = size <= 3 and len(shared) == 2
            if locked_only != locked:
                continue
            houses = sorted(shared) if locked else [h]
            elims = []
            for hh in houses:
                for c in HOUSES[hh]:
                    if c not in group and cands[c] & union:
                        elims += [(c, d) for d in digits_of(cands[c] & union)]
            if not elims:
                continue
            name = f"{'locked' if locked else 'naked'}_{SIZE_NAMES[size]}"
            where = " and ".join(house_name(x) for x in houses)
            yield Step(name, eliminations=tuple(sorted(set(elims))), cells=group, houses=tuple(houses),
                       text=f"{title(name)}: {', '.join(cell_name(c) for c in group)} hold only "
                            f"{_digits_text(union)}, so these leave the rest of {where}")


def _hidden(board: Board, size: int) -> Iterator[Step]:
    cands = board.candidates
    for h, groups in enumerate(_groups_by_house(board, True, size)):
        house = HOUSES[h]
        for indices, union in groups:
            digits = tuple(i + 1 for i in indices)
            keep = sum(1 << (d - 1) for d in digits)
            cells = tuple(house[i] for i in range(9) if union >> i & 1)
            elims = tuple((c, d) for c in cells for d in digits_of(cands[c] & ~keep))
            if elims:
                name = f"hidden_{SIZE_NAMES[size]}"
                yield Step(name, eliminations=elims, cells=cells, houses=(h,),
                           text=f"{title(name)}: in {house_name(h)}, "
                                f"{_digits_text(keep)} fit only in {', '.join(cell_name(c) for c in cells)}, "
                                f"so those cells hold nothing else")


def find_locked_pair(board: Board) -> Iterator[Step]:
    """Two cells in one box and one line holding the same two digits only."""
    return _naked(board, 2, locked_only=True)


def find_locked_triple(board: Board) -> Iterator[Step]:
    """Three cells in one box and one line holding the same three digits only."""
    return _naked(board, 3, locked_only=True)


def find_naked_pair(board: Board) -> Iterator[Step]:
    """Two cells of a house with the same two candidates only."""
    return _naked(board, 2, locked_only=False)


def find_naked_triple(board: Board) -> Iterator[Step]:
    """Three cells of a house with three candidates between them."""
    return _naked(board, 3, locked_only=False)


def find_naked_quad(board: Board) -> Iterator[Step]:
    """Four cells of a house with four candidates between them."""
    return _naked(board, 4, locked_only=False)


def find_hidden_pair(board: Board) -> Iterator[Step]:
    """Two digits confined to the same two cells of a house."""
    return _hidden(board, 2)


def find_hidden_triple(board: Board) -> Iterator[Step]:
    """Three digits confined to three cells of a house."""
    return _hidden(board, 3)


def find_hidden_quad(board: Board) -> Iterator[Step]:
    """Four digits confined to four cells of a house."""
    return _hidden(board, 4)
