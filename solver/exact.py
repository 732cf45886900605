"""Exact search: Knuth's Algorithm X on Sudoku's 324-column exact cover, held as candidate bitmasks.

The default engine of the exact search (``--search bitmask``); the paper's
linked lists are the other (`solver.dlx`, ``--search dlx``). `solve_unique`
takes the engine by name (`search_engine`): the one place where it is chosen.

Source: D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer
Science, 2000 (arXiv cs/0011047). Sudoku is an exact cover problem with four
constraint families of 81 columns each:

- cell ``r,c`` holds a digit,
- row ``r`` holds digit ``d``,
- column ``c`` holds digit ``d``,
- box ``b`` holds digit ``d``;

and one matrix row per candidate (cell, digit), covering exactly four columns.

Algorithm X, as in the paper: while a column is open, choose one with the
fewest rows, try each of its rows in turn (cover the row's columns, which
deletes every row that clashes with it), recurse, then restore. The sparse
matrix is not held as the paper's doubly linked lists but as what those lists
encode for Sudoku: one 9-bit candidate mask per cell (bit ``d - 1`` set while
the row (cell, d) is in the matrix). Covering a row removes its digit from the
20 peers; a cell column's size is its popcount, a house-digit column's size
the number of cells of the house whose mask holds the digit. Undo is a copy of
the 81 masks (one C-level list copy, cheaper in CPython than a trail). The
paper's linked lists in flat Python arrays, with singles propagated too
(solver/dlx.py, measured beside this search by benchmarks/exact_search.py),
run at about 0.4x this speed.

Speed (pure Python, measured by benchmarks/exact_search.py beside the C
extension exact-cover):

- every node is reduced before a column is chosen: columns of size 1 (naked
  singles: cell columns; hidden singles: house-digit columns) are covered
  to a fixpoint, a column of size 0 ends the branch (a contradiction), and
  the locked-candidates reduction (a box-digit column whose rows all lie in
  one line, or the reverse) deletes the rows that would empty it
  (SudokuWiki "Intersection Removal", HoDoKu "Locked Candidates"). This
  keeps the search tree small (about 10 branching nodes per top1465 puzzle);
- the column with the fewest rows is taken among the cell columns (Knuth's S
  heuristic). Nearly every branching node has cell columns of size 2
  (bivalue cells); among them the one that constrains most is taken: the
  fewest digits placed in its row, column and box (the more open cells it
  can constrain), less 4 for each bivalue peer that shares one of its digits
  (either choice turns such a peer into a single at once, so both branches
  propagate further). Both terms make the search tree smaller than taking
  the first size-2 column (the weight 4 fitted on top1465's search nodes);
- the hot code is generated on the first search as straight-line Python:
  one covering function per cell with its 20 peers unrolled, one scan
  that loads the 81 masks into locals and computes, per house, the digits
  present once (from the unions of the 54 three-cell segments, shared by
  rows, columns and boxes) and the locked-candidate deletions, and the
  column choice's popcounts unrolled over the 81 cells;
- the givens are covered like any size-1 column, in the first reduction
  (no separate pass removes their digits from their peers).

Speed beside the C extension exact-cover: docs/accuracy-and-speed.md
(benchmarks/exact_search.py). Counting to two costs more than its share of
search nodes: time follows the reductions (11.6 against 18.9 per top1465
puzzle, 1.64x) more than the nodes (7.1 against 10.0, 1.40x), since the
branches that reduction alone refutes (4.4 against 9.0) are not nodes.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

from . import dlx
from .grid import (
    ALL_DIGITS,
    HOUSE_SEGMENTS,
    HOUSES,
    HOUSES_OF_CELL,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    SEGMENTS,
    InvalidPuzzleError,
    check_givens,
    segment_scan_lines,
)
from .status import Status

#: The statuses the exact search tells apart (`Status` members, equal to their JSON strings).
SOLVED = Status.SOLVED
NO_SOLUTION = Status.NO_SOLUTION
MULTIPLE_SOLUTIONS = Status.MULTIPLE_SOLUTIONS

#: The exact-search engines by name (the command line's ``--search``): ``bitmask``, this module's Algorithm X on
#: candidate bitmasks (the default: the faster in CPython), and ``dlx``, Knuth's Dancing Links (`solver.dlx`).
SEARCHES = ("bitmask", "dlx")
DEFAULT_SEARCH = "bitmask"


def _exec(lines: list[str], names: list[str], tables: dict | None = None) -> list:
    """The functions `names` defined by the generated source `lines`. `tables`, a fresh dict of the names the
    source reads, becomes the functions' globals (used as it is: a copy made CPython's global lookups slower)."""
    namespace: dict = {} if tables is None else tables
    exec(_compiled("\n".join(lines)), namespace)  # generated from the grid's tables only
    return [namespace[n] for n in names]


def _compiled(source: str) -> CodeType:
    """The code of a generated `source`, kept beside this module's bytecode as Python keeps a module's.

    Compiling the cell functions' ten thousand lines takes most of a tenth of a
    second, at each process's first search; their code is kept in this module's
    ``__pycache__`` folder (named by a digest of the source and the interpreter's
    cache tag), written when Python writes bytecode (not under ``-B`` or
    ``PYTHONDONTWRITEBYTECODE``) and the folder is writable, and read when it is there.
    """
    import hashlib  # here, not at the top: ``snapsolve --help`` imports this module for its engines' names
    from importlib.util import cache_from_source

    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    cache = Path(cache_from_source(__file__)).with_name(f"exact-{digest}.{sys.implementation.cache_tag}.marshal")
    try:
        code = marshal.loads(cache.read_bytes())
        if isinstance(code, CodeType):
            return code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    code = compile(source, f"<snapsolve.solver.exact generated {digest}>", "exec")
    if not sys.dont_write_bytecode:
        _write_whole(cache, marshal.dumps(code))
    return code


def _write_whole(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all (another process may write it at the same time); quiet when it cannot."""
    import tempfile

    try:
        path.parent.mkdir(exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def _make_cover_cell():
    """One function per cell: place the cell's (single) digit, delete it from the 20 peers."""
    lines = []
    for cell in range(81):
        lines.append(f"def cover{cell}(c, placed, bit, push):")
        for h in HOUSES_OF_CELL[cell]:
            lines.append(f"    placed[{h}] |= bit")
        for p in PEERS[cell]:
            lines += [
                f"    m = c[{p}]",
                "    if m & bit:",
                "        m ^= bit",
                "        if not m: return False",
                f"        c[{p}] = m",
                f"        if not m & (m - 1): push({p})",
            ]
        lines.append("    return True")
    return tuple(_exec(lines, [f"cover{cell}" for cell in range(81)]))


def _make_scan():
    """The house scan: hidden singles and empty house-digit columns, else locked-candidate deletions."""
    lines = [
        "def scan(c, placed):",
        "    " + ", ".join(f"c{i}" for i in range(81)) + " = c",
        "    " + ", ".join(f"p{h}" for h in range(27)) + " = placed",
        "    found = []",
    ]
    lines += segment_scan_lines()  # o: digits present in a segment, t: digits present at least twice
    for h, (x, y, z) in enumerate(HOUSE_SEGMENTS):
        lines += [
            f"    u = o{x} | o{y}",
            f"    o = u | o{z}",
            "    if o != 511: return None",
            f"    s = o & ~(t{x} | t{y} | t{z} | (o{x} & o{y}) | (u & o{z}) | p{h})",
            f"    if s: found.append(({h}, s))",
        ]
    lines += ["    if found: return found, None", "    out = []"]
    for kind in ("R", "C"):
        for line in range(9):
            for k in range(3):
                o1, o2 = [j for j in range(3) if j != k]
                band, pos = divmod(line, 3)
                b1, b2 = [band * 3 + j for j in range(3) if j != pos]
                inner = f"o{kind}{line}_{k}"
                line_rest = f"(o{kind}{line}_{o1} | o{kind}{line}_{o2})"
                box_rest = f"(o{kind}{b1}_{k} | o{kind}{b2}_{k})"
                segment = SEGMENTS[f"{kind}{line}_{k}"]
                if kind == "R":
                    box, line_cells = HOUSES[18 + band * 3 + k], HOUSES[line]
                else:
                    box, line_cells = HOUSES[18 + k * 3 + band], HOUSES[9 + line]
                line_others = tuple(x for x in line_cells if x not in segment)
                box_others = tuple(x for x in box if x not in segment)
                # pointing: the box's digit only in this segment leaves the rest of the line
                lines += [f"    x = {inner} & ~{box_rest} & {line_rest}", f"    if x: out.append(({line_others}, x))"]
                # claiming: the line's digit only in this segment leaves the rest of the box
                lines += [f"    x = {inner} & ~{line_rest} & {box_rest}", f"    if x: out.append(({box_others}, x))"]
    lines.append("    return found, out")
    return _exec(lines, ["scan"])[0]


def _make_choose():
    """The column choice (see `_search`): the popcounts unrolled over the 81 cell columns, then the bivalue
    cells scored."""
    lines = [
        "def choose(c, placed):",
        "    " + ", ".join(f"c{i}" for i in range(81)) + " = c",
        "    best, column = 10, -1",
        "    bivalue = []",
        "    add = bivalue.append",
    ]
    for i in range(81):
        lines += [f"    n = P[c{i}]", f"    if n == 2: add({i})", f"    elif 2 < n < best: best, column = n, {i}"]
    lines += [
        "    if not bivalue: return column",
        "    holders = {}  # per digit bit, the bivalue cells that have it",
        "    for i in bivalue:",
        "        m = c[i]",
        "        low = m & -m",
        "        bit = 1 << i",
        "        holders[low] = holders.get(low, 0) | bit",
        "        holders[m ^ low] = holders.get(m ^ low, 0) | bit",
        "    score = 99",
        "    for i in bivalue:",
        "        m = c[i]",
        "        low = m & -m",
        "        r, k, b = H[i]",
        "        shared = ((holders[low] | holders[m ^ low]) & PEER[i]).bit_count()  # bivalue peers",
        "        s = P[placed[r]] + P[placed[k]] + P[placed[b]] - 4 * shared",
        "        if s < score: score, column = s, i",
        "    return column",
    ]
    return _exec(lines, ["choose"], {"P": POPCOUNT, "H": HOUSES_OF_CELL, "PEER": PEER_BITS})[0]


#: The generated covering functions, house scan and column choice, built on the first search (not at import:
#: commands that never search do not pay for generating them).
_COVER_CELL: Any = None
_SCAN: Any = None
_CHOOSE: Any = None


# The exact search's innermost loop, inlined on purpose: the covering, hidden singles and deletions share fast
# locals, and a call per step would cost more than the step.
def _reduce(c: list[int], placed: list[int], stack: list[int]) -> bool:  # noqa: C901
    """Cover the size-1 columns and apply locked candidates to a fixpoint, in place.

    `c` holds the 81 masks, `placed` the digits already placed per house
    (27 masks), `stack` the cells whose mask has become a single digit and
    is not yet placed. Returns False on a contradiction (an empty column);
    the arrays are then partly updated and must be dropped.
    """
    push = stack.append
    pop = stack.pop
    cover_cell = _COVER_CELL
    scan = _SCAN
    houses = HOUSES
    while True:
        while stack:
            cell = pop()
            if not cover_cell[cell](c, placed, c[cell], push):
                return False
        result = scan(c, placed)
        if result is None:
            return False
        found, deletions = result
        if found:  # hidden singles: take the one row left in a house-digit column
            for h, s in found:
                house = houses[h]
                while s:
                    bit = s & -s
                    s ^= bit
                    for i in house:
                        m = c[i]
                        if m & bit:
                            if m != bit:
                                c[i] = bit
                                push(i)
                            break
                    else:  # an earlier single in this round took its only cell
                        return False
            continue
        for cells, x in deletions:
            keep = ~x
            for i in cells:
                m = c[i]
                if m & x:
                    m &= keep
                    if not m:
                        return False
                    c[i] = m
                    if not m & (m - 1):
                        push(i)
        if not stack:
            return True


def _search(c: list[int], placed: list[int], limit: int, out: list[list[int]], rng) -> bool:
    """Algorithm X below a reduced node; appends complete mask lists to `out`, True once `limit` is reached."""
    column = _CHOOSE(c, placed)
    if column < 0:
        out.append(c)
        return len(out) >= limit
    m = c[column]
    bits = []
    while m:
        bit = m & -m
        bits.append(bit)
        m ^= bit
    if rng is not None:
        rng.shuffle(bits)
    last = bits.pop()
    for bit in bits:
        c2 = c[:]
        placed2 = placed[:]
        c2[column] = bit
        if _reduce(c2, placed2, [column]) and _search(c2, placed2, limit, out, rng):
            return True
    c[column] = last  # the last row needs no copy: this node reads its masks no more
    return _reduce(c, placed, [column]) and _search(c, placed, limit, out, rng)


def search_solutions(grid: list[int], candidates: list[int] | None = None, limit: int = 2, rng=None) -> list[list[int]]:
    """Complete grids that extend `grid`, found by Algorithm X (Knuth, "Dancing Links"; see the module notes).

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty, 1..9 for filled cells. Must not break the
        rules (see `grid.check_givens`); a broken grid simply has no solution.
    candidates : list of int, optional
        81 candidate bitmasks (bit d-1 for digit d) restricting the empty cells,
        for example after logical eliminations; defaults to the candidates the
        filled cells leave.
    limit : int
        Stop after this many solutions (2 is enough to tell unique from not).
    rng : random.Random, optional
        Shuffle the order in which candidates are tried, so that the first
        solution of an empty grid is a random complete grid.

    Returns
    -------
    list of list of int
        Up to `limit` complete 81-value grids, in search order.
    """
    global _COVER_CELL, _SCAN, _CHOOSE
    if _SCAN is None:
        _COVER_CELL, _SCAN, _CHOOSE = _make_cover_cell(), _make_scan(), _make_choose()
    # A filled cell is a single-row cell column: covering it (in `_reduce`, with the other size-1 columns)
    # removes its digit from its peers.
    c = [1 << (v - 1) if v else ALL_DIGITS for v in grid]
    if candidates is not None:
        c = [m if v else m & k for v, m, k in zip(grid, c, candidates)]
        if not all(c):
            return []
    stack = [i for i in range(81) if not c[i] & (c[i] - 1)]
    placed = [0] * 27
    found: list[list[int]] = []
    if _reduce(c, placed, stack):
        _search(c, placed, limit, found, rng)
    return [[m.bit_length() for m in masks] for masks in found]


@dataclass(frozen=True)
class SearchResult:
    """Outcome of exact search on a puzzle.

    Attributes
    ----------
    status : Status
        ``SOLVED`` (exactly one solution), ``NO_SOLUTION`` or
        ``MULTIPLE_SOLUTIONS``.
    solution : list of int or None
        The unique solution (81 values) when status is ``"solved"``.
    """

    status: Status
    solution: list[int] | None


def search_engine(name: str = DEFAULT_SEARCH) -> Callable[..., list[list[int]]]:
    """The exact search called `name`: a function ``(grid, candidates=None, limit=2)`` -> up to `limit` solutions.

    Parameters
    ----------
    name : str
        ``"bitmask"`` (`search_solutions` here) or ``"dlx"``
        (`solver.dlx.search_solutions`, Knuth's Dancing Links); see `SEARCHES`.

    Returns
    -------
    callable
        Both engines take the same arguments and find the same solutions
        (their number up to the limit), possibly in another order.

    Raises
    ------
    ValueError
        `name` is not one of `SEARCHES`.
    """
    if name == "bitmask":
        return search_solutions
    if name == "dlx":
        return dlx.search_solutions
    raise ValueError(f"unknown exact search {name!r} (choose from {', '.join(SEARCHES)})")


def solve_unique(grid: list[int], candidates: list[int] | None = None, search: str = DEFAULT_SEARCH) -> SearchResult:
    """Solve by exact search (Algorithm X) and tell whether the solution is unique.

    Searches for up to two solutions with the engine named `search`
    (``"bitmask"`` or ``"dlx"``, see `search_engine`; both give the same
    result). Raises nothing for a bad puzzle: a grid whose givens conflict
    has status ``"no_solution"``.

    Raises
    ------
    ValueError
        `search` names no engine.
    """
    find = search_engine(search)
    try:
        check_givens(grid)
    except InvalidPuzzleError:
        return SearchResult(NO_SOLUTION, None)
    solutions = find(grid, candidates, limit=2)
    if not solutions:
        return SearchResult(NO_SOLUTION, None)
    if len(solutions) > 1:
        return SearchResult(MULTIPLE_SOLUTIONS, None)
    return SearchResult(SOLVED, solutions[0])
