"""Make the level-agreement sample: puzzles from hodoku-py's own generator at each level.

Usage:
  python benchmarks/make_hodoku_levels.py [--per-level 40] [--max-minutes 10] [-o benchmarks/data/hodoku_levels.txt]

hodoku-py (a benchmark-only dependency: pip install -e '.[bench]') generates
symmetric puzzles and rates them until one has the requested level; medium
puzzles can take a minute or more each, so the sample is made once and kept in
a file (one line per puzzle: 81 characters, a space, HoDoKu's level, a space,
its score), and each level stops after --max-minutes even when short of
--per-level puzzles. hodoku-py's generator takes no seed, so a rerun gives
other puzzles.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def main() -> None:
    from hodoku import DifficultyType, Generator, Solver

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=40)
    parser.add_argument("--max-minutes", type=float, default=10.0, help="time limit per level")
    parser.add_argument("-o", "--output", type=Path, default=Path(__file__).parent / "data" / "hodoku_levels.txt")
    args = parser.parse_args()
    generator, solver = Generator(), Solver()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w") as out:
        out.write("# puzzle hodoku_level hodoku_score; made by benchmarks/make_hodoku_levels.py with hodoku-py\n")
        for level in LEVELS:
            start = time.time()
            for i in range(args.per_level):
                if time.time() - start > 60 * args.max_minutes:
                    break
                puzzle = generator.generate(getattr(DifficultyType, level.upper()))
                rating = solver.rate(puzzle)
                out.write(f"{puzzle} {rating.level.name.lower()} {rating.score}\n")
                out.flush()
                print(f"{level} {i + 1}/{args.per_level} ({time.time() - start:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
