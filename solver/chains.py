"""The chain search: remote_pair, x_chain, xy_chain, aic, continuous and discontinuous nice loops.

Technique write-ups: HoDoKu "Chains and Loops" (tech_chains.php); SudokuWiki
"Remote Pairs", "X-Cycles", "XY-Chains", "Alternating Inference Chains".
The nodes, the strong and weak links and the node space each chain type is
searched in are in `links`; colouring is in `coloring`, grouped chains in
`grouped`, forcing chains and nets in `forcing`.

An alternating inference chain starts at S with a strong link and alternates
weak and strong links; if S is false its end E is true, so S or E is true and
any candidate weakly linked to both is false. The search below assumes S false,
grows layers of forced-true and forced-false nodes breadth first (so every
chain it reports is a shortest one from S, and none comes back to a cell it has
left); of the chains from every start, the one HoDoKu would take is reported
(`outranks`: most eliminations first). S itself coming back true is a
discontinuous nice loop: S is true. Restricting the links gives the
simpler chain types, each searched in its own smaller node space: one digit only
is an X-Chain (`links.DigitGraph`); strong links inside bivalue cells and weak
links between cells on one digit is an XY-Chain (`links.BivalueGraph`).

Where the shortest chain to an end comes back to a cell it has left, a
bounded depth-first search looks for a simple one (`SIMPLE_CHAIN_BUDGET` nodes
expanded). A search that runs out of that budget gives up on that end; it is
counted (`links.ChainSpace.exhausted`, summed per solve in
`Board.budget_exhausted`), never silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from .board import ALL_CELLS, Board
from .grid import PEER_BITS, digits_of, set_bits
from .links import (
    DIGIT_NODES,
    BivalueGraph,
    ChainSpace,
    DigitGraph,
    StrongGraph,
    node_cells,
    swap_pairs,
    to_nodes,
)
from .steps import Step
from .techniques import Technique


def chain_layers(space: ChainSpace, start: int, max_layers: int, first_weak: bool = False) -> list[int]:
    """Layers of the alternating search from `start` assumed false, in a chain finder's node space `space`
    (`links.DigitGraph`'s cells, `links.BivalueGraph`'s or `links.StrongGraph`'s nodes), made of nodes with
    a strong link only, so that every node of a layer is followed: layer 0 is {start} (false), odd layers
    are forced true (reached by a strong link), even layers forced false (reached by a weak link), each
    holding only nodes not in an earlier layer of its parity; up to `max_layers` of them (fewer when the
    search ends). A `paired` space's strong links (the two digits of a bivalue cell) are followed for a
    whole layer at once. With `first_weak`, `start` is assumed true instead: layer 1 is what it rules out,
    and the parities swap (odd layers false, even layers true). Source: HoDoKu's tabling search
    (TablingSolver), breadth first."""
    strong = None if space.paired else space.strong
    weak, universe = space.weak, space.universe
    true = 1 << start  # the nodes of the last layer, then of the next one
    layers = [true]
    unseen_true = universe  # the complement of the true layers so far
    unseen_false = universe ^ true  # and of the false ones
    if first_weak:
        false = weak[start] & universe
        if not false:
            return layers
        layers.append(false)
        unseen_true, unseen_false = universe ^ true, universe ^ false
    while len(layers) < max_layers:  # one strong step to a true layer, then one weak step to a false one
        false = layers[-1]
        if strong is None:
            true = swap_pairs(false) & unseen_true
        else:
            true = 0
            while false:  # union_of, inline: this loop is the search's hot spot
                n = false.bit_length() - 1
                true |= strong[n]
                false ^= 1 << n
            true &= unseen_true
        if not true:
            break
        unseen_true ^= true
        layers.append(true)
        if len(layers) == max_layers:
            break
        false = 0
        while true:
            n = true.bit_length() - 1
            false |= weak[n]
            true ^= 1 << n
        false &= unseen_false
        if not false:
            break
        unseen_false ^= false
        layers.append(false)
    return layers


def trace_chain(space: ChainSpace, layers: list[int], end_layer: int, end: int, first_weak: bool = False) -> list[int]:
    """One chain start -> ... -> end through the `layers` of `chain_layers` in `space` (end in layer
    `end_layer`; `first_weak` as there): each node's predecessor is the lowest node of the layer before that
    links to it (links are symmetric, so that is the lowest node of the layer among the node's own
    neighbours)."""
    strong, weak = space.strong, space.weak
    chain = [end]
    node = end
    for depth in range(end_layer, 0, -1):
        table = strong if (depth + first_weak) % 2 else weak
        linked = table[node] & layers[depth - 1]
        node = (linked & -linked).bit_length() - 1
        chain.append(node)
    return chain[::-1]


class ChainFound(NamedTuple):
    """A chain the search found, with what it eliminates.

    Attributes
    ----------
    technique : str
        ``x_chain``, ``xy_chain``, ``aic``, ``continuous_nice_loop`` (the chain closes into a loop whose every
        link holds both ways) or ``discontinuous_nice_loop`` (the chain leads from its start, assumed false,
        back to its start, true: the start is true).
    length : int
        Number of links from start to end (odd).
    victims : int
        The eliminated candidates as a 729-bit node set.
    chain : list of int
        Nodes (``cell * 9 + digit - 1``) from start to end.
    first_weak : bool
        True when the start is assumed true and the chain leaves it by a weak link (a discontinuous nice loop
        that proves its start false); False when the start is assumed false (links strong, weak, ...).
    """

    technique: str
    length: int
    victims: int
    chain: list[int]
    first_weak: bool = False

    def beats(self, other: ChainFound | None) -> bool:
        """Ranks above `other` (`outranks`)."""
        return outranks(self.victims, self.length, other)


def outranks(victims: int, length: int, other: ChainFound | None) -> bool:
    """Would a chain of `length` links that removes `victims` (a 729-bit node set) be preferred to `other`?
    HoDoKu's order of chain steps: more eliminations; among as many, the smaller `index_sum` of the
    eliminations; among the same eliminations, fewer links. Source: HoDoKu's SolutionStep.compareTo
    (hodoku-py ``_tabling_sort_cmp``, ``_step_sort_key``)."""
    if other is None:
        return True
    count, other_count = victims.bit_count(), other.victims.bit_count()
    if count != other_count:
        return count > other_count
    if victims == other.victims:
        return length < other.length
    return index_sum(victims) < index_sum(other.victims)


def index_sum(victims: int) -> int:
    """HoDoKu's getIndexSumme of a set of candidates (a 729-bit node set): sorted by digit, then cell, the k-th
    (from 0) adds ``cell * (1 + 80 k) + digit``. It orders steps that remove as many candidates."""
    total = 0
    weight = 1
    for d in range(9):
        nodes = victims >> d
        for n in set_bits(nodes & DIGIT_NODES):
            total += n // 9 * weight + d + 1
            weight += 80
    return total


#: Most links in a chain of each kind: HoDoKu's ChainSolver stops X-Chains and XY-Chains at 20 nodes (19
#: links); its tabling search sets AICs no such bound, here 21 links.
MAX_LINKS = {"x_chain": 19, "xy_chain": 19, "aic": 21}


def find_chain(board: Board, kind: str, max_length: int | None = None) -> Iterator[Step]:
    """The alternating chain of one kind (``x_chain``, ``xy_chain`` or ``aic``) that HoDoKu would take.

    As HoDoKu's chain finders do, every start is searched and the chain that
    ranks first by `outranks` is reported (most eliminations); for each start
    and end only the shortest chain counts.

    Parameters
    ----------
    board : Board
    kind : str
        ``"x_chain"``, ``"xy_chain"`` or ``"aic"``.
    max_length : int, optional
        Most links in a chain (odd: it starts and ends with a strong link); by default `MAX_LINKS` of the kind.

    Yields
    ------
    Step
        At most one: a chain of at least three links, of any length up to
        `max_length` (a long chain that eliminates more beats a short one, as
        HoDoKu sorts its chain steps).
    """
    max_length = max_length or MAX_LINKS[kind]
    if kind == "aic":
        best = _best_aic(StrongGraph.of(board), board, max_length)
    elif kind == "x_chain":
        best = _best_x_chain(board, max_length)
    else:
        best = _best_xy_chain(BivalueGraph.of(board), board, max_length)
    if best is not None:
        yield chain_step(best)


def chain_step(found: ChainFound, groups: Sequence[tuple[int, int]] = ()) -> Step:
    """The step of a chain a finder found: its eliminations, the cells on it (in chain order) and a text that
    reads the chain (``=`` a strong link, ``-`` a weak one) and says why its victims go. `groups` names the
    group nodes a grouped chain may hold (`grouped.group_links`)."""
    chain, victims = found.chain, found.victims
    cells = []
    nodes = []
    for n in chain:
        in_node = set_bits(node_cells(n, groups))
        cells += in_node
        nodes.append((n % 9 + 1 if n < 729 else groups[n - 729][0], tuple(in_node)))
    return Step(
        Technique(found.technique),
        eliminations=tuple((v // 9, v % 9 + 1) for v in set_bits(victims)),
        cells=tuple(dict.fromkeys(cells)),
        chain=tuple(nodes),
        variant="first link weak" if found.first_weak else "",
    )


def _best_x_chain(board: Board, max_length: int) -> ChainFound | None:
    """The X-Chain of up to `max_length` links that ranks first by `outranks` (None when there is none).

    One digit's chains depend on that digit's cells only: each digit's best is memoised on them, and the best
    over digits is the one the search over all starts would keep (ties: the earlier start)."""
    best: ChainFound | None = None
    for d in range(1, 10):
        key = (d, board.digit_cells(d), max_length)
        table = board.memo[_best_digit_x_chain]  # per solve: (digit, its cells, max length) -> its best, or None
        if key in table:
            found = table[key]
        else:
            graph = DigitGraph.of(board, d)
            space = graph.space()
            found = table[key] = _best_digit_x_chain(graph, space, max_length)
            board.budget_exhausted += space.exhausted
        if found is not None and (
            found.beats(best) or (best is not None and not best.beats(found) and found.chain[0] < best.chain[0])
        ):
            best = found
    return best


def _best_digit_x_chain(graph: DigitGraph, space: ChainSpace, max_length: int) -> ChainFound | None:
    """The best X-Chain of one digit, ranked by `outranks`, searched in cell space: the chain of 3 to
    `max_length` links from one of the digit's conjugate-pair cells that ranks first (per start and end the
    shortest chain that does not come back to a cell; among chains that rank alike, the earlier start). The
    victims of a chain are the cells with the digit that see both ends. `space` is the graph's
    (`DigitGraph.space`); searches that run out of budget are counted on it."""
    d, cells, starts = graph.digit, graph.cells, graph.starts
    best: ChainFound | None = None
    for start in starts:
        layers = chain_layers(space, start, max_length + 1)
        seen_by_start = PEER_BITS[start] & cells
        other_ends = ~(1 << start)
        for depth in range(3, len(layers), 2):
            ends = layers[depth] & other_ends
            if not ends:
                continue
            for end in set_bits(ends):
                victims = seen_by_start & PEER_BITS[end]
                if not victims:
                    continue
                victims = to_nodes(victims) << (d - 1)
                if not outranks(victims, depth, best):
                    continue
                path, depth = _simple_path(
                    space, layers, end, depth, max_length=max_length, wins=_outranking(victims, best)
                )
                if path is None:
                    continue
                chain = [c * 9 + d - 1 for c in path]
                found = ChainFound("x_chain", depth, victims, chain)
                if not found.beats(best):
                    continue
                best = found
    return best


def _best_xy_chain(graph: BivalueGraph, board: Board, max_length: int) -> ChainFound | None:
    """The best XY-Chain, ranked by `outranks`, searched in the `links.BivalueGraph` space: the chain of 3 to
    `max_length` links from one of the bivalue cells' candidates that eliminates the most (per start and end
    the shortest chain; among chains that rank alike, the earlier start).

    As in HoDoKu (ChainSolver), an XY-Chain ends on the digit it starts with, a in cell C and a in cell E,
    and its victims are the a of the cells that see both C and E; a chain of bivalue cells whose ends hold
    different digits is left to the AIC finder (`find_aic`), which comes later in the ladder. Searches that
    run out of budget are added to `board.budget_exhausted`."""
    nodes, with_digit = graph.nodes, graph.with_digit
    space = graph.space()
    best: ChainFound | None = None
    for start, start_node in enumerate(nodes):
        cell, a = divmod(start_node, 9)
        seen_with_a = PEER_BITS[cell] & board.digit_cells(a + 1)
        ends = with_digit[a + 1] & ~(1 << start)
        if not seen_with_a or not ends:
            continue
        layers = chain_layers(space, start, max_length + 1)
        for depth in range(3, len(layers), 2):
            hit = layers[depth] & ends
            if not hit:
                continue
            for end in set_bits(hit):
                victims = to_nodes(seen_with_a & PEER_BITS[nodes[end] // 9]) << a
                if not victims or not outranks(victims, depth, best):
                    continue
                path, depth = _simple_path(
                    space, layers, end, depth, max_length=max_length, wins=_outranking(victims, best)
                )
                if path is None:
                    continue
                chain = [nodes[i] for i in path]
                found = ChainFound("xy_chain", depth, victims, chain)
                if not found.beats(best):
                    continue
                best = found
    board.budget_exhausted += space.exhausted
    return best


def _best_aic(graph: StrongGraph, board: Board, max_length: int) -> ChainFound | None:
    """The AIC or nice loop of 3 to `max_length` links that ranks first by `outranks` (per start and end the
    shortest chain; among chains that rank alike, the earlier start), searched in the `links.StrongGraph` space.

    A chain from digit a in cell C (assumed false) to digit b in cell E (then true) is a continuous nice loop
    when E's candidate is weakly linked to the start (C == E is such a loop); a discontinuous nice loop when
    it ends at its own start (a in C is true: C's other digits go); otherwise its victims are the candidates
    weakly linked to both ends: when a == b, the a of the cells that see both C and E; otherwise, when C and
    E see each other, b in C and a in E (those that are there). Only those ends are looked at. As in HoDoKu
    (TablingSolver.addChain), a chain that leaves a cell and comes back to it later is not taken, but for a
    loop's start cell. Searches that run out of budget are added to `board.budget_exhausted`."""
    nodes, weak, with_digit = graph.nodes, graph.weak, graph.with_digit
    in_cells_with, in_peers = graph.in_cells_with, graph.in_peers
    space = graph.space()
    cands = board.candidates
    best: ChainFound | None = None
    for start, start_node in enumerate(nodes):
        layers = chain_layers(space, start, max_length + 1)
        cell, a = divmod(start_node, 9)
        sight = PEER_BITS[cell]
        seen_with_a = sight & board.digit_cells(a + 1)
        loop_ends = weak[start]
        with_a = with_digit[a + 1]
        crossing = 0  # the ends of other digits b in cells that see C, where C has b or the end's cell has a
        for b in digits_of(cands[cell]):
            crossing |= with_digit[b]
        crossing = in_peers[cell] & (crossing | in_cells_with[a + 1]) & ~with_a
        ends = loop_ends | with_a | crossing  # the start itself among them: a discontinuous nice loop
        for depth in range(3, len(layers), 2):
            hit = layers[depth] & ends
            if not hit:
                continue
            for end in set_bits(hit):
                closes = loop_ends >> end & 1 or end == start
                if end == start or not closes:  # ranks by its victims and length: no trace needed
                    victims = end_victims(board, start_node, nodes[end], seen_with_a, discontinuous=end == start)
                    if not victims or not outranks(victims, depth, best):
                        continue
                path = trace_lasso_free_chain(space, layers, depth, end, closed=bool(closes))
                if path is None:
                    continue
                chain = [nodes[i] for i in path]
                if end == start:
                    technique = "discontinuous_nice_loop"
                elif closes:
                    technique = "continuous_nice_loop"
                    victims = loop_victims(chain, board)
                    if not victims:
                        continue
                else:
                    technique = "aic"
                found = ChainFound(technique, depth, victims, chain)
                if not found.beats(best):
                    continue
                best = found
    board.budget_exhausted += space.exhausted
    return best


def end_victims(board: Board, start: int, end: int, seen_with_a: int, *, discontinuous: bool) -> int:
    """The victims (candidate ids as a 729-bit set) of a chain from candidate `start`, digit a + 1 in `cell`,
    assumed false, to candidate `end`, digit b + 1 in `end_cell`, then true, that is not a continuous loop
    (`seen_with_a`: the cells that see `cell` and have digit a + 1; `discontinuous`: `end` is `start`). A
    discontinuous nice loop (it comes back to its own start, which is then true) removes the cell's other
    digits; an AIC removes the candidates weakly linked to both ends: when a == b, digit a + 1 in the cells
    that see both cells, otherwise, when the cells see each other, b + 1 in `cell` and a + 1 in `end_cell`
    (those that are there); none else. Source: HoDoKu "Nice Loops" and "AIC"
    (tech_chains.php)."""
    cell, a = divmod(start, 9)
    end_cell, b = divmod(end, 9)
    cands = board.candidates
    if discontinuous:
        return (cands[cell] & ~(1 << a)) << 9 * cell
    if a == b:
        return to_nodes(seen_with_a & PEER_BITS[end_cell]) << a
    if PEER_BITS[cell] >> end_cell & 1:
        return (cands[cell] >> b & 1) << (cell * 9 + b) | (cands[end_cell] >> a & 1) << (end_cell * 9 + a)
    return 0


#: Most nodes `_simple_chain` or `trace_simple_chain` expands for one pair of ends (a pathological graph gives
#: up, not hangs); a search that runs out of it is counted in `ChainSpace.exhausted`.
SIMPLE_CHAIN_BUDGET = 20000


def _outranking(victims: int, best: ChainFound | None) -> Callable[[int], bool]:
    """Whether a chain of a given number of links that removes `victims` would outrank `best` (`outranks`)."""
    return lambda length: outranks(victims, length, best)


def _simple_path(
    space: ChainSpace, layers: list[int], end: int, links: int, *, max_length: int, wins: Callable[[int], bool]
) -> tuple[list[int] | None, int]:
    """An X- or XY-Chain start -> end as (path, links), start the node of ``layers[0]``: the one of `links`
    links `trace_chain` reads from the layers, or, when that one is a lasso (`is_lasso`: HoDoKu's X- and
    XY-Chains never come back to a cell), the shortest simple one of at most `max_length` links for which
    `wins(links)` holds (`_simple_chain`); (None, 0) when there is none."""
    path = trace_chain(space, layers, links, end)
    if not is_lasso([space.cells_of[n] for n in path], False):
        return path, links
    start = layers[0].bit_length() - 1
    return _simple_chain(space, start, end, links, max_length=max_length, wins=wins)


def _simple_chain(
    space: ChainSpace, start: int, end: int, shortest: int, *, max_length: int, wins: Callable[[int], bool]
) -> tuple[list[int] | None, int]:
    """The shortest chain start -> end in `space` (strong link first, alternating) that never comes back to a
    cell it has left, of `shortest` to `max_length` links, tried while `wins(links)` holds (it would still
    outrank the best chain so far); (None, 0) when there is none. The breadth-first layers give one shortest
    chain per end, which may be a lasso; HoDoKu's X-Chains and XY-Chains are all the simple paths of a
    depth-first search (ChainSolver), so for a lasso this looks for the simple one by iterative deepening,
    expanding at most `SIMPLE_CHAIN_BUDGET` nodes: a search that runs out of them adds one to
    `space.exhausted`."""
    strong, weak, cells_of = space.strong, space.weak, space.cells_of
    budget = [SIMPLE_CHAIN_BUDGET]
    path = [start]

    def walk(node: int, links: int, length: int, used: int) -> bool:
        if links == length:
            return node == end
        budget[0] -= 1
        if budget[0] < 0:
            return False
        here = cells_of[node]
        step = strong[node] if links % 2 == 0 else weak[node]
        if links + 1 == length:
            step &= 1 << end
        for n in set_bits(step):
            cell = cells_of[n]
            if cell != here and used & cell:
                continue
            path.append(n)
            if walk(n, links + 1, length, used | cell):
                return True
            path.pop()
        return False

    found: tuple[list[int] | None, int] = (None, 0)
    for length in range(shortest, max_length + 1, 2):
        if not wins(length):
            break
        if walk(start, 0, length, cells_of[start]):
            found = path, length
            break
        if budget[0] < 0:
            break
    if budget[0] < 0:
        space.exhausted += 1
    return found


def trace_lasso_free_chain(
    space: ChainSpace, layers: list[int], end_layer: int, end: int, *, closed: bool, first_weak: bool = False
) -> list[int] | None:
    """`trace_chain`, or when its chain is a lasso (`is_lasso`), `trace_simple_chain`: a chain to `end` that
    never comes back to a cell it has left, or None when the layers hold none (or none was found within
    `SIMPLE_CHAIN_BUDGET`, counted in `space.exhausted`). `closed`: the chain is a loop, whose end may
    come back to its start cell."""
    path = trace_chain(space, layers, end_layer, end, first_weak)
    if is_lasso([space.cells_of[n] for n in path], closed):
        return trace_simple_chain(space, layers, end_layer, end, closed=closed, first_weak=first_weak)
    return path


def trace_simple_chain(
    space: ChainSpace, layers: list[int], end_layer: int, end: int, *, closed: bool, first_weak: bool = False
) -> list[int] | None:
    """Like `trace_chain`, one chain start -> ... -> end through the layers, but one that is no lasso
    (`is_lasso`): predecessors are tried lowest first and the walk back goes on only through cells it has not
    left (a bounded depth-first search over the layers; None when there is none within
    `SIMPLE_CHAIN_BUDGET` nodes). A walk that runs out of that budget adds one to `space.exhausted`.
    Source: HoDoKu's TablingSolver.addChain, which drops lassos."""
    strong, weak, cells_of = space.strong, space.weak, space.cells_of
    budget = [SIMPLE_CHAIN_BUDGET]
    start_cells = cells_of[layers[0].bit_length() - 1] if closed else 0  # a loop's end may share them
    back = [end]

    def walk(node: int, depth: int, used: int) -> bool:
        if depth == 0:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        here = cells_of[node]
        table = strong if (depth + first_weak) % 2 else weak
        for n in set_bits(table[node] & layers[depth - 1]):
            cells = cells_of[n]
            if cells != here and used & cells & -cells and not (depth == 1 and cells == start_cells):
                continue
            back.append(n)
            if walk(n, depth - 1, used | cells):
                return True
            back.pop()
        return False

    found = walk(end, end_layer, cells_of[end])
    if budget[0] < 0:
        space.exhausted += 1
    return back[::-1] if found else None


def is_lasso(cells: list[int], closed: bool) -> bool:
    """True when a chain whose nodes lie in `cells` (one 81-bit cell set per node, in order) leaves a cell and
    later comes back to it (links inside one cell are no return); the end of a `closed` loop may come back
    to its start cell. A group node (several cells) comes back when its first cell was left before, and
    leaves all its cells. Source: HoDoKu, TablingSolver.addChain (hodoku-py ``_add_chain``)."""
    seen = 0
    last = -1
    for k, here in enumerate(cells):
        if here == last:
            continue
        if seen & here & -here and not (closed and here == cells[0] and k == len(cells) - 1):
            return True
        seen |= here
        last = here
    return False


def loop_victims(chain: list[int], board: Board, groups: Sequence[tuple[int, int]] = ()) -> int:
    """Candidates removed by a continuous loop (`chain` closed by a weak link from its end to its start), as a
    729-bit node set; the chain may hold group nodes (`groups` as for `node_name`).

    Around such a loop exactly one node of every linked pair is true (the
    even nodes or the odd ones), so each pair acts as a conjugate pair:
    other candidates of a shared cell go, and the shared digit leaves cells
    that see every cell of both, but for the cells on the loop (HoDoKu leaves
    those alone). Source: HoDoKu "Nice Loops" (tech_chains.php),
    TablingSolver.checkNiceLoop.
    """
    if len(set(chain)) != len(chain):
        return 0  # a node both true and false: only a broken board gives such a loop
    cands = board.candidates
    off_loop = ALL_CELLS
    for n in chain:
        off_loop &= ~node_cells(n, groups)
    victims = 0
    for u, v in zip(chain, chain[1:] + chain[:1]):
        du = u % 9 if u < 729 else groups[u - 729][0] - 1
        dv = v % 9 if v < 729 else groups[v - 729][0] - 1
        cu, cv = node_cells(u, groups), node_cells(v, groups)
        if u < 729 and v < 729 and cu == cv:
            cell = u // 9
            victims |= cands[cell] << 9 * cell & ~(1 << u | 1 << v)
        elif du == dv:
            sight = off_loop
            for c in set_bits(cu | cv):
                sight &= PEER_BITS[c]
            victims |= to_nodes(sight & board.digit_cells(du + 1)) << du
    for n in chain:
        if n < 729:
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

    HoDoKu "Remote Pair" (tech_chains.php); at least four cells (two are a naked pair). The cells of one
    pair are two-coloured cluster by cluster (connected through seeing each other) as 81-bit sets, breadth
    first from the cluster's lowest cell.
    """
    cands = board.candidates
    by_pair: dict[int, int] = {}  # per candidate mask, its bivalue cells
    for c in set_bits(board.bivalue_cells()):
        by_pair[cands[c]] = by_pair.get(cands[c], 0) | 1 << c
    for mask, cells in by_pair.items():
        if cells.bit_count() < 4:
            continue
        rest = cells
        while rest:
            frontier = cluster = rest & -rest
            colours = [frontier, 0]  # the cells of each colour
            sight = [0, 0]  # the cells that see a cell of each colour
            k = 0
            while frontier:
                seen = 0
                for c in set_bits(frontier):
                    seen |= PEER_BITS[c]
                sight[k] |= seen
                frontier = seen & cells & ~cluster
                k ^= 1
                colours[k] |= frontier
                cluster |= frontier
            rest &= ~cluster
            if cluster.bit_count() < 4 or sight[0] & colours[0] or sight[1] & colours[1]:
                continue  # too short, or two cells that must differ are forced equal (a broken board)
            elims = tuple(
                (c, d)
                for c in set_bits(sight[0] & sight[1] & ~cluster)
                for d in digits_of(mask)
                if cands[c] & (1 << (d - 1))
            )
            if elims:
                x, y = digits_of(mask)
                chain = set_bits(cluster)
                yield Step(Technique.REMOTE_PAIR, eliminations=elims, cells=tuple(chain), digits=(x, y))
