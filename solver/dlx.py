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

from .grid import InvalidPuzzleError, box_of, check_givens, initial_candidates

SOLVED = "solved"
NO_SOLUTION = "no_solution"
MULTIPLE_SOLUTIONS = "multiple_solutions"


class _Matrix:
    """The sparse 0/1 matrix as four parallel link arrays (toroidal lists).

    Node 0 is the root; nodes 1..n_columns are column headers; row nodes
    follow in groups of four. ``C[node]`` is the node's column header,
    ``S[header]`` the number of rows left in a column, ``row_of[node]`` the
    (cell, digit) pair of a row node's matrix row.
    """

    def __init__(self, grid: list[int], candidates: list[int], rng=None):
        col_index: dict[int, int] = {}
        filled = [0] * 324
        for cell, d in enumerate(grid):
            if d:
                r, c, b = cell // 9, cell % 9, box_of(cell)
                for key in (cell, 81 + r * 9 + d - 1, 162 + c * 9 + d - 1, 243 + b * 9 + d - 1):
                    filled[key] = 1
        for key in range(324):
            if not filled[key]:
                col_index[key] = len(col_index) + 1
        n = len(col_index)
        self.L = list(range(-1, n))
        self.L[0] = n
        self.R = list(range(1, n + 1)) + [0]
        self.U = list(range(n + 1))
        self.D = list(range(n + 1))
        self.C = list(range(n + 1))
        self.S = [0] * (n + 1)
        self.row_of: list[tuple[int, int] | None] = [None] * (n + 1)
        self.possible = True
        cells = list(range(81))
        if rng is not None:
            rng.shuffle(cells)
        for cell in cells:
            if grid[cell]:
                continue
            mask = candidates[cell]
            r, c, b = cell // 9, cell % 9, box_of(cell)
            digits = list(range(1, 10))
            if rng is not None:
                rng.shuffle(digits)
            for d in digits:
                if not mask >> (d - 1) & 1:
                    continue
                keys = (cell, 81 + r * 9 + d - 1, 162 + c * 9 + d - 1, 243 + b * 9 + d - 1)
                if any(filled[k] for k in keys):
                    continue  # digit already placed in that house: not a candidate
                self._add_row([col_index[k] for k in keys], (cell, d))

    def _add_row(self, columns: list[int], label: tuple[int, int]) -> None:
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        first = len(L)
        for i, col in enumerate(columns):
            node = first + i
            L.append(first + (i - 1) % 4)
            R.append(first + (i + 1) % 4)
            U.append(U[col])
            D.append(col)
            D[U[col]] = node
            U[col] = node
            C.append(col)
            S[col] += 1
            self.row_of.append(label)

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
                solutions.append(dict(self.row_of[n] for n in partial))
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
