"""Dancing Links: Knuth's Algorithm X on Sudoku's 324-column exact cover.

Source: D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer
Science, 2000 (arXiv cs/0011047). Sudoku is an exact cover problem with four
constraint families of 81 columns each:

- cell ``r,c`` holds a digit,
- row ``r`` holds digit ``d``,
- column ``c`` holds digit ``d``,
- box ``b`` holds digit ``d``;

and one matrix row per candidate (cell, digit), covering exactly four columns.

Speed (pure Python, measured by benchmarks/exact_search.py):

- singles before search: naked and hidden singles are propagated on 9-bit
  candidate masks first, so the matrix holds only what singles cannot settle
  (columns of filled cells are left out, and so are the rows of removed
  candidates);
- singles during search: when covering drops a column to one row (a naked or
  hidden single) or to none (a dead end), the column is pushed on a short
  list, and the next column is taken from that list before any scan; only
  when no such column is waiting is the ring of columns scanned for the
  fewest rows (Knuth's S heuristic, stopping at the first size-1 column);
- flat link arrays: L, R, U, D, C are plain Python lists over one node
  numbering (root 0, headers 1..324, then four nodes per matrix row), built
  without NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import HOUSES, PEERS, InvalidPuzzleError, box_of, check_givens, initial_candidates

#: COLUMNS_OF[cell * 9 + digit - 1]: the four constraint columns (1..324: cell, row-digit, column-digit,
#: box-digit) of a candidate.
COLUMNS_OF = [
    (1 + cell, 82 + cell // 9 * 9 + d, 163 + cell % 9 * 9 + d, 244 + box_of(cell) * 9 + d)
    for cell in range(81) for d in range(9)
]

SOLVED = "solved"
NO_SOLUTION = "no_solution"
MULTIPLE_SOLUTIONS = "multiple_solutions"


def propagate_singles(values: list[int], cands: list[int]) -> bool:
    """Place naked and hidden singles until none is left, in place.

    Parameters
    ----------
    values : list of int
        81 values, 0 for empty; singles are written into it.
    cands : list of int
        81 candidate masks (bit d-1 for digit d; 0 for a filled cell), kept
        consistent with `values`.

    Returns
    -------
    bool
        False when a contradiction shows (an empty cell without candidates,
        or a digit without a place in a house); the arrays are then partly
        updated and must not be used.

    Source: SudokuWiki "Naked Singles" and "Hidden Singles" (HoDoKu: Full
    House, Naked Single, Hidden Single), on bitmasks as in tdoku's write-up.
    """
    while True:
        changed = False
        for cell in range(81):
            if values[cell]:
                continue
            m = cands[cell]
            if not m:
                return False
            if m & (m - 1) == 0:
                _place(values, cands, cell, m)
                changed = True
        for house in HOUSES:
            once = twice = placed = 0
            for c in house:
                m = cands[c]
                twice |= once & m
                once |= m
                if values[c]:
                    placed |= 1 << (values[c] - 1)
            if (once | placed) != 0x1FF:
                return False
            singles = once & ~twice & ~placed
            while singles:
                bit = singles & -singles
                singles ^= bit
                for c in house:
                    if cands[c] & bit:
                        _place(values, cands, c, bit)
                        changed = True
                        break
        if not changed:
            return True


def _place(values: list[int], cands: list[int], cell: int, bit: int) -> None:
    values[cell] = bit.bit_length()
    cands[cell] = 0
    keep = ~bit
    for p in PEERS[cell]:
        cands[p] &= keep


class _Matrix:
    """The sparse 0/1 matrix as flat link lists (toroidal, Knuth's layout).

    Node 0 is the root, nodes 1..324 the column headers (only the columns
    still open are linked into the header ring); matrix row k has its four
    nodes at ``325 + 4k .. 328 + 4k``. ``C[node]`` is the node's column,
    ``S[column]`` the rows left in it, ``row_candidate[k]`` the candidate
    ``cell * 9 + digit - 1`` of row k.
    """

    def __init__(self, values: list[int], cands: list[int], rng=None):
        open_columns = [0] * 325
        for cell in range(81):
            if not values[cell]:
                open_columns[1 + cell] = 1
        for h, house in enumerate(HOUSES):
            missing = 0x1FF
            for c in house:
                if values[c]:
                    missing &= ~(1 << (values[c] - 1))
            base = (82, 163, 244)[h // 9] + h % 9 * 9
            for d in range(9):
                if missing >> d & 1:
                    open_columns[base + d] = 1
        L = [0] * 325
        R = [0] * 325
        prev = 0
        for col in range(1, 325):
            if open_columns[col]:
                R[prev] = col
                L[col] = prev
                prev = col
        R[prev] = 0
        L[0] = prev
        U = list(range(325))
        D = list(range(325))
        C = list(range(325))
        S = [0] * 325
        rows = [cell * 9 + d for cell in range(81) if cands[cell] for d in range(9) if cands[cell] >> d & 1]
        if rng is not None:
            rng.shuffle(rows)
        node = 325
        for cand in rows:
            L.extend((node + 3, node, node + 1, node + 2))
            R.extend((node + 1, node + 2, node + 3, node))
            for col in COLUMNS_OF[cand]:
                C.append(col)
                up = U[col]
                U.append(up)
                D.append(col)
                D[up] = node
                U[col] = node
                S[col] += 1
                node += 1
        self.L, self.R, self.U, self.D, self.C, self.S = L, R, U, D, C, S
        self.row_candidate = rows

    def search(self, limit: int) -> list[list[int]]:
        """Exact covers, up to `limit`, each as the list of its rows' candidates (``cell * 9 + digit - 1``)."""
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        row_candidate = self.row_candidate
        solutions: list[list[int]] = []
        partial: list[int] = []
        forced: list[int] = []  # columns that dropped to 0 or 1 rows: taken before any scan

        def cover(c: int) -> None:
            R[L[c]] = R[c]
            L[R[c]] = L[c]
            i = D[c]
            while i != c:
                j = R[i]
                while j != i:
                    d = D[j]
                    u = U[j]
                    U[d] = u
                    D[u] = d
                    col = C[j]
                    s = S[col] - 1
                    S[col] = s
                    if s < 2:
                        forced.append(col)
                    j = R[j]
                i = D[i]

        def uncover(c: int) -> None:
            i = U[c]
            while i != c:
                j = L[i]
                while j != i:
                    S[C[j]] += 1
                    U[D[j]] = j
                    D[U[j]] = j
                    j = L[j]
                i = U[i]
            R[L[c]] = c
            L[R[c]] = c

        def choose() -> int:
            while forced:
                c = forced.pop()
                if S[c] < 2 and R[L[c]] == c:  # still open and still a single (or empty)
                    return c
            best, best_size = 0, 1 << 30
            c = R[0]
            while c:
                s = S[c]
                if s < best_size:
                    best, best_size = c, s
                    if s < 2:
                        break
                c = R[c]
            return best

        def recurse() -> bool:
            if R[0] == 0:
                solutions.append([row_candidate[(node - 325) >> 2] for node in partial])
                return len(solutions) >= limit
            best = choose()
            if S[best] == 0:
                forced.clear()
                return False
            cover(best)
            done = False
            r = D[best]
            while r != best:
                partial.append(r)
                j = R[r]
                while j != r:
                    cover(C[j])
                    j = R[j]
                done = recurse()
                j = L[r]
                while j != r:
                    uncover(C[j])
                    j = L[j]
                partial.pop()
                if done:
                    break
                forced.clear()
                r = D[r]
            uncover(best)
            return done

        recurse()
        return solutions


def search_solutions(grid: list[int], candidates: list[int] | None = None, limit: int = 2,
                     rng=None) -> list[list[int]]:
    """Complete grids that extend `grid`, found by Dancing Links.

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
    values = list(grid)
    if candidates is None:
        cands = initial_candidates(grid)
    else:
        cands = [0 if v else m for v, m in zip(values, candidates)]
        for cell, v in enumerate(values):  # the filled cells' digits leave their peers
            if v:
                keep = ~(1 << (v - 1))
                for p in PEERS[cell]:
                    cands[p] &= keep
    if not propagate_singles(values, cands):
        return []
    out = []
    for rows in _Matrix(values, cands, rng).search(limit):
        solution = list(values)
        for cand in rows:
            solution[cand // 9] = cand % 9 + 1
        out.append(solution)
    return out


@dataclass(frozen=True)
class SearchResult:
    """Outcome of exact search on a puzzle.

    Attributes
    ----------
    status : str
        ``"solved"`` (exactly one solution), ``"no_solution"`` or
        ``"multiple_solutions"``.
    solution : list of int or None
        The unique solution (81 values) when status is ``"solved"``.
    """

    status: str
    solution: list[int] | None


def solve_unique(grid: list[int], candidates: list[int] | None = None) -> SearchResult:
    """Solve by Dancing Links and tell whether the solution is unique.

    Searches for up to two solutions. Raises nothing: a grid whose givens
    conflict has status ``"no_solution"``.
    """
    try:
        check_givens(grid)
    except InvalidPuzzleError:
        return SearchResult(NO_SOLUTION, None)
    solutions = search_solutions(grid, candidates, limit=2)
    if not solutions:
        return SearchResult(NO_SOLUTION, None)
    if len(solutions) > 1:
        return SearchResult(MULTIPLE_SOLUTIONS, None)
    return SearchResult(SOLVED, solutions[0])
