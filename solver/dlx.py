"""Dancing Links: Knuth's Algorithm X on Sudoku's 324-column exact cover.

Source: D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer
Science, 2000 (arXiv cs/0011047). Sudoku is an exact cover problem with four
constraint families of 81 columns each:

- cell ``r,c`` holds a digit,
- row ``r`` holds digit ``d``,
- column ``c`` holds digit ``d``,
- box ``b`` holds digit ``d``;

and one matrix row per candidate (cell, digit), covering exactly four columns.
Columns already satisfied by filled cells are left out and only the candidates
still open are turned into rows, so search starts from whatever the logical
solver has already achieved. The column with the fewest rows is chosen first
(Knuth's S heuristic).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .grid import InvalidPuzzleError, box_of, check_givens, initial_candidates

#: COLUMN_KEYS[cell, digit - 1]: the four constraint columns (cell, row-digit, column-digit,
#: box-digit) of a candidate as indices 0..323; array of shape (81, 9, 4), int64.
COLUMN_KEYS = np.array([
    [(cell, 81 + cell // 9 * 9 + d - 1, 162 + cell % 9 * 9 + d - 1, 243 + box_of(cell) * 9 + d - 1)
     for d in range(1, 10)]
    for cell in range(81)
], dtype=np.int64)
_BITS = np.arange(9, dtype=np.int64)
# The three house constraints of every candidate, as contiguous (81, 9) arrays (faster to gather from).
_ROW_DIGIT, _COLUMN_DIGIT, _BOX_DIGIT = (np.ascontiguousarray(COLUMN_KEYS[:, :, k]) for k in (1, 2, 3))

SOLVED = "solved"
NO_SOLUTION = "no_solution"
MULTIPLE_SOLUTIONS = "multiple_solutions"


class _Matrix:
    """The sparse 0/1 matrix as four parallel link arrays (toroidal lists).

    Node 0 is the root; nodes 1..n_columns are column headers; row nodes
    follow in groups of four, row k at ``first + 4k``. ``C[node]`` is the
    node's column header, ``S[header]`` the number of rows left in a column,
    ``row_cell[k]`` and ``row_digit[k]`` the candidate of matrix row k. The
    arrays are computed with NumPy in bulk and searched as Python lists.
    """

    def __init__(self, grid: list[int], candidates: list[int], rng=None):
        values = np.array(grid, dtype=np.int64)
        filled = np.zeros(324, dtype=bool)
        cells = np.flatnonzero(values)
        filled[COLUMN_KEYS[cells, values[cells] - 1].ravel()] = True
        col_index = np.cumsum(~filled)
        n = int(col_index[-1])
        # Matrix rows: the open candidates of empty cells whose four constraints are all still open.
        open_ = (np.array(candidates, dtype=np.int64)[:, None] >> _BITS & 1).astype(bool)
        open_ &= (values == 0)[:, None]
        open_ &= ~(filled[_ROW_DIGIT] | filled[_COLUMN_DIGIT] | filled[_BOX_DIGIT])
        row_cell, row_digit = np.nonzero(open_)
        if rng is not None:
            order = list(range(len(row_cell)))
            rng.shuffle(order)
            row_cell, row_digit = row_cell[order], row_digit[order]
        n_rows = len(row_cell)
        first = n + 1
        total = first + 4 * n_rows
        # Left/right: each row's four nodes in a ring; the headers in a ring with the root.
        R = list(range(1, total + 1))
        L = list(range(-1, total - 1))
        L[0], R[n] = n, 0
        L[first::4] = range(first + 3, total, 4)
        R[first + 3::4] = range(first, total, 4)
        C = np.concatenate([np.arange(first), col_index[COLUMN_KEYS[row_cell, row_digit]].ravel()])
        # Up/down: the nodes of each column in row order, in a ring with the header.
        U = np.arange(total)
        D = np.arange(total)
        nodes = np.argsort(C[first:].astype(np.int16), kind="stable") + first  # int16: radix sort
        cols = C[nodes]
        if len(nodes):
            head = np.ones(len(nodes), dtype=bool)
            head[1:] = cols[1:] != cols[:-1]
            tail = np.ones(len(nodes), dtype=bool)
            tail[:-1] = head[1:]
            D[nodes[:-1]] = nodes[1:]
            U[nodes[1:]] = nodes[:-1]
            D[nodes[tail]] = cols[tail]
            U[nodes[head]] = cols[head]
            D[cols[head]] = nodes[head]
            U[cols[tail]] = nodes[tail]
        S = np.bincount(C[first:], minlength=n + 1)
        self.L, self.R, self.U, self.D = L, R, U.tolist(), D.tolist()
        self.C, self.S = C.tolist(), S.tolist()
        self.first = first
        self.row_cell, self.row_digit = row_cell.tolist(), (row_digit + 1).tolist()

    def search(self, limit: int) -> list[dict[int, int]]:
        """All exact covers, up to `limit`, as {cell: digit} assignments."""
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        solutions: list[dict[int, int]] = []
        partial: list[int] = []

        def cover(c: int) -> None:
            R[L[c]] = R[c]
            L[R[c]] = L[c]
            i = D[c]
            while i != c:
                j = R[i]
                while j != i:
                    U[D[j]] = U[j]
                    D[U[j]] = D[j]
                    S[C[j]] -= 1
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

        def recurse() -> None:
            if R[0] == 0:
                rows = [(node - self.first) >> 2 for node in partial]
                solutions.append({self.row_cell[k]: self.row_digit[k] for k in rows})
                return
            best, best_size = 0, 1 << 30
            c = R[0]
            while c != 0:
                if S[c] < best_size:
                    best, best_size = c, S[c]
                    if best_size <= 1:
                        break
                c = R[c]
            if best_size == 0:
                return
            cover(best)
            r = D[best]
            while r != best:
                partial.append(r)
                j = R[r]
                while j != r:
                    cover(C[j])
                    j = R[j]
                recurse()
                j = L[r]
                while j != r:
                    uncover(C[j])
                    j = L[j]
                partial.pop()
                if len(solutions) >= limit:
                    break
                r = D[r]
            uncover(best)

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
    if candidates is None:
        candidates = initial_candidates(grid)
    matrix = _Matrix(grid, candidates, rng)
    out = []
    for assignment in matrix.search(limit):
        solution = list(grid)
        for cell, d in assignment.items():
            solution[cell] = d
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
