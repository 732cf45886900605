"""Dancing Links: Knuth's Algorithm X on the paper's linked lists, for Sudoku's exact cover.

Source: D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer
Science, 2000 (arXiv cs/0011047), sections 3-4: the data structure, the
procedure ``search(k)``, ``cover`` and ``uncover``, and the S heuristic
(branch on a column with the fewest rows).

This is the method the project's mission names. The default exact search is
`solver.exact` (Algorithm X on candidate bitmasks, faster in CPython);
this one is chosen with ``snapsolve ... --search dlx`` and serves as an
independent cross-check: the tests compare the two engines' solutions and
solution counts.

The matrix (Sudoku as exact cover): 729 rows, one per candidate ``(cell,
digit)`` with index ``cell * 9 + digit - 1``, and 324 columns, four families
of 81: cell ``r,c`` is filled; row ``r`` holds ``d``; column ``c`` holds
``d``; box ``b`` holds ``d``. Each row has exactly four 1s.

The links live in flat lists of ints indexed by node number (the paper's
fields of a data object, one list per field):

- node 0 is the root ``h``; nodes 1..324 are the column headers (column ``k``,
  0..323, is node ``k + 1``); candidate ``r`` has the four nodes
  ``325 + 4 * r + f`` for its columns of family ``f`` (cell, row-digit,
  column-digit, box-digit);
- ``L``, ``R``: left and right links (the header list through the root; the
  four nodes of a row);
- ``U``, ``D``: up and down links (a column's nodes through its header);
- ``C``: the header node of each node's column (never changes);
- ``S``: per header node, the column's size (rows still linked in it);
- ``ROW``: per row node, its candidate index (the paper's row name);
- ``OTHERS``: per row node, the row's other three nodes with their headers
  (read-only; used by `search_solutions`, see below).

The full matrix is built once, on the first search, as a template; each
puzzle copies the five changing lists (``L``, ``R``, ``U``, ``D``, ``S``;
list slicing) and covers its givens on the copy, as the paper's Algorithm X
would select them.

Two searches share the structure:

- `search_textbook`: the paper's ``search(k)`` as written: choose the column
  of least ``S`` by walking the header list (stopping at a size 0 or 1,
  which cannot be beaten), cover it, try each of its rows (cover the other
  columns of the row, recurse, uncover them), uncover it. A size-1 column is
  chosen and recursed into like any other.
- `search_solutions` (the engine behind ``--search dlx``): the same data
  structure and the same ``cover``/``uncover``, with these changes that leave
  it Dancing Links:

  * singles propagated: while covering, a column whose size drops to 1 is
    pushed on a list (``pending``), one whose size drops to 0 on another
    (``zeros``). After each selected row, a column of ``zeros`` still open
    ends the branch (not after covering the branch column alone: that may
    empty a column all of whose rows are in it, which the row selected next
    covers). Before a column is chosen, ``pending`` is popped: a column still
    open has its one row selected at once (in a loop, not a recursive call,
    and not counted as a branch; undone from a trail when the call returns).
    Entries may be stale (the column covered since): they are checked when
    read, never removed while covering;
  * cheaper column choice: with the list empty no open column has fewer than
    two rows, so the walk of the header list (Knuth's S heuristic) stops once
    eight columns of size 2 have been met; of those it takes the one whose
    two rows delete the most rows (the sizes of their other columns, summed),
    not simply the leftmost (a tie-break the paper leaves open);
  * flatter inner loops: a row's other three nodes (what ``R`` reaches from a
    node; row links never change, only header and column links do) are read
    with their column headers as one precomputed tuple per node
    (``OTHERS[x] = (a, C[a], b, C[b], e, C[e])``), and ``cover``/``uncover``
    of a column unlink those three nodes without an inner loop;
  * the search returns as soon as ``limit`` solutions are found (solutions
    counted up to a limit: 2 tells unique from not), without uncovering (the
    copied lists are dropped);
  * candidates struck out by logic (the ``candidates`` argument, as for
    `solver.exact.search_solutions`) are rows deleted from their four
    columns before the givens are covered.

Speed: ``benchmarks/exact_search.py`` times both engines beside the C
extension exact-cover.
"""

from __future__ import annotations

from functools import cache

ROOT = 0
N_COLUMNS = 324
FIRST_ROW_NODE = N_COLUMNS + 1  # 325
N_NODES = FIRST_ROW_NODE + 4 * 729  # 3,241


def _columns_of(candidate: int) -> tuple[int, int, int, int]:
    """The four columns (0..323) of candidate ``cell * 9 + d`` (d = digit - 1).

    Cell, row-digit, column-digit and box-digit, in that order.
    """
    cell, d = divmod(candidate, 9)
    r, c = divmod(cell, 9)
    b = r // 3 * 3 + c // 3
    return cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d


@cache
def _template():
    """The full 729 x 324 matrix as linked lists: L, R, U, D, C, S, ROW, OTHERS (see the module notes)."""
    L = [0] * N_NODES
    R = [0] * N_NODES
    U = list(range(N_NODES))
    D = list(range(N_NODES))
    C = list(range(N_NODES))
    S = [0] * (N_COLUMNS + 1)
    ROW = [-1] * N_NODES
    # Header list: root, 1..324, circular.
    for h in range(N_COLUMNS + 1):
        L[h] = h - 1 if h else N_COLUMNS
        R[h] = h + 1 if h < N_COLUMNS else 0
    for r in range(729):
        base = FIRST_ROW_NODE + 4 * r
        for f, col in enumerate(_columns_of(r)):
            x, h = base + f, col + 1
            L[x] = base + (f - 1) % 4
            R[x] = base + (f + 1) % 4
            C[x] = h
            ROW[x] = r
            # append at the bottom of column h
            U[x] = U[h]
            D[x] = h
            D[U[h]] = x
            U[h] = x
            S[h] += 1
    others = [()] * N_NODES
    for x in range(FIRST_ROW_NODE, N_NODES):
        a, b, e = R[x], R[R[x]], R[R[R[x]]]  # the order the paper's ``j <- R[r]`` loop visits
        others[x] = (a, C[a], b, C[b], e, C[e])
    return L, R, U, D, C, S, ROW, others


def _paper_operations(L, R, U, D, S, C):
    """The paper's ``cover`` and ``uncover`` of a column (section 3) on these link and size lists (closures)."""

    def cover(c):
        L[R[c]] = L[c]
        R[L[c]] = R[c]
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                U[D[j]] = U[j]
                D[U[j]] = D[j]
                S[C[j]] -= 1
                j = R[j]
            i = D[i]

    def uncover(c):
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                S[C[j]] += 1
                U[D[j]] = j
                D[U[j]] = j
                j = L[j]
            i = U[i]
        L[R[c]] = c
        R[L[c]] = c

    return cover, uncover


def _start(grid: list[int], candidates: list[int] | None):
    """Copy the template, delete the rows `candidates` strike out and cover the givens.

    Returns (L, R, U, D, S, chosen candidates), or None when givens clash.
    """
    tL, tR, tU, tD, C, tS, _, _ = _template()
    L, R, U, D, S = tL[:], tR[:], tU[:], tD[:], tS[:]
    if candidates is not None:
        _delete_rows(grid, candidates, U, D, S, C)
    cover, _ = _paper_operations(L, R, U, D, S, C)
    chosen = []
    for cell, v in enumerate(grid):
        if v:
            cand = cell * 9 + v - 1
            x = FIRST_ROW_NODE + 4 * cand
            for f in range(4):
                h = C[x + f]
                if R[L[h]] != h:  # two givens clash exactly when they share a column
                    return None
            for f in range(4):
                cover(C[x + f])
            chosen.append(cand)
    return L, R, U, D, S, chosen


def _delete_rows(
    grid: list[int], candidates: list[int], U: list[int], D: list[int], S: list[int], C: list[int]
) -> None:
    """Unlink, from a full matrix, the rows of empty cells whose digit `candidates` strikes out (bit d-1)."""
    for cell, (v, mask) in enumerate(zip(grid, candidates)):
        if v:
            continue
        for d in range(9):
            if mask >> d & 1:
                continue
            x = FIRST_ROW_NODE + 4 * (cell * 9 + d)
            for n in range(x, x + 4):
                U[D[n]] = U[n]
                D[U[n]] = D[n]
                S[C[n]] -= 1


def _grid_of(chosen: list[int]) -> list[int]:
    """The 81-value grid of the selected rows (candidate indices)."""
    grid = [0] * 81
    for cand in chosen:
        grid[cand // 9] = cand % 9 + 1
    return grid


def search_textbook(grid: list[int], candidates: list[int] | None = None, limit: int = 2) -> list[list[int]]:
    """Up to `limit` solutions by the paper's ``search(k)`` as written (S heuristic, recursion per column).

    Slower than `search_solutions` (no singles propagated); kept as the
    paper's procedure to check the faster one against. Parameters and
    result as for `search_solutions`.
    """
    start = _start(grid, candidates)
    if start is None:
        return []
    L, R, U, D, S, chosen = start
    C, ROW = _template()[4], _template()[6]
    found: list[list[int]] = []

    cover, uncover = _paper_operations(L, R, U, D, S, C)

    def search() -> bool:
        if R[ROOT] == ROOT:
            found.append(_grid_of(chosen))
            return len(found) >= limit
        c = R[ROOT]
        s = S[c]
        j = R[c]
        while j != ROOT and s > 1:
            if S[j] < s:
                c, s = j, S[j]
            j = R[j]
        cover(c)
        r = D[c]
        while r != c:
            chosen.append(ROW[r])
            j = R[r]
            while j != r:
                cover(C[j])
                j = R[j]
            if search():
                return True
            j = L[r]
            while j != r:
                uncover(C[j])
                j = L[j]
            chosen.pop()
            r = D[r]
        uncover(c)
        return False

    search()
    return found


# Over 80 lines on purpose, the search unrolled: cover, uncover and the search are
# closures over the copied link lists (fast locals in CPython), and a row's three other nodes are unlinked
# inline, without an inner loop; split into functions, every step would pass or look up the lists again.
def search_solutions(  # noqa: C901, PLR0915
    grid: list[int], candidates: list[int] | None = None, limit: int = 2
) -> list[list[int]]:
    """Complete grids that extend `grid`, found by Dancing Links (Knuth 2000; see the module notes).

    Singles are propagated and the column choice is cheap (module notes);
    the answers are those of `solver.exact.search_solutions` (the solutions,
    and their number up to `limit`), possibly in another order.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty, 1..9 for givens. Givens that clash (two in
        one house) give no solution; nothing is raised.
    candidates : list of int, optional
        81 candidate bitmasks (bit d-1 for digit d) restricting the empty
        cells, for example after logical eliminations; ignored for givens.
    limit : int
        Stop after this many solutions (1: the first solution; 2: enough to
        tell unique from not).

    Returns
    -------
    list of list of int
        Up to `limit` complete 81-value grids, in search order.
    """
    tL, tR, tU, tD, C, tS, ROW, OTHERS = _template()
    L, R, U, D, S = tL[:], tR[:], tU[:], tD[:], tS[:]
    if candidates is not None:
        _delete_rows(grid, candidates, U, D, S, C)
    chosen: list[int] = []  # candidates of the rows selected (givens first)
    found: list[list[int]] = []
    pending: list[int] = []  # columns whose size dropped to 1 (some stale: covered or emptied since)
    zeros: list[int] = []  # columns whose size dropped to 0 (some stale: covered since)
    push = pending.append
    pop = pending.pop
    zero = zeros.append
    trail: list[int] = []  # nodes of the rows taken as singles, in order (undone in reverse)

    def cover(c):
        left = L[c]
        right = R[c]
        R[left] = right
        L[right] = left
        i = D[c]
        while i != c:
            a, ha, b, hb, e, he = OTHERS[i]
            u = U[a]
            d = D[a]
            D[u] = d
            U[d] = u
            s = S[ha] - 1
            S[ha] = s
            if s < 2:
                push(ha) if s else zero(ha)
            u = U[b]
            d = D[b]
            D[u] = d
            U[d] = u
            s = S[hb] - 1
            S[hb] = s
            if s < 2:
                push(hb) if s else zero(hb)
            u = U[e]
            d = D[e]
            D[u] = d
            U[d] = u
            s = S[he] - 1
            S[he] = s
            if s < 2:
                push(he) if s else zero(he)
            i = D[i]

    def uncover(c):
        i = U[c]
        while i != c:
            a, ha, b, hb, e, he = OTHERS[i]  # the paper walks L from i: e, b, a
            S[he] += 1
            U[D[e]] = e
            D[U[e]] = e
            S[hb] += 1
            U[D[b]] = b
            D[U[b]] = b
            S[ha] += 1
            U[D[a]] = a
            D[U[a]] = a
            i = U[i]
        R[L[c]] = c
        L[R[c]] = c

    def dead() -> bool:
        """A column still open has no rows left (zeros holds every column emptied since it was last cleared)."""
        for h in zeros:
            if R[L[h]] == h:
                return True
        zeros.clear()
        return False

    def undo(mark: int) -> None:
        while len(trail) > mark:
            x = trail.pop()
            a, ha, b, hb, e, he = OTHERS[x]
            uncover(he)
            uncover(hb)
            uncover(ha)
            uncover(C[x])
            chosen.pop()

    def search() -> bool:
        mark = len(trail)
        while pending:  # singles: a size-1 column's row is taken without branching
            h = pop()
            if R[L[h]] != h or not S[h]:
                continue  # covered since it was pushed, or emptied (then also in zeros)
            x = D[h]
            chosen.append(ROW[x])
            trail.append(x)
            a, ha, b, hb, e, he = OTHERS[x]
            cover(h)
            cover(ha)
            cover(hb)
            cover(he)
            if zeros and dead():  # a size-0 column ends the branch
                undo(mark)
                return False
        c = R[ROOT]
        if c == ROOT:
            found.append(_grid_of(chosen))
            if len(found) >= limit:
                return True
            undo(mark)
            return False
        # S heuristic: no open column has fewer than 2 rows here. Ties among columns of 2 rows: of the first
        # eight met, the one whose two rows delete the most rows when selected (the sizes of their other
        # columns, summed). Scoring all of them saves few more nodes than the longer walk costs
        # (top1465, covers per puzzle for the first solution: first column of size 2, 1,488; best of 8,
        # 1,131; best of all, 1,109).
        s = S[c]
        score = -1
        n2 = 8
        j = c
        while j != ROOT:
            t = S[j]
            if t == 2:
                x = D[j]
                _, ha, _, hb, _, he = OTHERS[x]
                t = S[ha] + S[hb] + S[he]
                _, ha, _, hb, _, he = OTHERS[D[x]]
                t += S[ha] + S[hb] + S[he]
                if t > score:
                    c, score = j, t
                n2 -= 1
                if not n2:
                    break
            elif score < 0 and t < s:
                c, s = j, t
            j = R[j]
        cover(c)  # may empty a column all of whose rows are in c: not dead yet, a row of c will cover it
        saved, saved_zeros = pending[:], zeros[:]
        x = D[c]
        while x != c:
            chosen.append(ROW[x])
            a, ha, b, hb, e, he = OTHERS[x]
            cover(ha)
            cover(hb)
            cover(he)
            if not (zeros and dead()) and search():
                return True
            uncover(he)
            uncover(hb)
            uncover(ha)
            chosen.pop()
            pending[:] = saved
            zeros[:] = saved_zeros
            x = D[x]
        uncover(c)
        undo(mark)
        return False

    # Select the givens' rows (two givens clash exactly when they share a column: then no solution).
    for cell, v in enumerate(grid):
        if v:
            x = FIRST_ROW_NODE + 4 * (cell * 9 + v - 1)
            a, ha, b, hb, e, he = OTHERS[x]
            for h in (C[x], ha, hb, he):
                if R[L[h]] != h:
                    return []
                cover(h)
            chosen.append(ROW[x])
    if candidates is not None:  # deleted rows shrank columns without a push: find the singles and empty ones
        h = R[ROOT]
        while h != ROOT:
            if S[h] < 2:
                push(h) if S[h] else zero(h)
            h = R[h]
    if not (zeros and dead()):
        search()
    return found
