"""Almost Locked Sets: als_xz and als_xy_wing.

Technique write-ups: HoDoKu "Almost Locked Sets" (tech_als.php), SudokuWiki
"Almost Locked Sets" (ALS-XZ) and "ALS-XY-Wing".

An almost locked set (ALS) is a set of N empty cells in one house whose
candidates together are N + 1 digits; a single bivalue cell is the smallest.
Take one digit away and the rest is locked: the N cells then hold exactly the
N other digits. A digit x is a *restricted common candidate* (RCC) of two
ALS that share no cell when both hold x and every x-cell of one sees every
x-cell of the other: then at most one of the two holds x.

- ALS-XZ: ALS A and B with RCC x. One of them lacks x, so it is locked and
  holds every other digit it has; hence for any other common digit z, A or B
  holds z, and a cell that sees every z-cell of both is not z. When A and B
  have two RCCs (doubly linked), each is locked whatever happens, so every
  digit of A leaves cells outside that see all its cells in A (likewise for
  B), and each RCC leaves cells that see all of its cells in A and B.
- ALS-XY-Wing: a pivot ALS C has RCC x with A and RCC y with B (x != y). C
  lacks at most one digit, so it holds x (then A lacks x) or y (then B lacks
  y): A or B is locked, and any digit z common to A and B (not x or y) leaves
  cells that see every z-cell of A and B.

Cell sets are Python ints used as 81-bit sets.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .board import Board, memoised
from .grid import HOUSES, PEER_BITS, digits_of, set_bits
from .steps import Step
from .techniques import Technique


@dataclass(frozen=True)
class AlmostLockedSet:
    """N empty cells of one house with N + 1 candidate digits between them.

    Attributes
    ----------
    cells : int
        The cells as an 81-bit set.
    digits : int
        9-bit mask of their candidates (N + 1 bits set).
    house : int
        A house (0..26) that contains them all.
    holders : dict of int to int
        Per digit of `digits`, the cells (81-bit set) that have it.
    seen_by_all : dict of int to int
        Per digit, the cells (81-bit set) that see every holder of it.
    """

    cells: int
    digits: int
    house: int
    holders: dict
    seen_by_all: dict

    def cell_set(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(its cells, its digits), in order: a `Step.cell_sets` entry."""
        return tuple(set_bits(self.cells)), digits_of(self.digits)


def almost_locked_sets(board: Board) -> list[AlmostLockedSet]:
    """Every ALS of the board (each cell set once, whatever house it is found in), cached per state."""
    return board.cached("als", _collect_als)


def _collect_als(board: Board) -> list[AlmostLockedSet]:
    cands = board.candidates
    with_digit = [0] + [board.digit_cells(d) for d in range(1, 10)]
    found: dict[int, AlmostLockedSet] = {}
    for h, house in enumerate(HOUSES):
        empty = [c for c in house if cands[c]]
        k = len(empty)
        union = [0] * (1 << k)
        cell_set = [0] * (1 << k)
        for subset in range(1, (1 << k) - 1):
            low = subset & -subset
            newest = empty[low.bit_length() - 1]
            union[subset] = union[subset ^ low] | cands[newest]
            cell_set[subset] = cells = cell_set[subset ^ low] | 1 << newest
            if union[subset].bit_count() != subset.bit_count() + 1 or cells in found:
                continue
            holders, seen = {}, {}
            for d in digits_of(union[subset]):
                holders[d] = with_d = cells & with_digit[d]
                seen[d] = _seen_by_all(board, with_d)
            found[cells] = AlmostLockedSet(cells, union[subset], h, holders, seen)
    return list(found.values())


@memoised
def _seen_by_all(cells: int) -> int:
    """The cells (81-bit set) that see every cell of `cells` (81-bit set); memoised per puzzle
    (`board.memoised`: the same holders recur in many sets)."""
    seen = (1 << 81) - 1
    for c in set_bits(cells):
        seen &= PEER_BITS[c]
    return seen


def restricted_commons(board: Board) -> list[tuple[int, int, list[int]]]:
    """Pairs of disjoint ALS with their restricted common candidates: (index a, index b, [digits]), a < b.

    Indices refer to `almost_locked_sets(board)`. Cached per board state.
    """
    return board.cached("rcc", _collect_rccs)


def _collect_rccs(board: Board) -> list[tuple[int, int, list[int]]]:
    sets = almost_locked_sets(board)
    # Per digit: holders (81-bit set) -> the sets whose holders of that digit are exactly those cells.
    by_holders: list[dict[int, list[int]]] = [{} for _ in range(10)]
    for i, s in enumerate(sets):
        for d, holders in s.holders.items():
            by_holders[d].setdefault(holders, []).append(i)
    found: dict[tuple[int, int], list[int]] = {}
    for d in range(1, 10):
        bit = 1 << (d - 1)
        with_d = board.digit_cells(d)
        index = by_holders[d]
        for i, s in enumerate(sets):
            if not s.digits & bit:
                continue
            # The partner's holders of d must all lie among the cells that see every holder in this set:
            # enumerate the subsets of those cells (x = (x - 1) & reach walks them all).
            reach = s.seen_by_all[d] & with_d
            sub = reach
            while sub:
                for j in index.get(sub, ()):
                    if j > i and not s.cells & sets[j].cells:
                        found.setdefault((i, j), []).append(d)
                sub = (sub - 1) & reach
    return [(i, j, rcc) for (i, j), rcc in sorted(found.items())]


def _eliminate(board: Board, digit: int, targets: int) -> list[tuple[int, int]]:
    return [(c, digit) for c in set_bits(targets & board.digit_cells(digit))]


def find_als_xz(board: Board) -> Iterator[Step]:
    """Two ALS with a restricted common candidate x: another common digit z leaves cells seeing all its holders.

    Doubly linked ALS (two RCCs) lock both sets and eliminate more; see the module docstring.
    """
    sets = almost_locked_sets(board)
    with_digit = [0] + [board.digit_cells(d) for d in range(1, 10)]
    for i, j, rcc in restricted_commons(board):
        a, b = sets[i], sets[j]
        outside = ~(a.cells | b.cells)
        elims: list[tuple[int, int]] = []
        if len(rcc) >= 2:
            for d in rcc:
                elims += _eliminate(board, d, a.seen_by_all[d] & b.seen_by_all[d] & outside)
            for s in (a, b):
                for d in digits_of(s.digits):
                    if d not in rcc:
                        elims += _eliminate(board, d, s.seen_by_all[d] & outside)
        else:
            for z in digits_of(a.digits & b.digits & ~(1 << (rcc[0] - 1))):
                if a.seen_by_all[z] & b.seen_by_all[z] & with_digit[z]:
                    elims += _eliminate(board, z, a.seen_by_all[z] & b.seen_by_all[z] & outside)
        if elims:
            yield Step(
                Technique.ALS_XZ,
                eliminations=tuple(sorted(set(elims))),
                cells=tuple(set_bits(a.cells | b.cells)),
                houses=(a.house, b.house),
                digits=tuple(rcc),
                cell_sets=(a.cell_set(), b.cell_set()),
            )


def find_als_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot ALS C with RCC x to A and RCC y to B: a digit z of A and B leaves cells seeing all its holders."""
    sets = almost_locked_sets(board)
    with_digit = [0] + [board.digit_cells(d) for d in range(1, 10)]
    partners: dict[int, list[tuple[int, int]]] = {}
    for i, j, rcc in restricted_commons(board):
        for d in rcc:
            partners.setdefault(i, []).append((j, d))
            partners.setdefault(j, []).append((i, d))
    for pivot, links in partners.items():
        c = sets[pivot]
        for n, (ia, x) in enumerate(links):
            a = sets[ia]
            for ib, y in links[n + 1 :]:
                if x == y or ia == ib:
                    continue
                b = sets[ib]
                if a.cells & b.cells:
                    continue
                zs = a.digits & b.digits & ~(1 << (x - 1)) & ~(1 << (y - 1))
                elims = []
                for z in digits_of(zs):
                    if a.seen_by_all[z] & b.seen_by_all[z] & with_digit[z]:
                        elims += _eliminate(board, z, a.seen_by_all[z] & b.seen_by_all[z])
                if elims:
                    yield Step(
                        Technique.ALS_XY_WING,
                        eliminations=tuple(sorted(elims)),
                        cells=tuple(set_bits(a.cells | b.cells | c.cells)),
                        houses=(c.house, a.house, b.house),
                        digits=(x, y, *digits_of(zs)),
                        cell_sets=(c.cell_set(), a.cell_set(), b.cell_set()),
                    )
