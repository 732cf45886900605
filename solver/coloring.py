"""Colouring: simple_colors and multi_colors.

Technique write-ups: HoDoKu "Coloring" (tech_col.php); SudokuWiki "Simple
Colouring" and "Multi-Colouring". The conjugate pairs of one digit (the only
two places for it in a house) link cells into clusters; in each cluster the
digit alternates, so the two colours of a cluster are "all true" and "all
false" in some order.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from .board import Board, conjugate_pairs
from .grid import PEER_BITS, set_bits
from .steps import Step
from .techniques import Technique


def two_color_clusters(cells, adjacency: dict[int, list[int]]) -> Iterator[dict[int, int]]:
    """Connected clusters of `cells` under `adjacency`, each two-coloured: {cell: 0 or 1}, neighbours differ
    (on a bipartite cluster; otherwise some neighbours share a colour)."""
    seen: set[int] = set()
    for root in cells:
        if root in seen:
            continue
        colour = {root: 0}
        queue = [root]
        while queue:
            c = queue.pop()
            for o in adjacency[c]:
                if o not in colour:
                    colour[o] = 1 - colour[c]
                    queue.append(o)
        seen |= set(colour)
        yield colour


def color_sets(board: Board, digit: int) -> list[tuple[list[int], list[int]]]:
    """The clusters of `digit`'s conjugate pairs, each two-coloured (`two_color_clusters`, from its lowest cell):
    per cluster, (the cells of colour 0 and of colour 1, the cells that see a cell of colour 0 and of colour 1),
    all as 81-bit sets."""
    adjacency: dict[int, list[int]] = {}
    for _, a, b in conjugate_pairs(board, digit):
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    out = []
    for colour in two_color_clusters(sorted(adjacency), adjacency):
        bits = [0, 0]
        sight = [0, 0]
        for c, k in colour.items():
            bits[k] |= 1 << c
            sight[k] |= PEER_BITS[c]
        out.append((bits, sight))
    return out


def find_simple_colors(board: Board) -> Iterator[Step]:
    """Two-colour each cluster of conjugate pairs on one digit; a wrap or a trap eliminates."""
    return islice(board.digit_steps("simple_colors", _simple_colors_steps), 1)  # the first digit's step


def _simple_colors_steps(board: Board, d: int) -> Iterator[Step]:
    """`find_simple_colors`'s step on one digit (at most one)."""
    for bits, sight in color_sets(board, d):
        members = bits[0] | bits[1]
        if members.bit_count() < 4:
            continue
        # the cells that lose d (81-bit set): in a wrap (two cells of one colour see each other) that colour's,
        # else in a trap the candidates that see both colours
        wrapped = [k for k in (0, 1) if sight[k] & bits[k]]
        if wrapped:
            losing, variant = bits[wrapped[0]], "wrap"
        else:
            losing, variant = sight[0] & sight[1] & ~members & board.digit_cells(d), "trap"
        if losing:
            eliminations = tuple((c, d) for c in set_bits(losing))
            cluster = tuple(set_bits(members))
            yield Step(Technique.SIMPLE_COLORS, eliminations=eliminations, cells=cluster, digits=(d,), variant=variant)
            return


def find_multi_colors(board: Board) -> Iterator[Step]:
    """Two clusters of conjugate pairs on one digit, each two-coloured, that see each other.

    HoDoKu "Coloring" (tech_col.php), SudokuWiki "Multi-Colouring". In each
    cluster exactly one colour holds the digit. Type 1: a colour whose cells
    see both colours of the other cluster is false (were it true, both would
    be false). Type 2: when a cell of colour X sees a cell of colour Y of the
    other cluster, X and Y are not both true, so the opposite colour of X or
    that of Y is true: cells seeing both opposites lose the digit.
    """
    return islice(board.digit_steps("multi_colors", _multi_colors_steps), 1)  # the first digit's step


def _multi_colors_steps(board: Board, d: int) -> Iterator[Step]:
    """`find_multi_colors`'s step on one digit (at most one)."""
    clusters = [([set_bits(bits[0]), set_bits(bits[1])], bits, sight) for bits, sight in color_sets(board, d)]
    digit_cells = board.digit_cells(d)
    for i, (g1, bits1, s1) in enumerate(clusters):
        for j, (g2, bits2, s2) in enumerate(clusters):
            if i == j:
                continue
            cells = tuple(sorted(g1[0] + g1[1] + g2[0] + g2[1]))
            # Type 1 (HoDoKu's Multi-Colors 2): a colour of cluster 1 that sees both colours of cluster 2 is false.
            false = [c for x in (0, 1) if s2[0] & bits1[x] and s2[1] & bits1[x] for c in g1[x]]
            if false:
                yield Step(
                    Technique.MULTI_COLORS,
                    eliminations=tuple((c, d) for c in sorted(false)),
                    cells=cells,
                    digits=(d,),
                    variant="type 1",
                )
                return
            if j < i:
                continue  # type 2 is symmetric: this pair was tried as (j, i)
            # Type 2 (HoDoKu's Multi-Colors 1): colour x of cluster 1 sees colour y of cluster 2, so the opposite
            # colour of x or that of y is true; as HoDoKu, one step takes all four pairs (x, y) at once.
            targets = 0
            for x in (0, 1):
                for y in (0, 1):
                    if s1[x] & bits2[y]:
                        targets |= s1[1 - x] & s2[1 - y] & ~(bits1[1 - x] | bits2[1 - y])
            targets &= digit_cells
            if targets:
                elims = tuple((c, d) for c in range(81) if targets >> c & 1)
                yield Step(
                    Technique.MULTI_COLORS,
                    eliminations=elims,
                    cells=cells,
                    digits=(d,),
                    variant="type 2",
                )
                return
