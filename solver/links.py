"""The chain graph: candidate nodes, group-free node spaces, and the strong and weak links between them.

Technique write-ups: HoDoKu "Chains and Loops" (tech_chains.php); SudokuWiki
"Strong and Weak Links", "X-Cycles", "XY-Chains", "Alternating Inference Chains".
The searches that walk these graphs are in `chains` (X-Chains, XY-Chains, AICs
and nice loops), `grouped` (group nodes) and `forcing` (forcing chains and nets).

A node is a candidate ``cell * 9 + digit - 1`` (0..728). Two nodes are
*strongly* linked when at least one is true (the only two places for a digit
in a house, or the only two digits of a cell) and *weakly* linked when at most
one is true (same cell, or same digit in cells that see each other). Node sets
are Python ints used as 729-bit sets, so propagating a whole layer of a chain
is a handful of bitwise operations (the representation tdoku's write-up
argues for).

Each chain type is searched in its own smaller node space, built once per
position: one digit's conjugate-pair cells for an X-Chain (`DigitGraph`), the
bivalue cells' candidates for an XY-Chain (`BivalueGraph`), the candidates with
a strong link for an AIC or nice loop (`StrongGraph`). A search runs over a
`ChainSpace`: the links of one such space, what the search core needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import or_
from typing import NamedTuple

from .board import ALL_CELLS, Board, conjugate_pairs
from .grid import HOUSES_OF_CELL, PEER_BITS, cell_name, digits_of, set_bits


def union_of(table: list[int], nodes: int) -> int:
    """OR of table[n] over the set bits n of `nodes` (one layer of a breadth-first chain search). The bits
    are taken from the top: ``bit_length`` finds one without the negation and mask the lowest bit costs."""
    out = 0
    while nodes:
        n = nodes.bit_length() - 1
        out |= table[n]
        nodes ^= 1 << n
    return out


#: _SPREAD9[m]: bit i of a 9-bit mask moved to bit 9 * i (nine cells to the first digit's nodes).
_SPREAD9 = tuple(sum(1 << (9 * i) for i in range(9) if m >> i & 1) for m in range(512))


#: The 81 nodes of digit 1 (node ``cell * 9``) as a 729-bit set; shifted by d - 1, those of digit d.
DIGIT_NODES = sum(1 << 9 * c for c in range(81))


def to_nodes(cells: int) -> int:
    """An 81-bit cell set as the 729-bit set of those cells' digit-1 nodes (bit c -> bit 9 * c)."""
    out = 0
    for k in range(9):
        chunk = cells >> (9 * k) & 511
        if chunk:
            out |= _SPREAD9[chunk] << (81 * k)
    return out


#: All 729 candidate nodes as a set.
ALL_NODES = (1 << 729) - 1
#: PEER_NODES[cell]: the digit-1 nodes of the cell's 20 peers; shifted by d - 1, those of digit d.
PEER_NODES = [to_nodes(PEER_BITS[c]) for c in range(81)]


def node_name(n: int, groups: Sequence[tuple[int, int]] = ()) -> str:
    """A candidate in the usual notation, e.g. ``5r3c7``; a group node (``729 + k``, `groups[k]` its digit
    and 81-bit cell set, see `grouped.group_links`) as `group_name` writes it."""
    if n >= 729:
        return group_name(*groups[n - 729])
    return f"{n % 9 + 1}{cell_name(n // 9)}"


def group_name(digit: int, cells: int) -> str:
    """A group node in the usual notation, e.g. ``5r5c4/r5c6`` (`cells`: an 81-bit set)."""
    return f"{digit}{'/'.join(cell_name(c) for c in set_bits(cells))}"


class LinkGraph:
    """Strong and weak links between the candidates of a board.

    Attributes
    ----------
    nodes : int
        Bitset of the candidates present.
    strong_house, strong_cell : list of int
        Per node, bitset of nodes strongly linked through a house (conjugate
        pair) or inside a bivalue cell.
    weak_house, weak_cell : list of int
        Per node, bitset of nodes weakly linked through a shared house (same
        digit) or inside the same cell (other digits).
    """

    def __init__(self, board: Board):
        cands = board.candidates
        self.nodes = 0
        self.strong_house = [0] * 729
        self.strong_cell = [0] * 729
        self.weak_house = [0] * 729
        self.weak_cell = [0] * 729
        # Per digit, the nodes of that digit (its cells spread to node space, then shifted to the digit).
        digit_nodes = [0] + [to_nodes(board.digit_cells(d)) << (d - 1) for d in range(1, 10)]
        for cell in range(81):
            mask = cands[cell]
            if not mask:
                continue
            base = cell * 9
            cell_nodes = mask << base
            self.nodes |= cell_nodes
            peers = PEER_NODES[cell]
            bivalue = mask.bit_count() == 2
            while mask:
                low = mask & -mask
                mask ^= low
                d = low.bit_length()  # digit 1..9
                n = base + d - 1
                self.weak_cell[n] = others = cell_nodes & ~(1 << n)
                if bivalue:
                    self.strong_cell[n] = others
                self.weak_house[n] = (peers << (d - 1)) & digit_nodes[d]
        for d in range(1, 10):
            for _, a, b in conjugate_pairs(board, d):
                na, nb = a * 9 + d - 1, b * 9 + d - 1
                self.strong_house[na] |= 1 << nb
                self.strong_house[nb] |= 1 << na


def board_links(board: Board) -> tuple[LinkGraph, list[int], list[int]]:
    """The board's link graph and, per node (729 lists of 729-bit sets), its strong and its weak neighbours
    of every family (through a house or inside a cell): the links forcing chains follow. Built once per
    board state; callers must not change the lists."""
    graph = board.cached("links", LinkGraph)
    strong, weak = board.cached(
        "all links",
        lambda b: (
            list(map(or_, graph.strong_house, graph.strong_cell)),
            list(map(or_, graph.weak_house, graph.weak_cell)),
        ),
    )
    return graph, strong, weak


def node_cells(n: int, groups: Sequence[tuple[int, int]] = ()) -> int:
    """The cells of node `n` as an 81-bit set: a candidate's cell, or a group node's cells (`node_name`)."""
    return 1 << n // 9 if n < 729 else groups[n - 729][1]


#: Bits 0, 2, 4, ... of a `BivalueGraph` node set (the first node of each bivalue cell).
EVEN_BITS = sum(1 << 2 * j for j in range(81))


def swap_pairs(nodes: int) -> int:
    """A `BivalueGraph` node set with each node replaced by the other digit of its cell (its strong link)."""
    return (nodes & EVEN_BITS) << 1 | (nodes >> 1) & EVEN_BITS


#: Each cell as an 81-bit set: the cells of the X-Chain space's nodes (a node is its cell).
CELL_BITS = [1 << c for c in range(81)]


class DigitGraph(NamedTuple):
    """The X-Chain links of one digit, in cell space (81-bit cell sets): a node of the digit is its cell.

    Only cells in a conjugate pair can be on an X-Chain (a chain starts and ends with a strong link, and a
    cell reached by a weak link is followed only by a strong one), so the weak links are kept between those
    cells only: the layers of the search then hold nothing else, and the chains and victims are the same.
    """

    digit: int
    cells: int  # the cells that still have the digit
    starts: list[int]  # the cells in a conjugate pair, ascending
    strong: list[int]  # per cell (81), its conjugate partners
    weak: list[int]  # per cell (81), the cells of `starts` that see it

    @classmethod
    def of(cls, board: Board, digit: int) -> DigitGraph:
        """The graph of `digit` (1..9) on `board`: strong links are its conjugate pairs (`board.conjugate_pairs`)."""
        strong = [0] * 81
        paired = 0
        for _, a, b in conjugate_pairs(board, digit):
            strong[a] |= 1 << b
            strong[b] |= 1 << a
            paired |= 1 << a | 1 << b
        starts = set_bits(paired)
        weak = [0] * 81
        for c in starts:
            weak[c] = PEER_BITS[c] & paired
        return cls(digit, board.digit_cells(digit), starts, strong, weak)

    def space(self) -> ChainSpace:
        """The search space: the digit's cells (node = cell), links as above."""
        return ChainSpace(self.strong, self.weak, ALL_CELLS, CELL_BITS)


class BivalueGraph(NamedTuple):
    """The XY-Chain links, in the space of the bivalue cells' candidates: node 2j and node 2j + 1 are the lower
    and the higher digit of the j-th bivalue cell (ascending order of the nodes is that of the candidates).

    A chain of bivalue cells goes into a cell by a weak link and out of it by a strong one, so a candidate
    outside the bivalue cells, weakly linked to the chain, leads nowhere: keeping the weak links between
    bivalue cells only leaves the chains and the ends of every search as they are.
    """

    nodes: list[int]  # per node of the space, its candidate (cell * 9 + digit - 1)
    strong: list[int]  # per node, the other digit of its cell (1 << (i ^ 1))
    weak: list[int]  # per node, the nodes of the same digit in bivalue cells that see its cell
    with_digit: list[int]  # per digit 1..9 (index 0 unused), the nodes of that digit

    @classmethod
    def of(cls, board: Board) -> BivalueGraph:
        """The graph of `board`'s bivalue cells (`Board.bivalue_cells`)."""
        cands = board.candidates
        nodes: list[int] = []
        with_digit = [0] * 10
        in_house_with = [0] * 243  # per house h and digit d, at 9 * h + d - 1: its nodes of that digit
        for c in set_bits(board.bivalue_cells()):
            r, x, b = HOUSES_OF_CELL[c]
            for d in digits_of(cands[c]):
                bit = 1 << len(nodes)
                with_digit[d] |= bit
                in_house_with[9 * r + d - 1] |= bit
                in_house_with[9 * x + d - 1] |= bit
                in_house_with[9 * b + d - 1] |= bit
                nodes.append(c * 9 + d - 1)
        weak = []
        for i, n in enumerate(nodes):
            cell, d = divmod(n, 9)
            r, x, b = HOUSES_OF_CELL[cell]
            weak.append((in_house_with[9 * r + d] | in_house_with[9 * x + d] | in_house_with[9 * b + d]) & ~(1 << i))
        return cls(nodes, [1 << (i ^ 1) for i in range(len(nodes))], weak, with_digit)

    def space(self) -> ChainSpace:
        """The search space: node i is candidate `nodes[i]`; strong links pair the two digits of a cell."""
        return ChainSpace(self.strong, self.weak, (1 << len(self.nodes)) - 1, _cells_of(self.nodes), paired=True)


class StrongGraph(NamedTuple):
    """The AIC links between the candidates with a strong link (in a conjugate pair or a bivalue cell), in the
    space of those candidates: node i is the i-th of them in ascending order.

    A candidate without a strong link, reached by a weak link, is not followed (a chain goes on from it by a
    strong link only) and cannot end a chain: keeping the links between these candidates only leaves the
    chains and the ends of every search as they are.
    """

    nodes: list[int]  # per node of the space, its candidate (cell * 9 + digit - 1)
    strong: list[int]  # per node, the nodes strongly linked to it (through a house or a bivalue cell)
    weak: list[int]  # per node, the nodes weakly linked to it (the same cell, or the same digit in a peer)
    with_digit: list[int]  # per digit 1..9 (index 0 unused), the nodes of that digit
    in_cells_with: list[int]  # per digit 1..9, the nodes in cells that have that digit as a candidate
    in_peers: dict[int, int]  # per cell with nodes, the nodes in the cells that see it

    @classmethod
    def of(cls, board: Board) -> StrongGraph:
        """The graph of `board`'s candidates that have a strong link (conjugate pair or bivalue cell)."""
        cands = board.candidates
        bivalue = board.bivalue_cells()
        pairs = [()] + [conjugate_pairs(board, d) for d in range(1, 10)]
        linked_cells = [0] * 10  # per digit, the cells whose candidate of it has a strong link
        for d in range(1, 10):
            cells = bivalue & board.digit_cells(d)
            for _, p, q in pairs[d]:
                cells |= 1 << p | 1 << q
            linked_cells[d] = cells
        node_cells = bivalue
        for cells in linked_cells:
            node_cells |= cells
        nodes: list[int] = []
        in_cell = {}  # per cell with nodes, its nodes
        with_digit = [0] * 10
        in_cells_with = [0] * 10
        in_house = [0] * 27  # per house, its nodes
        in_house_with = [0] * 243  # per house h and digit d, at 9 * h + d - 1: its nodes of that digit
        for c in set_bits(node_cells):
            mask = cands[c]
            houses = HOUSES_OF_CELL[c]
            first = len(nodes)
            for d in digits_of(mask):
                if linked_cells[d] >> c & 1:
                    bit = 1 << len(nodes)
                    with_digit[d] |= bit
                    for h in houses:
                        in_house_with[9 * h + d - 1] |= bit
                    nodes.append(c * 9 + d - 1)
            in_cell[c] = here = (1 << len(nodes)) - (1 << first)
            for h in houses:
                in_house[h] |= here
            for d in digits_of(mask):
                in_cells_with[d] |= here
        in_peers = {}
        for c, here in in_cell.items():
            r, x, b = HOUSES_OF_CELL[c]
            in_peers[c] = (in_house[r] | in_house[x] | in_house[b]) & ~here
        strong = [0] * len(nodes)
        weak = []
        for i, n in enumerate(nodes):
            cell, d = divmod(n, 9)
            r, x, b = HOUSES_OF_CELL[cell]
            others = in_cell[cell] & ~(1 << i)
            if bivalue >> cell & 1:
                strong[i] = others
            weak.append(
                (others | in_house_with[9 * r + d] | in_house_with[9 * x + d] | in_house_with[9 * b + d]) & ~(1 << i)
            )
        index = {n: i for i, n in enumerate(nodes)}
        for d in range(1, 10):
            for _, p, q in pairs[d]:
                i, j = index[p * 9 + d - 1], index[q * 9 + d - 1]
                strong[i] |= 1 << j
                strong[j] |= 1 << i
        return cls(nodes, strong, weak, with_digit, in_cells_with, in_peers)

    def space(self) -> ChainSpace:
        """The search space: node i is candidate `nodes[i]`."""
        return ChainSpace(self.strong, self.weak, (1 << len(self.nodes)) - 1, _cells_of(self.nodes))


def _cells_of(nodes: list[int]) -> list[int]:
    """Per node of a space whose node i is candidate ``nodes[i]``, its cell as an 81-bit set."""
    return [1 << n // 9 for n in nodes]


@dataclass
class ChainSpace:
    """One node space's links, as the chain search core walks them (`chains.chain_layers`, `chains.trace_chain`,
    `chains.trace_lasso_free_chain`): the graph object the searches share instead of long argument lists.

    Attributes
    ----------
    strong : list of int
        Per node, the set of nodes strongly linked to it (at least one of the two is true).
    weak : list of int
        Per node, the set of nodes weakly linked to it (at most one of the two is true).
    universe : int
        All the nodes of the space, as a set.
    cells_of : list of int
        Per node, its cells as an 81-bit set (a group node has two or three): a chain never comes back to a
        cell it has left (`chains.is_lasso`).
    groups : sequence of (int, int)
        The group nodes' (digit, 81-bit cell set), node ``729 + k`` the k-th (`grouped.group_links`); empty
        but in the grouped space.
    paired : bool
        True when the strong links pair node 2j with node 2j + 1 (the `BivalueGraph` space, a cell's two
        digits): a whole layer follows them at once (`swap_pairs`).
    exhausted : int
        How many searches in this space ran out of their budget (`chains.SIMPLE_CHAIN_BUDGET`) and gave up;
        the finder adds it to `Board.budget_exhausted`, so that no such give-up goes unseen.
    """

    strong: list[int]
    weak: list[int]
    universe: int
    cells_of: list[int]
    groups: Sequence[tuple[int, int]] = ()
    paired: bool = False
    exhausted: int = 0
