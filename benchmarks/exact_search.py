"""Exact search side by side: our Dancing Links (solver/dlx.py, pure Python) and the C extension exact-cover.

Usage:
  pip install -e '.[bench]'
  python benchmarks/exact_search.py [--n 1465] [--runs 5] [--links]

For each collection (top1465, and the same number of 17-clue puzzles), both
solvers find the first solution of every puzzle; the figure is puzzles per
second, the median over --runs runs, the two solvers alternating run by run
so that both see the same machine load. Ours also counts to two (what
`solve_unique` does) and the ratio of that time to the first-solution time is
printed. exact-cover gets the same matrix Dancing Links starts from: one row
per candidate left by the givens, one column per open constraint, built with
NumPy (included in its time, as building ours is included in ours).
Times are CPU seconds of this process (time.process_time), not wall time.

With --links, a third solver joins the same runs: textbook Dancing Links in
pure Python (benchmarks/dancing_links.py: the paper's linked lists in flat
lists, cover/uncover, singles propagated, S heuristic), first solution and
counting to two; exact-cover then also counts to two (get_all_solutions with
max_count=2). It answers the same as ours on every timed puzzle before either
is timed. Off by default: it roughly doubles the run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from snapsolve.solver.dlx import search_solutions
from snapsolve.solver.grid import box_of, initial_candidates, is_valid_solution, parse_puzzle
from dancing_links import search_links  # benchmarks/dancing_links.py, beside this script
from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script

#: Per candidate (cell * 9 + digit - 1), its four exact-cover columns, 0..323: cell, row-digit,
#: column-digit, box-digit. Shape (729, 4).
_COLUMNS = np.array([(cell, 81 + cell // 9 * 9 + d, 162 + cell % 9 * 9 + d, 243 + box_of(cell) * 9 + d)
                     for cell in range(81) for d in range(9)], dtype=np.int64)


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
    jobs, wall time counts their work too; both solvers run in this one thread, so both are timed alike)."""
    start = time.process_time()
    for g in grids:
        fn(g)
    return len(grids) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1465, help="puzzles per collection")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--links", action="store_true",
                        help="also time textbook Dancing Links in pure Python (benchmarks/dancing_links.py) and "
                             "exact-cover counting to two")
    args = parser.parse_args()
    collections = {"top1465": read_puzzles(SHARED / "top1465.txt")[: args.n],
                   "17clue": read_puzzles(SHARED / "17clue.txt")[: args.n]}
    for name, lines in collections.items():
        grids = [parse_puzzle(l) for l in lines]
        for g in grids[:50]:  # both answer right before either is timed
            ours, theirs = search_solutions(g, limit=1)[0], exact_cover_solve(g)
            assert ours == theirs and is_valid_solution(g, ours)
        if args.links:  # every timed puzzle: the same unique solution, and exact-cover counts one
            for g in grids:
                ours = search_solutions(g, limit=2)
                assert len(ours) == 1 and search_links(g, 1) == ours and search_links(g, 2) == ours
            assert all(exact_cover_count_two(g) == 1 for g in grids[:50])
        ours_first, ours_two, theirs = [], [], []
        links_first, links_two, theirs_two = [], [], []
        for _ in range(args.runs):
            ours_first.append(rate(lambda g: search_solutions(g, limit=1), grids))
            theirs.append(rate(exact_cover_solve, grids))
            ours_two.append(rate(lambda g: search_solutions(g, limit=2), grids))
            if args.links:
                links_first.append(rate(lambda g: search_links(g, 1), grids))
                theirs_two.append(rate(exact_cover_count_two, grids))
                links_two.append(rate(lambda g: search_links(g, 2), grids))
        f, t, two = statistics.median(ours_first), statistics.median(theirs), statistics.median(ours_two)
        print(f"{name} ({len(grids)} puzzles, median of {args.runs} runs): first solution ours {f:,.0f}/s, "
              f"exact-cover {t:,.0f}/s (ours/theirs {f / t:.2f}x); counting to two ours {two:,.0f}/s, "
              f"time ratio two/first {f / two:.2f}")
        if args.links:
            lf, lt, tt = statistics.median(links_first), statistics.median(links_two), statistics.median(theirs_two)
            # same-run ratios, run by run, then their median (less noisy than a ratio of medians on a busy machine)
            r_first = statistics.median(o / l for o, l in zip(ours_first, links_first))
            r_ec = statistics.median(e / l for e, l in zip(theirs, links_first))
            r_two = statistics.median(o / l for o, l in zip(ours_two, links_two))
            r_ec_two = statistics.median(e / l for e, l in zip(theirs_two, links_two))
            print(f"  textbook links (benchmarks/dancing_links.py): first solution {lf:,.0f}/s "
                  f"(ours/links {r_first:.2f}x, exact-cover/links {r_ec:.2f}x); counting to two {lt:,.0f}/s "
                  f"(ours {two:,.0f}/s, {r_two:.2f}x; exact-cover {tt:,.0f}/s, {r_ec_two:.2f}x); "
                  f"time ratio two/first links {lf / lt:.2f}, exact-cover {t / tt:.2f}")


if __name__ == "__main__":
    main()
