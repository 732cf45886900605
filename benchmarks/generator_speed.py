"""Generator speed per level, and against hodoku-py's generator in the same run.

Usage:
  pip install -e '.[bench]'
  python benchmarks/generator_speed.py [--count 20] [--hodoku-count 5] [--hodoku-minutes 3]
                                       [--low-count 100] [--low-minutes 1]

Three measurements, each checked (exactly one solution by Dancing Links;
ours graded at the requested level):

1. Digging: a random complete grid dug to a minimal puzzle, no grading.
   Seconds per puzzle and the share with 22 or fewer givens, ours and
   hodoku-py's `SudokuGenerator.generate_sudoku(symmetric=False)` (its
   C-accelerated dig).
2. Minimal puzzles with 22 or fewer givens: ours by `minimal_puzzle(...,
   max_givens=22)` (dig, then `reduce_givens`), --low-count puzzles with
   median, 90th percentile, max and mean seconds; hodoku-py has no such
   option, so it digs again until a dig ends at 22 or fewer, for
   --low-minutes, and its mean seconds per such puzzle is total time over
   their number. The ratio compares the means.
3. Per level: puzzles per second from `generate` (ours) and hodoku-py's
   `Generator.generate` (up to --hodoku-count puzzles or --hodoku-minutes per
   level).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from snapsolve.solver.exact import search_solutions
from snapsolve.solver.generator import dig, generate, minimal_puzzle, random_solution
from snapsolve.solver.grading import LEVELS


def _givens(puzzle) -> int:
    return sum(1 for d in puzzle if d)


def _unique(puzzle) -> bool:
    return len(search_solutions(puzzle, limit=2)) == 1


def _parse(text: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in text]


def digging(args: argparse.Namespace, rng: random.Random, hodoku_dig) -> None:
    """Measurement 1: minimal puzzles dug from random grids, ours and hodoku-py's."""
    times, small = [], 0
    for _ in range(args.low_count):
        start = time.perf_counter()
        puzzle = dig(random_solution(rng), rng)
        times.append(time.perf_counter() - start)
        small += _givens(puzzle) <= 22
    print(
        f"digging, ours:      median {1000 * statistics.median(times):.1f} ms per minimal puzzle; "
        f"{small}/{len(times)} have 22 or fewer givens"
    )
    if hodoku_dig is not None:
        h_times, h_small = [], 0
        for _ in range(args.low_count):
            start = time.perf_counter()
            text = hodoku_dig.generate_sudoku(symmetric=False)
            h_times.append(time.perf_counter() - start)
            h_small += _givens(_parse(text)) <= 22
        print(
            f"digging, hodoku-py: median {1000 * statistics.median(h_times):.1f} ms per minimal puzzle; "
            f"{h_small}/{len(h_times)} have 22 or fewer givens"
        )


def few_givens(args: argparse.Namespace, rng: random.Random, hodoku_dig) -> None:
    """Measurement 2: minimal puzzles with 22 or fewer givens, ours and hodoku-py's (digging again)."""
    low = []
    for _ in range(args.low_count):
        start = time.perf_counter()
        solution = random_solution(rng)
        puzzle = None
        while puzzle is None:
            puzzle = minimal_puzzle(solution, rng, max_givens=22)
        low.append(time.perf_counter() - start)
        assert _givens(puzzle) <= 22 and search_solutions(puzzle, limit=2) == [solution]
    ours_mean = statistics.mean(low)
    print(
        f"\n22 or fewer givens, ours (dig + reduce_givens), {len(low)} puzzles: "
        f"median {1000 * statistics.median(low):.0f} ms, "
        f"90th percentile {1000 * sorted(low)[int(0.9 * len(low))]:.0f} ms, "
        f"max {1000 * max(low):.0f} ms, mean {1000 * ours_mean:.0f} ms"
    )
    if hodoku_dig is not None:
        found, digs = 0, 0
        begin = time.perf_counter()
        while time.perf_counter() - begin < 60 * args.low_minutes:
            puzzle = _parse(hodoku_dig.generate_sudoku(symmetric=False))
            digs += 1
            if _givens(puzzle) <= 22:
                found += 1
        spent = time.perf_counter() - begin
        if found:
            h_mean = spent / found
            print(
                f"22 or fewer givens, hodoku-py (dig until one is small): {found} of {digs} digs in {spent:.0f} s, "
                f"mean {1000 * h_mean:.0f} ms -> ours is {h_mean / ours_mean:.1f}x faster"
            )
        else:
            print(f"22 or fewer givens, hodoku-py: none in {digs} digs ({spent:.0f} s)")


def per_level(args: argparse.Namespace, hodoku, difficulty) -> None:
    """Measurement 3: puzzles per second of each level, ours and hodoku-py's."""
    print(f"\n{'level':>8} {'ours/s':>8} {'ours ms':>8} {'hodoku/s':>9} {'hodoku ms':>10} {'ratio':>7}")
    for level in LEVELS:
        per = []
        start = time.perf_counter()
        last = start
        for made in generate(level, args.count, seed=args.seed):
            now = time.perf_counter()
            per.append(now - last)
            last = now
            assert _unique(made.givens) and made.solution.level == level
        ours_rate = args.count / (time.perf_counter() - start)
        h_rate, h_ms = float("nan"), float("nan")
        if hodoku is not None and args.hodoku_count > 0:
            h_times = []
            begin = time.perf_counter()
            while len(h_times) < args.hodoku_count and time.perf_counter() - begin < 60 * args.hodoku_minutes:
                t = time.perf_counter()
                text = hodoku.generate(getattr(difficulty, level.upper()))
                h_times.append(time.perf_counter() - t)
                assert _unique(_parse(text))
            if h_times:
                h_rate = len(h_times) / sum(h_times)
                h_ms = 1000 * statistics.median(h_times)
        print(
            f"{level:>8} {ours_rate:>8.2f} {1000 * statistics.median(per):>8.0f} {h_rate:>9.2f} {h_ms:>10.0f} "
            f"{ours_rate / h_rate if h_rate == h_rate else float('nan'):>6.1f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="our puzzles per level")
    parser.add_argument("--hodoku-count", type=int, default=5, help="hodoku-py puzzles per level (0: skip)")
    parser.add_argument("--hodoku-minutes", type=float, default=3.0, help="hodoku-py time limit per level")
    parser.add_argument("--low-count", type=int, default=100, help="our puzzles with 22 or fewer givens")
    parser.add_argument("--low-minutes", type=float, default=1.0, help="hodoku-py digging time for those")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    try:
        from hodoku import DifficultyType, Generator
        from hodoku.generator import SudokuGenerator

        hodoku, hodoku_dig = Generator(), SudokuGenerator()
    except ImportError:
        hodoku = hodoku_dig = DifficultyType = None
        print("hodoku-py is not installed (pip install -e '.[bench]'): no comparison")

    rng = random.Random(args.seed)
    digging(args, rng, hodoku_dig)
    few_givens(args, rng, hodoku_dig)
    per_level(args, hodoku, DifficultyType)


if __name__ == "__main__":
    main()
