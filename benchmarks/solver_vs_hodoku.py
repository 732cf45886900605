"""Human-style solver against hodoku-py, measured in the same run.

Usage:
  pip install -e '.[bench]'
  python benchmarks/solver_vs_hodoku.py [--top1465 40] [--clue17 300] [--share 0] [--per-level 0]
                                        [--levels benchmarks/data/hodoku_levels.txt]

Reports, for our solver:
- share of top1465 and of a 17-clue sample solved without search, ms per puzzle;
and against hodoku-py (HoDoKu's Python port) on the same puzzles:
- grading time (ours: count solutions, solve logically, grade; hodoku-py:
  ``Solver.rate``), as the ratio of total times and the median per-puzzle ratio;
- per level of the level sample (hodoku-py's level), the same ratios and agreement;
- level agreement and the confusion table on the level sample (puzzles
  hodoku-py's own generator made at each level, see make_hodoku_levels.py)
  plus the top1465 sample, and how often the score is hodoku-py's to the point
  (the same steps, or steps of the same scores: the path as HoDoKu takes it).
Our times are the median of --runs runs per puzzle; hodoku-py runs once per
puzzle (it takes seconds on the hardest ones).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from snapsolve.solver.grid import parse_puzzle
from snapsolve.solver.solve import solve_puzzle

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def time_ours(puzzle: str, runs: int):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = solve_puzzle(parse_puzzle(puzzle))
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top1465", type=int, default=40, help="top1465 puzzles to compare (random sample)")
    parser.add_argument("--clue17", type=int, default=300, help="17-clue puzzles for the no-search share")
    parser.add_argument(
        "--share", type=int, default=0, help="top1465 puzzles for the no-search share (random sample; 0: all 1465)"
    )
    parser.add_argument("--levels", type=Path, default=Path(__file__).parent / "data" / "hodoku_levels.txt")
    parser.add_argument(
        "--per-level", type=int, default=0, help="take only the first N puzzles of each level from --levels (0: all)"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from hodoku import Solver

    rng = random.Random(args.seed)
    top = read_puzzles(SHARED / "top1465.txt")
    clue17 = rng.sample(read_puzzles(SHARED / "17clue.txt"), args.clue17)

    share = rng.sample(top, args.share) if args.share else top
    for name, lines in ((f"top1465 ({len(share)})", share), (f"17clue ({len(clue17)})", clue17)):
        if not lines:
            continue
        times, logical = [], 0
        for line in lines:
            t, result = time_ours(line, 1)
            times.append(t)
            logical += not result.needs_search
        print(
            f"{name}: solved without search {logical}/{len(lines)} ({100 * logical / len(lines):.1f}%), "
            f"mean {1000 * statistics.mean(times):.1f} ms, "
            f"median {1000 * statistics.median(times):.1f} ms per puzzle"
        )

    compare: list[tuple[str, str]] = [(p, "") for p in rng.sample(top, args.top1465)]
    if args.levels.exists():
        taken: Counter = Counter()
        for line in args.levels.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                puzzle, level = line.split()[:2]
                if not args.per_level or taken[level] < args.per_level:
                    taken[level] += 1
                    compare.append((puzzle, level))
    hodoku = Solver()
    rows = []
    for puzzle, _ in compare:
        ours_t, ours = time_ours(puzzle, args.runs)
        start = time.perf_counter()
        rating = hodoku.rate(puzzle)
        hod_t = time.perf_counter() - start
        rows.append((puzzle, ours.level, rating.level.name.lower(), ours_t, hod_t, ours.score, rating.score))
    print(
        f"\ncompared on {len(rows)} puzzles ({args.top1465} from top1465, "
        f"{len(rows) - args.top1465} from the level sample)"
    )
    if not rows:
        return
    total_ours, total_hod = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(
        f"grading time: ours {total_ours:.2f} s, hodoku-py {total_hod:.2f} s; "
        f"ratio of totals {total_hod / total_ours:.1f}x; median per-puzzle ratio "
        f"{statistics.median(r[4] / r[3] for r in rows):.1f}x"
    )
    for label, subset in (("top1465 sample", rows[: args.top1465]), ("level sample", rows[args.top1465 :])):
        if subset:
            o, h = sum(r[3] for r in subset), sum(r[4] for r in subset)
            agree = sum(r[1] == r[2] for r in subset)
            print(
                f"  {label}: {len(subset)} puzzles, ours {o:.2f} s, hodoku-py {h:.2f} s ({h / o:.1f}x), "
                f"level agreement {agree}/{len(subset)} ({100 * agree / len(subset):.1f}%)"
            )
    print("  per level (hodoku-py's level; level sample only): ratio of totals, median per-puzzle ratio")
    for level in LEVELS:
        subset = [r for r in rows[args.top1465 :] if r[2] == level]
        if subset:
            o, h = sum(r[3] for r in subset), sum(r[4] for r in subset)
            print(
                f"    {level:>8}: {len(subset):>3} puzzles, ours {o:.2f} s, hodoku-py {h:.2f} s, "
                f"ratio {h / o:.1f}x, median {statistics.median(r[4] / r[3] for r in subset):.1f}x, "
                f"agreement {sum(r[1] == r[2] for r in subset)}/{len(subset)}"
            )
    agree = sum(r[1] == r[2] for r in rows)
    print(f"level agreement overall: {agree}/{len(rows)} ({100 * agree / len(rows):.1f}%)")
    exact = sum(r[5] == r[6] for r in rows)
    print(
        f"same score as hodoku-py: {exact}/{len(rows)} ({100 * exact / len(rows):.1f}%); "
        f"mean score difference {statistics.mean(abs(r[5] - r[6]) for r in rows):.0f}"
    )
    table = Counter((r[2], r[1]) for r in rows)
    print("\nconfusion (rows: hodoku-py level, columns: ours)")
    print(f"{'':>9}" + "".join(f"{level:>9}" for level in LEVELS))
    for h in LEVELS:
        print(f"{h:>9}" + "".join(f"{table[(h, o)]:>9}" for o in LEVELS))


if __name__ == "__main__":
    main()
