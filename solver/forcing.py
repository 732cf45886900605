"""Forcing chains and forcing nets: the last logical resort before search.

Technique write-ups: HoDoKu "Forcing Chains" (tech_fc.php); SudokuWiki "Cell
Forcing Chains", "Unit Forcing Chains" and "Nishio Forcing Chains". Each
premise of a group of which exactly one is true (a cell's candidates, or a
digit's places in a house) is assumed true in turn and followed: by chains
(the links of `chains.LinkGraph`, plus group nodes as HoDoKu's forcing chains
use them) for a forcing chain, by singles for a forcing net. Whatever every
premise implies is proved; a premise that implies a contradiction is false.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .board import Board
from .chains import ALL_NODES, board_links, node_name, union_of
from .grid import HOUSE_BITS, HOUSES, PEERS, SEGMENTS, cell_name, digits_of, house_name, set_bits
from .steps import Step
from .techniques import title

class Implications(NamedTuple):
    """What follows from assuming one candidate true.

    Attributes
    ----------
    true, false : int
        729-bit node sets (bit ``cell * 9 + digit - 1``) forced true and forced false.
    contradiction : bool
        True when the assumption breaks the grid (a node both true and false,
        a cell without candidates, or a digit without a place in a house).
    """

    true: int
    false: int
    contradiction: bool


#: Per segment of `grid.SEGMENTS` (in its order): its 81-bit cell set and the two houses that hold all of it.
_SEGMENT_BITS = [sum(1 << c for c in cells) for cells in SEGMENTS.values()]
_SEGMENT_HOUSES = [tuple(h for h, bits in enumerate(HOUSE_BITS) if bits & segment == segment)
                   for segment in _SEGMENT_BITS]


def group_links(board: Board, strong: list[int],
                weak: list[int]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """`strong` and `weak` (per candidate node, 729 lists) extended by group nodes (nodes 729 and up).

    A group node is a digit's two or three candidates in one segment (a box-line intersection): true when
    the digit is in one of those cells (HoDoKu "Grouped Nice Loops / AIC", tech_chains.php; its forcing chains
    use them too). It is weakly linked to the digit's other candidates and groups that see all its cells, and
    strongly linked, in a house where the digit's places are exactly two disjoint units (a cell or a group),
    to the other unit. The lists given are not changed.

    Returns
    -------
    (list of int, list of int, list of (int, int))
        Strong and weak links per node (729 candidate nodes, then one node per group), and each group as
        (digit, 81-bit cell set), for group node 729 + index (`group_name`).
    """
    strong, weak = list(strong), list(weak)
    groups_found: list[tuple[int, int]] = []
    for d in range(1, 10):
        places = board.digit_cells(d)
        in_house: list[list[tuple[int, int]]] = [[] for _ in HOUSES]  # (group node, cells) per house
        for segment, houses in zip(_SEGMENT_BITS, _SEGMENT_HOUSES):
            cells = places & segment
            if cells & (cells - 1):  # two or three cells
                node = 729 + len(groups_found)
                groups_found.append((d, cells))
                strong.append(0)
                weak.append(0)
                for h in houses:
                    in_house[h].append((node, cells))
        for h, groups in enumerate(in_house):
            house_places = places & HOUSE_BITS[h]
            for k, (node, cells) in enumerate(groups):
                rest = house_places & ~cells
                for c in set_bits(rest):  # the digit's other candidates in the house see every cell of the group
                    weak[node] |= 1 << (c * 9 + d - 1)
                    weak[c * 9 + d - 1] |= 1 << node
                if rest and not rest & (rest - 1):  # one other cell: a strong link to it
                    other = rest.bit_length() - 1
                    strong[node] |= 1 << (other * 9 + d - 1)
                    strong[other * 9 + d - 1] |= 1 << node
                for other, other_cells in groups[k + 1:]:
                    if not cells & other_cells:
                        weak[node] |= 1 << other
                        weak[other] |= 1 << node
                        if cells | other_cells == house_places:
                            strong[node] |= 1 << other
                            strong[other] |= 1 << node
    return strong, weak, groups_found


def group_name(digit: int, cells: int) -> str:
    """A group node in the usual notation, e.g. ``5r5c4/r5c6`` (`cells`: an 81-bit set)."""
    return f"{digit}{'/'.join(cell_name(c) for c in set_bits(cells))}"


def _implications(node: int, strong: list[int], weak: list[int]) -> Implications:
    """(true set, false set) that follow by chains from assuming `node` true."""
    true, false = 1 << node, 0
    frontier_true, frontier_false = true, 0
    while frontier_true or frontier_false:
        new_false = union_of(weak, frontier_true) & ~false
        false |= new_false
        new_true = union_of(strong, new_false) & ~true
        true |= new_true
        frontier_true, frontier_false = new_true, new_false
        if true & false:
            break
    return Implications(true, false, bool(true & false))


def _forcing_groups(board: Board) -> list[tuple[str, list[int]]]:
    """Premise sets of which exactly one is true: a cell's candidates, then each digit's places in a house."""
    groups = []
    for cell in range(81):
        mask = board.candidates[cell]
        if mask:
            groups.append((f"each candidate of {cell_name(cell)}", [cell * 9 + d - 1 for d in digits_of(mask)]))
    for h, house in enumerate(HOUSES):
        for d in range(1, 10):
            nodes = [c * 9 + d - 1 for c in house if board.candidates[c] >> (d - 1) & 1]
            if len(nodes) >= 2:
                groups.append((f"each place for {d} in {house_name(h)}", nodes))
    return groups


def _common_consequences(technique: str, groups, implied) -> Iterator[Step]:
    """A step from what every premise of a group implies: a common true node, or common false ones."""
    name = title(technique)
    for label, nodes in groups:
        common_true = common_false = ALL_NODES
        for n in nodes:
            found = implied(n)
            common_true &= found.true
            common_false &= found.false
            if not common_true and not common_false:
                break
        common_true &= ~sum(1 << n for n in nodes)
        if common_true:
            p = set_bits(common_true)[0]
            yield Step(technique, placements=((p // 9, p % 9 + 1),), cells=tuple(n // 9 for n in nodes),
                       text=f"{name}: {label} leads to {node_name(p)}, so it is true")
            return
        if common_false:
            elims = tuple((v // 9, v % 9 + 1) for v in set_bits(common_false))
            yield Step(technique, eliminations=elims, cells=tuple(n // 9 for n in nodes),
                       text=f"{name}: {label} rules out {', '.join(node_name(v) for v in set_bits(common_false))}")
            return


def find_forcing_chain(board: Board) -> Iterator[Step]:
    """Cell and digit forcing chains, and contradictions, as the last logical resort.

    Each candidate of a cell (or each place for a digit in a house) is assumed
    true in turn and followed by chains; whatever all assumptions agree on is
    proved. An assumption that makes a candidate both true and false is itself
    false.
    """
    graph, strong, weak = board_links(board)
    strong, weak, groups = group_links(board, strong, weak)
    cache: dict[int, Implications] = {}

    def implied(n: int) -> Implications:
        """What follows from n, group nodes included."""
        if n not in cache:
            cache[n] = _implications(n, strong, weak)
        return cache[n]

    def implied_candidates(n: int) -> Implications:
        """The same restricted to candidate nodes (what a step may place or eliminate)."""
        true, false, contradiction = implied(n)
        return Implications(true & ALL_NODES, false & ALL_NODES, contradiction)

    for n in set_bits(graph.nodes):
        found = implied(n)
        if found.contradiction:
            clash = set_bits(found.true & found.false)[0]
            clash_name = node_name(clash) if clash < 729 else group_name(*groups[clash - 729])
            yield Step("forcing_chain", eliminations=((n // 9, n % 9 + 1),), cells=(n // 9,),
                       text=f"{title('forcing_chain')} (contradiction): if {node_name(n)} were true, {clash_name} would be "
                            f"both true and false, so {node_name(n)} is false")
            return
    yield from _common_consequences("forcing_chain", _forcing_groups(board), implied_candidates)


def _net_implications(board: Board, node: int) -> Implications:
    """(true set, false set, contradiction) from assuming `node` true and applying singles repeatedly.

    A forcing net, unlike a chain, may use several premises at once: a cell
    whose other candidates were all removed, or a digit left with one place in
    a house, becomes true.
    """
    values = list(board.values)
    cands = list(board.candidates)
    true = false = 0
    queue = [node]
    while True:
        while queue:
            n = queue.pop()
            cell, d = divmod(n, 9)
            d += 1
            if values[cell]:
                if values[cell] != d:
                    return Implications(true, false, True)
                continue
            bit = 1 << (d - 1)
            if not cands[cell] & bit:
                return Implications(true, false, True)
            values[cell] = d
            true |= 1 << n
            for o in digits_of(cands[cell] & ~bit):
                false |= 1 << (cell * 9 + o - 1)
            cands[cell] = 0
            for p in PEERS[cell]:
                if cands[p] & bit:
                    cands[p] &= ~bit
                    false |= 1 << (p * 9 + d - 1)
                    m = cands[p]
                    if not m:
                        return Implications(true, false, True)
                    if m & (m - 1) == 0:
                        queue.append(p * 9 + m.bit_length() - 1)
        for house in HOUSES:
            once = twice = placed = 0
            for c in house:
                m = cands[c]
                twice |= once & m
                once |= m
                if values[c]:
                    placed |= 1 << (values[c] - 1)
            if (once | placed) != 0x1FF:
                return Implications(true, false, True)  # a digit with no place left in this house
            singles = once & ~twice & ~placed
            for d in set_bits(singles):
                bit = 1 << d
                queue.append(next(c for c in house if cands[c] & bit) * 9 + d)
        if not queue:
            return Implications(true, false, False)


def find_forcing_net(board: Board) -> Iterator[Step]:
    """Forcing nets: like `find_forcing_chain`, but each assumption is followed by singles, not just chains."""
    cache: dict[int, Implications] = {}

    def implied(n: int) -> Implications:
        if n not in cache:
            cache[n] = _net_implications(board, n)
        return cache[n]

    groups = _forcing_groups(board)
    # Contradictions first, trying candidates of cells with the fewest candidates first.
    for _, nodes in sorted(groups[: sum(1 for c in board.candidates if c)], key=lambda g: len(g[1])):
        for n in nodes:
            if implied(n).contradiction:
                yield Step("forcing_net", eliminations=((n // 9, n % 9 + 1),), cells=(n // 9,),
                           text=f"{title('forcing_net')} (contradiction): assuming {node_name(n)} and following singles "
                                f"breaks the grid, so {node_name(n)} is false")
                return
    yield from _common_consequences("forcing_net", groups, implied)
