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

#: COLUMN_KEYS[cell][digit]: the four constraint columns (cell, row-digit,
#: column-digit, box-digit) of the candidate, as indices 0..323.
COLUMN_KEYS = [
    [()] + [(cell, 81 + cell // 9 * 9 + d - 1, 162 + cell % 9 * 9 + d - 1, 243 + box_of(cell) * 9 + d - 1)
            for d in range(1, 10)]
    for cell in range(81)
]

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
        filled = [False] * 324
        for cell, d in enumerate(grid):
            if d:
                for key in COLUMN_KEYS[cell][d]:
                    filled[key] = True
        col_index = [0] * 324
        n = 0
        for key in range(324):
            if not filled[key]:
                n += 1
                col_index[key] = n
        # Matrix rows: the open candidates whose four constraints are all still open.
        rows: list[tuple[int, int]] = []
        cells = list(range(81))
        if rng is not None:
            rng.shuffle(cells)
        for cell in cells:
            if grid[cell]:
                continue
            mask = candidates[cell]
            digits = [d for d in range(1, 10) if mask >> (d - 1) & 1]
            if rng is not None:
                rng.shuffle(digits)
            for d in digits:
                k0, k1, k2, k3 = COLUMN_KEYS[cell][d]
                if not (filled[k1] or filled[k2] or filled[k3]):
                    rows.append((cell, d))
        # Links built in bulk: row k's four nodes are first + 4k .. first + 4k + 3.
        first = n + 1
        total = first + 4 * len(rows)
        L = list(range(-1, total - 1))
        R = list(range(1, total + 1))
        L[0], R[n] = n, 0
        C = list(range(n + 1)) + [0] * (4 * len(rows))
        row_of: list = [None] * (n + 1)
        for k, (cell, d) in enumerate(rows):
            node = first + 4 * k
            L[node], R[node + 3] = node + 3, node
            for i, key in enumerate(COLUMN_KEYS[cell][d]):
                C[node + i] = col_index[key]
            row_of.extend(((cell, d),) * 4)
        U = list(range(total))
        D = list(range(total))
        S = [0] * (n + 1)
        last = list(range(n + 1))  # the lowest node so far in each column
        for node in range(first, total):
            col = C[node]
            U[node] = last[col]
            D[last[col]] = node
            last[col] = node
            S[col] += 1
        for col in range(1, n + 1):
            U[col] = last[col]
            D[last[col]] = col
        self.L, self.R, self.U, self.D, self.C, self.S, self.row_of = L, R, U, D, C, S, row_of

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
