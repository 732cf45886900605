"""Forcing chains and forcing nets: the last logical resort before search.

Technique write-ups: HoDoKu "Forcing Chains" (tech_fc.php); SudokuWiki "Cell
Forcing Chains", "Unit Forcing Chains" and "Nishio Forcing Chains". Each
premise of a group of which exactly one is true (a cell's candidates, or a
digit's places in a house) is assumed true in turn and followed: by chains
(the links of `links.LinkGraph`, plus group nodes as HoDoKu's forcing chains
use them: `grouped.group_links`) for a forcing chain, by singles for a forcing
net. Whatever every premise implies is proved; a premise that implies a
contradiction is false.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .board import Board
from .grid import HOUSES, PEERS, digits_of, set_bits
from .grouped import grouped_links
from .links import ALL_NODES, board_links, union_of
from .steps import Step
from .techniques import Technique


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


def _forcing_groups(board: Board) -> list[tuple[int | None, list[int]]]:
    """Premise sets of which exactly one is true: a cell's candidates, then each digit's places in a house; as
    (the house, None for a cell, and the premises' nodes)."""
    groups: list[tuple[int | None, list[int]]] = []
    for cell in range(81):
        mask = board.candidates[cell]
        if mask:
            groups.append((None, [cell * 9 + d - 1 for d in digits_of(mask)]))
    for h, house in enumerate(HOUSES):
        for d in range(1, 10):
            nodes = [c * 9 + d - 1 for c in house if board.candidates[c] >> (d - 1) & 1]
            if len(nodes) >= 2:
                groups.append((h, nodes))
    return groups


def _node(n: int, groups) -> tuple[int, tuple[int, ...]]:
    """A node as a `Step.chain` entry: (digit, its cells), a group node's from `groups` (`grouped_links`)."""
    if n >= 729:
        digit, cells = groups[n - 729]
        return digit, tuple(set_bits(cells))
    return n % 9 + 1, (n // 9,)


def _common_consequences(technique: str, groups, implied) -> Iterator[Step]:
    """A step from what every premise of a group implies: a common true node, or common false ones."""
    for house, nodes in groups:
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
            yield Step(
                Technique(technique),
                placements=((p // 9, p % 9 + 1),),
                cells=tuple(n // 9 for n in nodes),
                digits=(nodes[0] % 9 + 1,),
                base=() if house is None else (house,),
            )
            return
        if common_false:
            elims = tuple((v // 9, v % 9 + 1) for v in set_bits(common_false))
            yield Step(
                Technique(technique),
                eliminations=elims,
                cells=tuple(n // 9 for n in nodes),
                digits=(nodes[0] % 9 + 1,),
                base=() if house is None else (house,),
            )
            return


def find_forcing_chain(board: Board) -> Iterator[Step]:
    """Cell and digit forcing chains, and contradictions, as the last logical resort.

    Each candidate of a cell (or each place for a digit in a house) is assumed
    true in turn and followed by chains; whatever all assumptions agree on is
    proved. An assumption that makes a candidate both true and false is itself
    false.
    """
    graph = board_links(board)[0]
    strong, weak, groups = grouped_links(board)
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
            yield Step(
                Technique.FORCING_CHAIN,
                eliminations=((n // 9, n % 9 + 1),),
                cells=(n // 9,),
                chain=(_node(n, groups), _node(clash, groups)),
                variant="contradiction",
            )
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
        singles = _house_singles(values, cands)
        if singles is None:
            return Implications(true, false, True)  # a digit with no place left in some house
        if not singles:
            return Implications(true, false, False)
        queue = singles


def _house_singles(values: list[int], cands: list[int]) -> list[int] | None:
    """The nodes (cell * 9 + digit - 1) of the digits left with one place in a house, house by house;
    None when a digit has no place left in some house."""
    found = []
    for house in HOUSES:
        once = twice = placed = 0
        for c in house:
            m = cands[c]
            twice |= once & m
            once |= m
            if values[c]:
                placed |= 1 << (values[c] - 1)
        if (once | placed) != 0x1FF:
            return None
        singles = once & ~twice & ~placed
        for d in set_bits(singles):
            bit = 1 << d
            found.append(next(c for c in house if cands[c] & bit) * 9 + d)
    return found


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
                yield Step(
                    Technique.FORCING_NET,
                    eliminations=((n // 9, n % 9 + 1),),
                    cells=(n // 9,),
                    variant="contradiction",
                )
                return
    yield from _common_consequences("forcing_net", groups, implied)
