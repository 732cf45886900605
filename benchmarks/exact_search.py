"""Exact search side by side: both engines of the solver (pure Python) and the C extension exact-cover.

Usage:
  pip install -e '.[bench]'
  python benchmarks/exact_search.py [--n 1465] [--runs 5] [--textbook]

The engines (``snapsolve --search NAME``): ``bitmask``, solver/exact.py
(Algorithm X on candidate bitmasks, the default) and ``dlx``, solver/dlx.py
(Knuth's Dancing Links, the paper's linked lists). For each collection
(top1465, and the same number of 17-clue puzzles), each solver finds the
first solution of every puzzle and counts to two (what `solve_unique` does);
the figure is puzzles per second, the median over --runs runs, the solvers
alternating run by run so that all see the same machine load; the ratios
beside the exact-cover peer are taken run by run, then their median (less
noisy than a ratio of medians on a busy machine). exact-cover gets the same
matrix Dancing Links starts from: one row per candidate left by the givens,
one column per open constraint, built with NumPy (included in its time, as
building ours is included in ours); it counts to two with get_all_solutions
(max_count=2). Before anything is timed, both engines give the same unique
solution of every timed puzzle, and exact-cover the same first solution on
the first 50. With --textbook, the paper's search(k) as written
(`solver.dlx.search_textbook`, no singles propagated) joins the first-solution
runs. Times are CPU seconds of this process (time.process_time), not wall time.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from snapsolve.solver import dlx
from snapsolve.solver.exact import search_solutions
from snapsolve.solver.grid import box_of, initial_candidates, is_valid_solution, parse_puzzle

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script

#: Per candidate (cell * 9 + digit - 1), its four exact-cover columns, 0..323: cell, row-digit,
#: column-digit, box-digit. Shape (729, 4).
_COLUMNS = np.array(
    [
        (cell, 81 + cell // 9 * 9 + d, 162 + cell % 9 * 9 + d, 243 + box_of(cell) * 9 + d)
        for cell in range(81)
        for d in range(9)
    ],
    dtype=np.int64,
)


def _exact_cover_matrix(grid: list[int]) -> tuple[np.ndarray, list[int]]:
    """The matrix exact-cover gets (rows: candidates left by the givens; columns: open constraints), and per
    matrix row its candidate (cell * 9 + digit - 1)."""
    cands = initial_candidates(grid)
    rows = [cell * 9 + d for cell in range(81) if cands[cell] for d in range(9) if cands[cell] >> d & 1]
    filled = np.zeros(324, dtype=bool)
    for cell, v in enumerate(grid):
        if v:
            filled[_COLUMNS[cell * 9 + v - 1]] = True
    keep = np.flatnonzero(~filled)
    matrix = np.zeros((len(rows), 324), dtype=bool)
    idx = np.array(rows, dtype=np.int64)
    matrix[np.arange(len(rows))[:, None], _COLUMNS[idx]] = True
    return matrix[:, keep], rows


def exact_cover_solve(grid: list[int]) -> list[int]:
    """First solution with the exact-cover C extension."""
    import exact_cover

    matrix, rows = _exact_cover_matrix(grid)
    chosen = exact_cover.get_exact_cover(matrix)
    solution = list(grid)
    for r in chosen:
        solution[rows[r] // 9] = rows[r] % 9 + 1
    return solution


def exact_cover_count_two(grid: list[int]) -> int:
    """Solutions counted up to two with the exact-cover C extension (what `solve_unique` needs)."""
    import exact_cover

    return len(exact_cover.get_all_solutions(_exact_cover_matrix(grid)[0], max_count=2))


def rate(fn, grids) -> float:
    """Puzzles per second of this process's CPU time (time.process_time: on a machine shared with other
    jobs, wall time counts their work too; all solvers run in this one thread, so all are timed alike)."""
    start = time.process_time()
    for g in grids:
        fn(g)
    return len(grids) / (time.process_time() - start)


#: The timed solvers: name -> (first solution, count to two).
SOLVERS = {
    "bitmask": (lambda g: search_solutions(g, limit=1), lambda g: search_solutions(g, limit=2)),
    "dlx": (lambda g: dlx.search_solutions(g, limit=1), lambda g: dlx.search_solutions(g, limit=2)),
    "exact-cover": (exact_cover_solve, exact_cover_count_two),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1465, help="puzzles per collection")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--textbook",
        action="store_true",
        help="also time the paper's search(k) as written (solver.dlx.search_textbook), first solution",
    )
    args = parser.parse_args()
    collections = {
        "top1465": read_puzzles(SHARED / "top1465.txt")[: args.n],
        "17clue": read_puzzles(SHARED / "17clue.txt")[: args.n],
    }
    solvers = dict(SOLVERS)
    if args.textbook:
        solvers["textbook dlx"] = (lambda g: dlx.search_textbook(g, limit=1), None)
    for name, lines in collections.items():
        grids = [parse_puzzle(line) for line in lines]
        for g in grids:  # the engines answer alike before any is timed
            ours = search_solutions(g, limit=2)
            assert len(ours) == 1 and is_valid_solution(g, ours[0]) and dlx.search_solutions(g, limit=2) == ours
        for g in grids[:50]:
            assert exact_cover_solve(g) == search_solutions(g, limit=1)[0] and exact_cover_count_two(g) == 1
        first: dict[str, list[float]] = {s: [] for s in solvers}
        two: dict[str, list[float]] = {s: [] for s in solvers}
        for _ in range(args.runs):
            for solver, (find_first, count_two) in solvers.items():
                first[solver].append(rate(find_first, grids))
                if count_two is not None:
                    two[solver].append(rate(count_two, grids))
        print(f"{name} ({len(grids)} puzzles, median of {args.runs} runs, puzzles per CPU second):")
        peer_first, peer_two = first["exact-cover"], two["exact-cover"]
        for solver in solvers:
            f = statistics.median(first[solver])
            line = (
                f"  {solver:12s} first solution {f:7,.0f}/s "
                f"({statistics.median(a / b for a, b in zip(first[solver], peer_first)):.2f}x exact-cover)"
            )
            if two[solver]:
                t = statistics.median(two[solver])
                line += (
                    f"; counting to two {t:7,.0f}/s "
                    f"({statistics.median(a / b for a, b in zip(two[solver], peer_two)):.2f}x exact-cover), "
                    f"time ratio two/first {f / t:.2f}"
                )
            print(line)
        ratio = statistics.median(a / b for a, b in zip(first["bitmask"], first["dlx"]))
        ratio_two = statistics.median(a / b for a, b in zip(two["bitmask"], two["dlx"]))
        print(f"  bitmask/dlx: {ratio:.2f}x first solution, {ratio_two:.2f}x counting to two")


if __name__ == "__main__":
    main()
