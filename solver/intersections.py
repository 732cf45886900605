"""Intersections: locked candidates (pointing and claiming).

Technique write-ups: HoDoKu "Intersections" (tech_intersections.php),
SudokuWiki "Pointing Pairs, Pointing Triples" and "Box/Line Reduction".
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, cells_with
from .grid import HOUSES, box_of, house_name
from .steps import Step


def _eliminate(board: Board, digit: int, house: int, keep: set[int]) -> tuple[tuple[int, int], ...]:
    return tuple((c, digit) for c in cells_with(board.candidates, HOUSES[house], digit) if c not in keep)


def find_locked_candidates_pointing(board: Board) -> Iterator[Step]:
    """Type 1: in a box, a digit's candidates all lie in one row or column; it leaves the rest of that line."""
    for b in range(18, 27):
        for d in range(1, 10):
            cells = cells_with(board.candidates, HOUSES[b], d)
            if len(cells) < 2:
                continue
            for line in ({c // 9 for c in cells}, {9 + c % 9 for c in cells}):
                if len(line) == 1:
                    (h,) = line
                    elims = _eliminate(board, d, h, set(cells))
                    if elims:
                        yield Step("locked_candidates_pointing", eliminations=elims, cells=tuple(cells), houses=(b, h),
                                   text=f"Locked Candidates (Pointing): in {house_name(b)}, {d} lies only in "
                                        f"{house_name(h)}, so it leaves the rest of {house_name(h)}")


def find_locked_candidates_claiming(board: Board) -> Iterator[Step]:
    """Type 2: in a row or column, a digit's candidates all lie in one box; it leaves the rest of that box."""
    for h in range(18):
        for d in range(1, 10):
            cells = cells_with(board.candidates, HOUSES[h], d)
            if len(cells) < 2:
                continue
            boxes = {box_of(c) for c in cells}
            if len(boxes) == 1:
                b = 18 + boxes.pop()
                elims = _eliminate(board, d, b, set(cells))
                if elims:
                    yield Step("locked_candidates_claiming", eliminations=elims, cells=tuple(cells), houses=(h, b),
                               text=f"Locked Candidates (Claiming): in {house_name(h)}, {d} lies only in "
                                    f"{house_name(b)}, so it leaves the rest of {house_name(b)}")


__all__ = ["find_locked_candidates_pointing", "find_locked_candidates_claiming"]
