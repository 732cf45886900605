"""Generator speed per level, and against hodoku-py's generator in the same run.

Usage:
  pip install -e '.[bench]'
  python benchmarks/generator_speed.py [--count 20] [--hodoku-count 5] [--hodoku-minutes 3]

Reports for our generator: puzzles per second at each level (median over the
puzzles of seconds per puzzle as well), and for plain digging (a random grid
dug to a minimal puzzle, no grading) the seconds per puzzle and the share with
22 or fewer givens. hodoku-py's `Generator.generate` runs at each level in the
same process, up to --hodoku-count puzzles or --hodoku-minutes per level.
Every generated puzzle is checked to have exactly one solution and (ours) to
grade at the requested level.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.dlx import search_solutions
from solver.generator import dig, generate, minimal_puzzle, random_solution
from solver.grading import LEVELS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--hodoku-count", type=int, default=5)
    parser.add_argument("--hodoku-minutes", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    times, small = [], 0
    for _ in range(args.count * 5):
        start = time.perf_counter()
        puzzle = dig(random_solution(rng), rng)
        times.append(time.perf_counter() - start)
        small += sum(1 for d in puzzle if d) <= 22
    print(f"digging to a minimal puzzle: median {1000 * statistics.median(times):.0f} ms, "
          f"max {1000 * max(times):.0f} ms; {small}/{len(times)} have 22 or fewer givens")
    low = []
    for _ in range(args.count):
        start = time.perf_counter()
        solution = random_solution(rng)
        puzzle = None
        while puzzle is None:
            puzzle = minimal_puzzle(solution, rng, max_givens=22)
        low.append(time.perf_counter() - start)
        assert sum(1 for d in puzzle if d) <= 22 and len(search_solutions(puzzle, limit=2)) == 1
    print(f"a minimal puzzle with 22 or fewer givens (dig + reduce_givens): median {1000 * statistics.median(low):.0f} ms, "
          f"90th percentile {1000 * sorted(low)[int(0.9 * len(low))]:.0f} ms, max {1000 * max(low):.0f} ms "
          f"over {len(low)} puzzles")

    try:
        from hodoku import DifficultyType, Generator
        hodoku = Generator()
    except ImportError:
        hodoku = None
        print("hodoku-py is not installed (pip install -e '.[bench]'): no comparison")
    print(f"\n{'level':>8} {'ours/s':>8} {'ours ms':>8} {'hodoku/s':>9} {'hodoku ms':>10} {'ratio':>7}")
    for level in LEVELS:
        per = []
        start = time.perf_counter()
        last = start
        for made in generate(level, args.count, seed=args.seed):
            now = time.perf_counter()
            per.append(now - last)
            last = now
            assert len(search_solutions(made.givens, limit=2)) == 1 and made.solution.level == level
        ours_rate = args.count / (time.perf_counter() - start)
        h_rate, h_ms = float("nan"), float("nan")
        if hodoku is not None:
            h_times = []
            begin = time.perf_counter()
            while len(h_times) < args.hodoku_count and time.perf_counter() - begin < 60 * args.hodoku_minutes:
                t = time.perf_counter()
                puzzle = hodoku.generate(getattr(DifficultyType, level.upper()))
                h_times.append(time.perf_counter() - t)
                grid = [0 if ch in ".0" else int(ch) for ch in puzzle]
                assert len(search_solutions(grid, limit=2)) == 1
            if h_times:
                h_rate = len(h_times) / sum(h_times)
                h_ms = 1000 * statistics.median(h_times)
        print(f"{level:>8} {ours_rate:>8.2f} {1000 * statistics.median(per):>8.0f} {h_rate:>9.2f} {h_ms:>10.0f} "
              f"{ours_rate / h_rate if h_rate == h_rate else float('nan'):>6.1f}x")


if __name__ == "__main__":
    main()
