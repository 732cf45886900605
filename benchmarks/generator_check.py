"""Check generated puzzles in bulk: every one unique and graded at the requested level.

Usage: python benchmarks/generator_check.py [--count 200] [--levels easy medium hard unfair extreme] [--seed 100]
                                           [--max-givens N] [--minimal] [--symmetric]

Generates --count puzzles per level, counts solutions of each with Dancing
Links (independently of the generator's own check) and grades each again.
Prints per level: puzzles, unique, at the level, givens (min/median/max),
seconds per puzzle (median).
"""

from __future__ import annotations

import argparse
import statistics
import time

from snapsolve.solver.exact import search_solutions
from snapsolve.solver.generator import generate
from snapsolve.solver.grading import LEVELS
from snapsolve.solver.solve import solve_puzzle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--levels", nargs="+", default=LEVELS, choices=LEVELS)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--max-givens", type=int, help="passed to generate (e.g. 22)")
    parser.add_argument("--minimal", action="store_true", help="passed to generate")
    parser.add_argument("--symmetric", action="store_true", help="passed to generate")
    args = parser.parse_args()
    for level in args.levels:
        unique = at_level = within = 0
        givens, seconds = [], []
        last = time.perf_counter()
        for made in generate(
            level,
            args.count,
            seed=args.seed,
            symmetric=args.symmetric,
            minimal=args.minimal,
            max_givens=args.max_givens,
        ):
            now = time.perf_counter()
            seconds.append(now - last)
            unique += len(search_solutions(made.givens, limit=2)) == 1
            at_level += solve_puzzle(made.givens).level == level
            givens.append(sum(1 for d in made.givens if d))
            within += args.max_givens is None or givens[-1] <= args.max_givens
            last = time.perf_counter()
        print(
            f"{level}: {args.count} puzzles, {unique} unique, {at_level} at the level, givens "
            f"{min(givens)}/{statistics.median(givens):.0f}/{max(givens)} (min/median/max), "
            f"{within} within --max-givens, "
            f"seconds per puzzle median {statistics.median(seconds):.2f}, "
            f"90th percentile {sorted(seconds)[int(0.9 * len(seconds))]:.2f}, max {max(seconds):.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
