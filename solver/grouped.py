"""Group nodes, and the grouped nice loops and AICs that use them.

Technique write-up: HoDoKu "Grouped Nice Loops" (tech_chains.php); SudokuWiki
"Grouped X-Cycles". A group node is a digit's two or three candidates in one
segment (the cells a box shares with a line): it is true when the digit is in
one of those cells. It is weakly linked to the digit's other candidates (and
groups) that see all its cells, and strongly linked, in a house where the
digit's places are exactly two disjoint units (a cell or a group), to the
other unit. With these links, chains reach eliminations that chains of single
candidates cannot: HoDoKu's grouped continuous and discontinuous nice loops
and grouped AICs, tried right after the plain ones (`chains.find_aic`), with
their ends always single candidates. Forcing chains follow the same links
(`forcing`).

Nodes: candidate ``cell * 9 + digit - 1`` (0..728), then group node
``729 + k`` for the k-th group of `group_links`.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board
from .chains import (
    MAX_LINKS,
    ChainFound,
    chain_layers,
    chain_step,
    end_victims,
    loop_victims,
    outranks,
    trace_lasso_free_chain,
)
from .grid import HOUSE_BITS, HOUSES, PEER_BITS, SEGMENTS, set_bits
from .links import ALL_NODES, ChainSpace, board_links
from .steps import Step

#: Per segment of `grid.SEGMENTS` (in its order): its 81-bit cell set and the two houses that hold all of it.
_SEGMENT_BITS = [sum(1 << c for c in cells) for cells in SEGMENTS.values()]
_SEGMENT_HOUSES = [
    tuple(h for h, bits in enumerate(HOUSE_BITS) if bits & segment == segment) for segment in _SEGMENT_BITS
]


def group_links(board: Board, strong: list[int], weak: list[int]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
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
        (digit, 81-bit cell set), for group node 729 + index (`links.group_name`).
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
                for other, other_cells in groups[k + 1 :]:
                    if not cells & other_cells:
                        weak[node] |= 1 << other
                        weak[other] |= 1 << node
                        if cells | other_cells == house_places:
                            strong[node] |= 1 << other
                            strong[other] |= 1 << node
    return strong, weak, groups_found


def grouped_links(board: Board) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """`group_links` over all the board's links (`links.board_links`), built once per board state; callers
    must not change the lists."""
    return board.cached("grouped links", lambda b: group_links(b, *board_links(b)[1:]))


def find_grouped_aic(board: Board) -> Iterator[Step]:
    """The grouped nice loop or AIC that HoDoKu would take (`chains.outranks`), or nothing.

    The search of `chains.find_aic` in the space of all candidates and group nodes: from each candidate with
    a strong link, assumed false, layers of forced-true and forced-false nodes; a chain ends at a candidate
    (never a group) that is the start itself (a discontinuous nice loop: the start is true), weakly linked
    to the start (a continuous nice loop), or whose weak links with the start's share victims (an AIC). A
    chain through a group node is a grouped one (``grouped_aic``, ``grouped_continuous_nice_loop``,
    ``grouped_discontinuous_nice_loop``); one without is reported under its plain name (HoDoKu does the
    same), though the plain finder, earlier in the ladder, leaves few. Searches that run out of budget are
    added to `board.budget_exhausted`.
    """
    strong, weak, groups = grouped_links(board)
    space = ChainSpace(
        strong,
        weak,
        (1 << (729 + len(groups))) - 1,
        [1 << n // 9 for n in range(729)] + [cells for _, cells in groups],
        groups,
    )
    best: ChainFound | None = None
    for start in set_bits(board_links(board)[0].nodes):
        if strong[start]:
            best = _best_from_false(start, board, space, best)
        best = _best_from_true(start, board, space, best)
    board.budget_exhausted += space.exhausted
    if best is None:
        return
    yield chain_step(best, groups)


def _layers_through_groups(start: int, space: ChainSpace, first_weak: bool = False) -> list[int] | None:
    """`chains.chain_layers` from `start` in the grouped space (AIC length bound), or None when no group node
    lies inside a chain (the layers between the first and the last): the plain finder has seen those chains."""
    layers = chain_layers(space, start, MAX_LINKS["aic"] + 1, first_weak)
    group_nodes = space.universe & ~ALL_NODES
    return layers if any(layer & group_nodes for layer in layers[1:-1]) else None


def _named(kind: str, path: list[int]) -> str:
    """The technique of a chain of `kind` found in the grouped space: its grouped form when a group node is on
    it, else the plain one (as HoDoKu names them)."""
    return f"grouped_{kind}" if any(n >= 729 for n in path) else kind


def _best_from_false(start: int, board: Board, space: ChainSpace, best: ChainFound | None) -> ChainFound | None:
    """`best`, or a chain from `start` assumed false that outranks it (see `find_grouped_aic`)."""
    layers = _layers_through_groups(start, space)
    if layers is None:
        return best
    cell, a = divmod(start, 9)
    seen_with_a = PEER_BITS[cell] & board.digit_cells(a + 1)
    loop_ends = space.weak[start]
    for depth in range(3, len(layers), 2):
        for end in set_bits(layers[depth] & ALL_NODES):
            closes = end == start or loop_ends >> end & 1
            if end == start or not closes:
                victims = end_victims(board, start, end, seen_with_a, discontinuous=end == start)
            else:
                victims = 0  # a continuous loop's victims need the chain
            if not closes and not victims or victims and not outranks(victims, depth, best):
                continue
            path = trace_lasso_free_chain(space, layers, depth, end, closed=bool(closes))
            if path is None:
                continue
            if end != start and closes:
                victims = loop_victims(path, board, space.groups)
                if not victims or not outranks(victims, depth, best):
                    continue
            kind = "discontinuous_nice_loop" if end == start else "continuous_nice_loop" if closes else "aic"
            best = ChainFound(_named(kind, path), depth, victims, path)
    return best


def _best_from_true(start: int, board: Board, space: ChainSpace, best: ChainFound | None) -> ChainFound | None:
    """`best`, or a discontinuous nice loop from `start` assumed true that outranks it: if that makes it false,
    or makes another digit of its cell true, it is false (HoDoKu's "on" table; the chain leaves the start by
    a weak link, to another cell)."""
    cells_of = space.cells_of
    layers = _layers_through_groups(start, space, first_weak=True)
    if layers is None:
        return best
    cands = board.candidates
    cell = start // 9
    victims = 1 << start
    same_cell = (cands[cell] << 9 * cell) & ~victims
    for depth in range(3, len(layers)):
        ends = layers[depth] & (victims if depth % 2 else same_cell)  # odd layers false, even ones true
        if not ends or not outranks(victims, depth, best):
            continue
        end = ends.bit_length() - 1
        path = trace_lasso_free_chain(space, layers, depth, end, closed=True, first_weak=True)
        if path is None or cells_of[path[1]] == cells_of[start]:
            continue  # none, or one whose first link stays in the start cell (HoDoKu takes no such loop)
        best = ChainFound(_named("discontinuous_nice_loop", path), depth, victims, path, True)
        break
    return best
