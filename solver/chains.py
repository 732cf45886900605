"""Chains and nice loops: remote_pair, x_chain, xy_chain, aic and continuous_nice_loop.

Technique write-ups: HoDoKu "Chains and Loops" (tech_chains.php); SudokuWiki
"Remote Pairs", "X-Cycles", "XY-Chains", "Alternating Inference Chains".
Colouring is in `coloring`, forcing chains and nets in `forcing`.

A node is a candidate ``cell * 9 + digit - 1`` (0..728). Two nodes are
*strongly* linked when at least one is true (the only two places for a digit
in a house, or the only two digits of a cell) and *weakly* linked when at most
one is true (same cell, or same digit in cells that see each other). Node sets
are Python ints used as 729-bit sets, so propagating a whole layer of a chain
is a handful of bitwise operations (the representation tdoku's write-up
argues for).

An alternating inference chain starts at S with a strong link and alternates
weak and strong links; if S is false its end E is true, so S or E is true and
any candidate weakly linked to both is false. The search below assumes S false,
grows layers of forced-true and forced-false nodes breadth first (so every
chain it reports is a shortest one from S), and reports the first S that
eliminates something. Restricting the links gives the simpler chain types: one
digit only is an X-Chain; strong links inside bivalue cells and weak links
between cells on one digit is an XY-Chain.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import or_
from typing import NamedTuple

from .board import Board, conjugate_pairs, memo_table
from .coloring import two_color_clusters
from .grid import PEER_BITS, PEERS, cell_name, digits_of, set_bits
from .steps import Step
from .techniques import title


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


def _to_nodes(cells: int) -> int:
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
PEER_NODES = [_to_nodes(PEER_BITS[c]) for c in range(81)]


def node_name(n: int) -> str:
    """A candidate in the usual notation, e.g. ``5r3c7``."""
    return f"{n % 9 + 1}{cell_name(n // 9)}"


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
    strong_house_nodes, strong_cell_nodes : int
        The nodes with a strong link through a house (in a conjugate pair) or
        inside a cell (in a bivalue cell).
    """

    def __init__(self, board: Board):
        cands = board.candidates
        self.nodes = 0
        self.strong_house = [0] * 729
        self.strong_cell = [0] * 729
        self.weak_house = [0] * 729
        self.weak_cell = [0] * 729
        self.strong_house_nodes = self.strong_cell_nodes = 0
        # Per digit, the nodes of that digit (its cells spread to node space, then shifted to the digit).
        digit_nodes = [0] + [_to_nodes(board.digit_cells(d)) << (d - 1) for d in range(1, 10)]
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
            if bivalue:
                self.strong_cell_nodes |= cell_nodes
        for d in range(1, 10):
            for _, a, b in conjugate_pairs(board, d):
                na, nb = a * 9 + d - 1, b * 9 + d - 1
                self.strong_house[na] |= 1 << nb
                self.strong_house[nb] |= 1 << na
                self.strong_house_nodes |= 1 << na | 1 << nb


#: Link families allowed in each chain type: (strong via house, strong via cell, weak via house, weak via cell).
CHAIN_KINDS = {
    "x_chain": (True, False, True, False),
    "xy_chain": (False, True, True, False),
    "aic": (True, True, True, True),
}


def links(graph: LinkGraph, kind: str) -> tuple[list[int], list[int]]:
    """Per node, bitsets of (strong, weak) neighbours using only the link families of `kind`.

    A kind with one family on a side gets the graph's own list for it (not a copy: callers must not change
    the lists)."""
    sh, sc, wh, wc = CHAIN_KINDS[kind]
    return _either(sh, graph.strong_house, sc, graph.strong_cell), _either(wh, graph.weak_house, wc, graph.weak_cell)


def strong_nodes(graph: LinkGraph, kind: str) -> int:
    """The nodes with a strong link of `kind` (those whose `links` strong entry is not empty)."""
    sh, sc, _, _ = CHAIN_KINDS[kind]
    return (graph.strong_house_nodes if sh else 0) | (graph.strong_cell_nodes if sc else 0)


def board_links(board: Board, kind: str) -> tuple[LinkGraph, list[int], list[int]]:
    """The board's link graph and its (strong, weak) `links` of `kind`, built once per board state."""
    graph = board.cached("links", LinkGraph)
    strong, weak = board.cached(("links", kind), lambda b: links(graph, kind))
    return graph, strong, weak


def _either(use_a: bool, a: list[int], use_b: bool, b: list[int]) -> list[int]:
    """Per node, the union of the link lists `a` and `b` that are used (all zeros when neither is)."""
    if use_a and use_b:
        return list(map(or_, a, b))
    if use_a or use_b:
        return a if use_a else b
    return [0] * len(a)


def _chain_layers(start: int, strong: list[int], weak: list[int], strong_nodes: int, max_layers: int,
                  layers: list[int] | None = None) -> list[int]:
    """Layers of the alternating search from `start` assumed false, up to `max_layers` of them (fewer when
    the search ends); `layers`, an earlier call's result for the same start, is extended instead of being
    searched again (it is not changed). `strong_nodes` holds the nodes with a strong link: only those of
    a false layer are followed (the others lead nowhere).

    Layer 0 is {start} (false); odd layers are forced true (reached by a
    strong link), even layers forced false (reached by a weak link).
    """
    layers = list(layers) if layers else [1 << start]
    unseen_false = unseen_true = ALL_NODES  # complements of the layers so far, by parity
    for layer in layers[1::2]:
        unseen_true ^= layer
    for layer in layers[0::2]:
        unseen_false ^= layer
    frontier = layers[-1]
    for depth in range(len(layers), max_layers):
        if depth % 2:
            nxt = union_of(strong, frontier & strong_nodes) & unseen_true
            unseen_true ^= nxt
        else:
            nxt = union_of(weak, frontier) & unseen_false
            unseen_false ^= nxt
        if not nxt:
            break
        layers.append(nxt)
        frontier = nxt
    return layers


def _trace(layers: list[int], end_layer: int, end: int, strong: list[int], weak: list[int]) -> list[int]:
    """One chain start -> ... -> end through the layers (end in layer `end_layer`): each node's predecessor is
    the lowest node of the layer before that links to it (links are symmetric, so that is the lowest node of
    the layer among the node's own neighbours)."""
    chain = [end]
    node = end
    for depth in range(end_layer, 0, -1):
        table = strong if depth % 2 else weak
        linked = table[node] & layers[depth - 1]
        node = (linked & -linked).bit_length() - 1
        chain.append(node)
    return chain[::-1]


def _chain_text(chain: list[int]) -> str:
    parts = [node_name(chain[0])]
    for i, n in enumerate(chain[1:]):
        parts.append(("=" if i % 2 == 0 else "-") + node_name(n))
    return " ".join(parts)


class ChainFound(NamedTuple):
    """A chain the search found, with what it eliminates.

    Attributes
    ----------
    loop : bool
        True when the chain closes into a continuous nice loop.
    length : int
        Number of links from start to end (odd).
    victims : int
        The eliminated candidates as a 729-bit node set.
    chain : list of int
        Nodes (``cell * 9 + digit - 1``) from start to end.
    """

    loop: bool
    length: int
    victims: int
    chain: list[int]

    def beats(self, other: "ChainFound | None") -> bool:
        """More eliminations, or as many with fewer links (HoDoKu's preference)."""
        return other is None or ((self.victims.bit_count(), -self.length)
                                 > (other.victims.bit_count(), -other.length))


def find_chain(board: Board, kind: str, max_length: int = 21) -> Iterator[Step]:
    """The alternating chain of one kind (``x_chain``, ``xy_chain`` or ``aic``) that eliminates the most.

    As HoDoKu's chain finders do, every start is searched and the chain with
    the most eliminations is reported (ties: the shorter chain, then the
    earlier start); for each start and end only the shortest chain counts.

    Parameters
    ----------
    board : Board
    kind : str
        Key of CHAIN_KINDS.
    max_length : int
        Most links in a chain (odd: it starts and ends with a strong link).

    Yields
    ------
    Step
        At most one: a chain of at least three links. Short chains are
        preferred outright: longer ones (up to `max_length`) are only
        searched when no chain of up to 5 links eliminates anything.
    """
    graph, strong, weak = board_links(board, kind)
    starting = strong_nodes(graph, kind)
    starts = set_bits(starting)
    links = _Links(kind, graph, strong, weak, starting, board_links(board, "aic")[2],
                   board.cached("near victims", lambda b: {}))
    searched: dict[int, tuple[list[int], int, int]] = {}
    # Chains of up to 5 links first; when none eliminates, longer ones (the short ones failed already).
    for pass_index, (limit, shortest) in enumerate(((5, 3), (max_length, 7))):
        if kind == "x_chain":
            # One digit's chains depend on that digit's cells only: the best of each digit is memoised on
            # them, and the best over digits is the one the search over all starts would keep (ties: the
            # earlier start).
            best = None
            for d in range(1, 10):
                key = (d, board.digit_cells(d), max_length, pass_index)
                kept = _X_CHAINS.get(key)  # one read: another thread's new Board may empty the table
                if kept is None:
                    digit_starts = [n for n in starts if n % 9 == d - 1]
                    kept = _X_CHAINS[key] = (_best_chain(links, digit_starts, limit, shortest, searched),)
                found = kept[0]
                if found is not None and (found.beats(best) or (not best.beats(found)
                                                                and found.chain[0] < best.chain[0])):
                    best = found
        else:
            best = _best_chain(links, starts, limit, shortest, searched)
        if best is None:
            continue
        victims, chain = best.victims, best.chain
        start, end = chain[0], chain[-1]
        elims = tuple((v // 9, v % 9 + 1) for v in set_bits(victims))
        removed = f"so {', '.join(node_name(v) for v in set_bits(victims))} {'is' if len(elims) == 1 else 'are'} false"
        cells = tuple(dict.fromkeys(n // 9 for n in chain))
        if best.loop:
            yield Step("continuous_nice_loop", eliminations=elims, cells=cells,
                       text=f"{title('continuous_nice_loop')}: {_chain_text(chain)} - {node_name(start)}; every link "
                            f"holds both ways, {removed}")
            return
        yield Step(kind, eliminations=elims, cells=cells,
                   text=f"{title(kind)}: {_chain_text(chain)}; {node_name(start)} or {node_name(end)} is true, {removed}")
        return


#: Per puzzle: (digit, its cells, max length, pass) -> the best X-Chain of that digit in that pass, of up to
#: 5 links (pass 0) or of 7 links or more (pass 1), as a 1-tuple (`ChainFound` or None).
_X_CHAINS = memo_table()


class _Links(NamedTuple):
    """What a chain search of one kind works with on one board state."""

    kind: str
    graph: LinkGraph
    strong: list[int]
    weak: list[int]
    strong_nodes: int  # the nodes with a strong link of this kind
    weak_any: list[int]  # weak links of any kind: victims are weakly linked to both ends
    near_victims: dict  # start -> the nodes weakly linked to a candidate weakly linked to it (all kinds share it)


def _best_chain(links: _Links, starts: list[int], limit: int, shortest: int,
                searched: dict[int, tuple[list[int], int, int]]) -> ChainFound | None:
    """The chain from one of `starts` (ascending) with `shortest` to `limit` links that eliminates the most
    (ties: fewer links, then the earlier start; per start and end the shortest chain). `searched` keeps each
    start's layers (searched as deep as a call has needed: `limit` + 1 layers), the ends worth tracing and
    the number of layers asked for, between calls."""
    kind, graph, strong, weak, strong_nodes, weak_any, near_victims = links
    best: ChainFound | None = None
    for start in starts:
        if start in searched:
            layers, ends, asked = searched[start]
            if asked < limit + 1:
                layers = _chain_layers(start, strong, weak, strong_nodes, limit + 1, layers)
                searched[start] = layers, ends, limit + 1
        else:
            layers = _chain_layers(start, strong, weak, strong_nodes, limit + 1)
            # The only ends worth tracing: weakly linked to a victim (a candidate weakly linked to
            # start), or, in an AIC, to start itself (a loop).
            ends = near_victims.get(start)
            if ends is None:
                ends = near_victims[start] = union_of(weak_any, weak_any[start])
            ends = (ends | (weak_any[start] if kind == "aic" else 0)) & ~(1 << start)
            searched[start] = layers, ends, limit + 1
        victims_of_start = weak_any[start]
        for depth in range(shortest, min(len(layers), limit + 1), 2):
            for end in set_bits(layers[depth] & ends):
                victims = victims_of_start & weak_any[end] & ~(1 << end)
                closes = kind == "aic" and weak_any[end] >> start & 1
                if not closes and not (victims and ChainFound(False, depth, victims, []).beats(best)):
                    continue  # a chain that is not a loop ranks by its victims and length: no trace needed
                chain = _trace(layers, depth, end, strong, weak)
                if closes:
                    victims = _loop_victims(chain, graph)
                if not victims:
                    continue
                found = ChainFound(bool(closes), depth, victims, chain)
                if not found.beats(best) or len(set(c // 9 for c in chain)) < 2:
                    continue
                best = found
    return best


def _loop_victims(chain: list[int], graph: LinkGraph) -> int:
    """Candidates removed by a continuous loop (`chain` closed by a weak link from its end to its start).

    Around such a loop exactly one node of every linked pair is true (the
    even nodes or the odd ones), so each pair acts as a conjugate pair:
    other candidates of a shared cell go, and the shared digit leaves cells
    that see both. Source: HoDoKu "Nice Loops" (tech_chains.php).
    """
    if len(set(chain)) != len(chain):
        return 0  # a node both true and false: only a broken board gives such a loop
    victims = 0
    for u, v in zip(chain, chain[1:] + chain[:1]):
        if u // 9 == v // 9:
            victims |= graph.weak_cell[u] & ~(1 << v)
        elif u % 9 == v % 9:
            victims |= graph.weak_house[u] & graph.weak_house[v]
    for n in chain:
        victims &= ~(1 << n)
    return victims


def find_x_chain(board: Board) -> Iterator[Step]:
    """Alternating chain on a single digit (strong links are conjugate pairs)."""
    return find_chain(board, "x_chain")


def find_xy_chain(board: Board) -> Iterator[Step]:
    """Chain of bivalue cells: strong links inside cells, weak links between cells on one digit."""
    return find_chain(board, "xy_chain")


def find_aic(board: Board) -> Iterator[Step]:
    """Alternating inference chain over any mix of cell and house links."""
    return find_chain(board, "aic")


def find_remote_pair(board: Board) -> Iterator[Step]:
    """A chain of bivalue cells with the same two digits, each seeing the next: the digits alternate along it,
    so a cell that sees two chain cells an odd number of links apart loses both digits.

    HoDoKu "Remote Pair" (tech_chains.php); at least four cells (two are a naked pair).
    """
    cands = board.candidates
    by_pair: dict[int, list[int]] = {}
    for c in set_bits(board.bivalue_cells()):
        by_pair.setdefault(cands[c], []).append(c)
    for mask, cells in by_pair.items():
        if len(cells) < 4:
            continue
        members = set(cells)
        adjacency = {c: [o for o in PEERS[c] if o in members] for c in cells}
        for colour in two_color_clusters(cells, adjacency):
            if len(colour) < 4 or any(colour[o] == colour[c] for c in colour for o in PEERS[c] if o in colour):
                continue  # too short, or two cells that must differ are forced equal (a broken board)
            peers0 = set().union(*(PEERS[c] for c in colour if colour[c] == 0))
            peers1 = set().union(*(PEERS[c] for c in colour if colour[c] == 1))
            elims = tuple((c, d) for c in sorted((peers0 & peers1) - set(colour)) for d in digits_of(mask)
                          if cands[c] & (1 << (d - 1)))
            if elims:
                x, y = digits_of(mask)
                chain = sorted(colour)
                yield Step("remote_pair", eliminations=elims, cells=tuple(chain),
                           text=f"{title('remote_pair')}: {x}/{y} alternate along {', '.join(cell_name(c) for c in chain)}; "
                                f"cells seeing both kinds lose {x} and {y}")
