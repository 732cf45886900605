"""Coloring and chains: simple_colors, multi_colors, remote_pair, x_chain, xy_chain, aic, forcing_chain.

Technique write-ups: HoDoKu "Coloring" (tech_col.php), "Chains and Loops"
(tech_chains.php) and "Forcing Chains" (tech_fc.php); SudokuWiki "Simple
Colouring", "X-Cycles", "XY-Chains", "Alternating Inference Chains".

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

from .board import Board, conjugate_pairs
from .grid import HOUSES, PEER_BITS, PEERS, cell_name, digits_of, set_bits
from .steps import Step


def _union(table: list[int], nodes: int) -> int:
    """OR of table[n] over the set bits n of `nodes` (one layer of a breadth-first chain search)."""
    out = 0
    while nodes:
        low = nodes & -nodes
        out |= table[low.bit_length() - 1]
        nodes ^= low
    return out


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
    """

    def __init__(self, board: Board):
        cands = board.candidates
        self.nodes = 0
        self.strong_house = [0] * 729
        self.strong_cell = [0] * 729
        self.weak_house = [0] * 729
        self.weak_cell = [0] * 729
        for cell in range(81):
            mask = cands[cell]
            if not mask:
                continue
            digits = digits_of(mask)
            cell_nodes = sum(1 << (cell * 9 + d - 1) for d in digits)
            self.nodes |= cell_nodes
            for d in digits:
                n = cell * 9 + d - 1
                self.weak_cell[n] = cell_nodes & ~(1 << n)
                if len(digits) == 2:
                    self.strong_cell[n] = self.weak_cell[n]
                bit = 1 << (d - 1)
                w = 0
                for p in PEERS[cell]:
                    if cands[p] & bit:
                        w |= 1 << (p * 9 + d - 1)
                self.weak_house[n] = w
        for d in range(1, 10):
            for _, a, b in conjugate_pairs(board, d):
                na, nb = a * 9 + d - 1, b * 9 + d - 1
                self.strong_house[na] |= 1 << nb
                self.strong_house[nb] |= 1 << na


#: Link families allowed in each chain type: (strong via house, strong via cell, weak via house, weak via cell).
CHAIN_KINDS = {
    "x_chain": (True, False, True, False),
    "xy_chain": (False, True, True, False),
    "aic": (True, True, True, True),
}


def _links(graph: LinkGraph, kind: str) -> tuple[list[int], list[int]]:
    """Per node, bitsets of (strong, weak) neighbours using only the link families of `kind`."""
    sh, sc, wh, wc = CHAIN_KINDS[kind]
    strong = [(a if sh else 0) | (b if sc else 0) for a, b in zip(graph.strong_house, graph.strong_cell)]
    weak = [(a if wh else 0) | (b if wc else 0) for a, b in zip(graph.weak_house, graph.weak_cell)]
    return strong, weak


def _chain_layers(start: int, strong: list[int], weak: list[int], max_layers: int) -> list[int]:
    """Layers of the alternating search from `start` assumed false.

    Layer 0 is {start} (false); odd layers are forced true (reached by a
    strong link), even layers forced false (reached by a weak link).
    """
    layers = [1 << start]
    seen_true, seen_false = 0, 1 << start
    frontier = 1 << start
    for depth in range(1, max_layers):
        nxt = _union(strong if depth % 2 else weak, frontier)
        if depth % 2:
            nxt &= ~seen_true
            seen_true |= nxt
        else:
            nxt &= ~seen_false
            seen_false |= nxt
        if not nxt:
            break
        layers.append(nxt)
        frontier = nxt
    return layers


def _trace(layers: list[int], end_layer: int, end: int, strong: list[int], weak: list[int]) -> list[int]:
    """One chain start -> ... -> end through the layers (end in layer `end_layer`)."""
    chain = [end]
    node = end
    for depth in range(end_layer, 0, -1):
        table = strong if depth % 2 else weak
        prev = next(p for p in set_bits(layers[depth - 1]) if table[p] >> node & 1)
        chain.append(prev)
        node = prev
    return chain[::-1]


def _chain_text(chain: list[int]) -> str:
    parts = [node_name(chain[0])]
    for i, n in enumerate(chain[1:]):
        parts.append(("=" if i % 2 == 0 else "-") + node_name(n))
    return " ".join(parts)


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
    graph = board.cached("links", LinkGraph)
    strong, weak = _links(graph, kind)
    weak_any = _links(graph, "aic")[1]
    starts = [n for n in set_bits(graph.nodes) if strong[n]]
    for limit in (5, max_length):
        best = None  # (eliminations, -depth, start, end, layers)
        for start in starts:
            layers = _chain_layers(start, strong, weak, limit + 1)
            victims_of_start = weak_any[start]
            for depth in range(3, len(layers), 2):
                for end in set_bits(layers[depth]):
                    if end == start:
                        continue
                    victims = victims_of_start & weak_any[end] & ~(1 << end)
                    closes = kind == "aic" and weak_any[end] >> start & 1
                    if not victims and not closes:
                        continue
                    chain = _trace(layers, depth, end, strong, weak)
                    if closes:
                        victims = _loop_victims(chain, graph)
                    if not victims or (best is not None and (victims.bit_count(), -depth) <= best[:3:2]):
                        continue
                    if len(set(c // 9 for c in chain)) < 2:
                        continue
                    best = (victims.bit_count(), bool(closes), -depth, victims, chain)
        if best is None:
            continue
        _, loop, _, victims, chain = best
        start, end = chain[0], chain[-1]
        elims = tuple((v // 9, v % 9 + 1) for v in set_bits(victims))
        removed = f"so {', '.join(node_name(v) for v in set_bits(victims))} {'is' if len(elims) == 1 else 'are'} false"
        if loop:
            yield Step("continuous_nice_loop", eliminations=elims, cells=tuple(dict.fromkeys(n // 9 for n in chain)),
                       text=f"Continuous Nice Loop: {_chain_text(chain)} - {node_name(start)}; every link holds "
                            f"both ways, {removed}",
                       extra={"chain": tuple(chain)})
            return
        title = {"x_chain": "X-Chain", "xy_chain": "XY-Chain", "aic": "AIC"}[kind]
        yield Step(kind, eliminations=elims, cells=tuple(dict.fromkeys(n // 9 for n in chain)),
                   text=f"{title}: {_chain_text(chain)}; {node_name(start)} or {node_name(end)} is true, {removed}",
                   extra={"chain": tuple(chain)})
        return


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


def _clusters(cells, adjacency: dict[int, list[int]]) -> Iterator[dict[int, int]]:
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


def find_simple_colors(board: Board) -> Iterator[Step]:
    """Two-colour each cluster of conjugate pairs on one digit; a wrap or a trap eliminates."""
    cands = board.candidates
    for d in range(1, 10):
        bit = 1 << (d - 1)
        adjacency: dict[int, list[int]] = {}
        for _, a, b in conjugate_pairs(board, d):
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
        for colour in _clusters(sorted(adjacency), adjacency):
            if len(colour) < 4:
                continue
            groups = [[c for c in colour if colour[c] == k] for k in (0, 1)]
            cluster = tuple(sorted(colour))
            for k in (0, 1):  # wrap: two cells of one colour see each other
                g = groups[k]
                if any(b in PEERS[a] for i, a in enumerate(g) for b in g[i + 1:]):
                    yield Step("simple_colors", eliminations=tuple((c, d) for c in sorted(g)), cells=cluster,
                               text=f"Simple Colors (wrap): two cells of one colour for {d} see each other, so "
                                    f"{d} leaves {', '.join(cell_name(c) for c in sorted(g))}")
                    return
            peers0 = set().union(*(PEERS[c] for c in groups[0]))
            peers1 = set().union(*(PEERS[c] for c in groups[1]))
            trapped = sorted(c for c in (peers0 & peers1) - set(colour) if cands[c] & bit)
            if trapped:
                yield Step("simple_colors", eliminations=tuple((c, d) for c in trapped), cells=cluster,
                           text=f"Simple Colors (trap): {', '.join(cell_name(c) for c in trapped)} see both colours "
                                f"of the {d} cluster, and one colour is {d}")
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
    for d in range(1, 10):
        adjacency: dict[int, list[int]] = {}
        for _, a, b in conjugate_pairs(board, d):
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
        clusters = []
        for colour in _clusters(sorted(adjacency), adjacency):
            groups = [sorted(c for c in colour if colour[c] == k) for k in (0, 1)]
            bits = [sum(1 << c for c in g) for g in groups]  # each colour's cells as an 81-bit set
            sight = [0, 0]  # cells that see a cell of each colour
            for k in (0, 1):
                for c in groups[k]:
                    sight[k] |= PEER_BITS[c]
            clusters.append((groups, bits, sight, bits[0] | bits[1]))
        digit_cells = board.digit_cells(d)
        for i, (g1, bits1, s1, members1) in enumerate(clusters):
            for j, (g2, bits2, s2, members2) in enumerate(clusters):
                if i == j:
                    continue
                for x in (0, 1):
                    # Type 1: colour x of cluster 1 sees both colours of cluster 2.
                    if s2[0] & bits1[x] and s2[1] & bits1[x]:
                        yield Step("multi_colors", eliminations=tuple((c, d) for c in g1[x]),
                                   cells=tuple(sorted(g1[0] + g1[1] + g2[0] + g2[1])),
                                   text=f"Multi-Colors (type 1): {', '.join(cell_name(c) for c in g1[x])} see both "
                                        f"colours of another {d} cluster, so none of them is {d}")
                        return
                    if j < i:
                        continue
                    for y in (0, 1):
                        # Type 2: colour x of cluster 1 sees colour y of cluster 2.
                        if not s1[x] & bits2[y]:
                            continue
                        targets = s1[1 - x] & s2[1 - y] & digit_cells & ~members1 & ~members2
                        if targets:
                            elims = tuple((c, d) for c in range(81) if targets >> c & 1)
                            yield Step("multi_colors", eliminations=elims,
                                       cells=tuple(sorted(g1[0] + g1[1] + g2[0] + g2[1])),
                                       text=f"Multi-Colors (type 2): a {d} of one colour sees a {d} of a colour of "
                                            f"another cluster, so one of their opposite colours holds {d}: "
                                            f"{', '.join(cell_name(c) for c, _ in elims)} lose it")
                            return


def find_remote_pair(board: Board) -> Iterator[Step]:
    """A chain of bivalue cells with the same two digits, each seeing the next: the digits alternate along it,
    so a cell that sees two chain cells an odd number of links apart loses both digits.

    HoDoKu "Remote Pair" (tech_chains.php); at least four cells (two are a naked pair).
    """
    cands = board.candidates
    by_pair: dict[int, list[int]] = {}
    for c in range(81):
        if cands[c].bit_count() == 2:
            by_pair.setdefault(cands[c], []).append(c)
    for mask, cells in by_pair.items():
        if len(cells) < 4:
            continue
        members = set(cells)
        adjacency = {c: [o for o in PEERS[c] if o in members] for c in cells}
        for colour in _clusters(cells, adjacency):
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
                           text=f"Remote Pair: {x}/{y} alternate along {', '.join(cell_name(c) for c in chain)}; "
                                f"cells seeing both kinds lose {x} and {y}")


def _implications(node: int, graph: LinkGraph, strong: list[int], weak: list[int]) -> tuple[int, int]:
    """(true set, false set) that follow by chains from assuming `node` true."""
    true, false = 1 << node, 0
    frontier_true, frontier_false = true, 0
    while frontier_true or frontier_false:
        new_false = _union(weak, frontier_true) & ~false
        false |= new_false
        new_true = _union(strong, new_false) & ~true
        true |= new_true
        frontier_true, frontier_false = new_true, new_false
        if true & false:
            break
    return true, false


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
                groups.append((f"each place for {d} in {('row', 'column', 'box')[h // 9]} {h % 9 + 1}", nodes))
    return groups


def _common_consequences(technique: str, groups, implied) -> Iterator[Step]:
    """A step from what every premise of a group implies: a common true node, or common false ones."""
    title = technique.replace("_", " ").title()
    for label, nodes in groups:
        common_true = common_false = (1 << 729) - 1
        for n in nodes:
            t, f = implied(n)[:2]
            common_true &= t
            common_false &= f
            if not common_true and not common_false:
                break
        common_true &= ~sum(1 << n for n in nodes)
        if common_true:
            p = set_bits(common_true)[0]
            yield Step(technique, placements=((p // 9, p % 9 + 1),), cells=tuple(n // 9 for n in nodes),
                       text=f"{title}: {label} leads to {node_name(p)}, so it is true")
            return
        if common_false:
            elims = tuple((v // 9, v % 9 + 1) for v in set_bits(common_false))
            yield Step(technique, eliminations=elims, cells=tuple(n // 9 for n in nodes),
                       text=f"{title}: {label} rules out {', '.join(node_name(v) for v in set_bits(common_false))}")
            return


def find_forcing_chain(board: Board) -> Iterator[Step]:
    """Cell and digit forcing chains, and contradictions, as the last logical resort.

    Each candidate of a cell (or each place for a digit in a house) is assumed
    true in turn and followed by chains; whatever all assumptions agree on is
    proved. An assumption that makes a candidate both true and false is itself
    false.
    """
    graph = board.cached("links", LinkGraph)
    strong, weak = _links(graph, "aic")
    cache: dict[int, tuple[int, int]] = {}

    def implied(n: int) -> tuple[int, int]:
        if n not in cache:
            cache[n] = _implications(n, graph, strong, weak)
        return cache[n]

    for n in set_bits(graph.nodes):
        t, f = implied(n)
        if t & f:
            clash = set_bits(t & f)[0]
            yield Step("forcing_chain", eliminations=((n // 9, n % 9 + 1),), cells=(n // 9,),
                       text=f"Forcing Chain (contradiction): if {node_name(n)} were true, {node_name(clash)} would be "
                            f"both true and false, so {node_name(n)} is false")
            return
    yield from _common_consequences("forcing_chain", _forcing_groups(board), implied)


def _net_implications(board: Board, node: int) -> tuple[int, int, bool]:
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
                    return true, false, True
                continue
            bit = 1 << (d - 1)
            if not cands[cell] & bit:
                return true, false, True
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
                        return true, false, True
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
                return true, false, True  # a digit with no place left in this house
            singles = once & ~twice & ~placed
            for d in set_bits(singles):
                bit = 1 << d
                queue.append(next(c for c in house if cands[c] & bit) * 9 + d)
        if not queue:
            return true, false, False


def find_forcing_net(board: Board) -> Iterator[Step]:
    """Forcing nets: like `find_forcing_chain`, but each assumption is followed by singles, not just chains."""
    cache: dict[int, tuple[int, int, bool]] = {}

    def implied(n: int) -> tuple[int, int, bool]:
        if n not in cache:
            cache[n] = _net_implications(board, n)
        return cache[n]

    groups = _forcing_groups(board)
    # Contradictions first, trying candidates of cells with the fewest candidates first.
    for _, nodes in sorted(groups[: sum(1 for c in board.candidates if c)], key=lambda g: len(g[1])):
        for n in nodes:
            if implied(n)[2]:
                yield Step("forcing_net", eliminations=((n // 9, n % 9 + 1),), cells=(n // 9,),
                           text=f"Forcing Net (contradiction): assuming {node_name(n)} and following singles "
                                f"breaks the grid, so {node_name(n)} is false")
                return
    yield from _common_consequences("forcing_net", groups, implied)
