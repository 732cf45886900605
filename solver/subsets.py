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
from itertools import combinations

from .board import Board
from .grid import HOUSES, HOUSES_OF_CELL, cell_name, digits_of, house_name
from .steps import Step
from .techniques import title

SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _digits_text(mask: int) -> str:
    return "/".join(map(str, digits_of(mask)))


def _naked(board: Board, size: int, locked_only: bool) -> Iterator[Step]:
    cands = board.candidates
    for h, house in enumerate(HOUSES):
        empty = [c for c in house if cands[c]]
        if len(empty) <= size:
            continue
        small = [c for c in empty if cands[c].bit_count() <= size]
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != size:
                continue
            shared = set.intersection(*(set(HOUSES_OF_CELL[c]) for c in group))
            locked = size <= 3 and len(shared) == 2
            if locked_only != locked:
                continue
            if locked and min(shared) != h:
                continue  # report a locked subset once, from its line
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
    for h, house in enumerate(HOUSES):
        positions = {d: board.house_positions(d)[h] for d in range(1, 10)}
        positions = {d: p for d, p in positions.items() if p}
        if len(positions) <= size:
            continue
        few = [d for d, p in positions.items() if p.bit_count() <= size]
        for digits in combinations(few, size):
            union = 0
            for d in digits:
                union |= positions[d]
            if union.bit_count() != size:
                continue
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
