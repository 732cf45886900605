"""Dump the full solution paths of a fixed puzzle set, or compare them with an earlier dump.

Usage:
  python benchmarks/step_paths.py --write /tmp/paths_base.txt      # on the reference commit
  python benchmarks/step_paths.py --compare /tmp/paths_base.txt    # after a change: must say "identical"

The set: every puzzle of benchmarks/data/hodoku_levels.txt, then the first --top1465 of top1465, the first
--clue17 of the 17-clue list and the first --hardest of the forum's hardest list (/work/shared/puzzles).
Each puzzle gives one line per step (technique, placements, eliminations, cells, houses, text) after a line
with its status, level, score and whether it needed search: a speed change to the solver must leave every
line as it was. Puzzles are solved in --jobs processes.

Chain searches that run out of their budget (`chains.SIMPLE_CHAIN_BUDGET`) give up on one chain and may change
a path: after writing or comparing, a summary line says how many did and in how many puzzles
(`Solution.budget_exhausted`). It is not part of the dumped paths, so dumps from before it compare alike.
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

from snapsolve.solver.grid import parse_puzzle
from snapsolve.solver.solve import solve_puzzle

from puzzle_files import SHARED, read_puzzles  # benchmarks/puzzle_files.py, beside this script

LEVELS_FILE = Path(__file__).parent / "data" / "hodoku_levels.txt"


def puzzle_set(top1465: int, clue17: int, hardest: int) -> list[str]:
    """The puzzles whose paths are dumped, in a fixed order."""
    return (
        read_puzzles(LEVELS_FILE)
        + read_puzzles(SHARED / "top1465.txt")[:top1465]
        + read_puzzles(SHARED / "17clue.txt")[:clue17]
        + read_puzzles(SHARED / "forum_hardest_1106_part.txt")[:hardest]
    )


def path_text(puzzle: str) -> tuple[str, int]:
    """The puzzle's solution path as text (a header line, then one line per step), and how many of its chain
    searches ran out of their budget."""
    result = solve_puzzle(parse_puzzle(puzzle))
    lines = [f"{puzzle} {result.status} {result.level} {result.score} search={result.needs_search}"]
    lines += [f"  {s.technique} {s.placements} {s.eliminations} {s.cells} {s.houses} {s.text}" for s in result.steps]
    return "\n".join(lines), result.budget_exhausted


def budget_line(exhausted: list[int]) -> str:
    """The summary of the chain searches that ran out of their budget, one count per puzzle."""
    hit = sum(n > 0 for n in exhausted)
    return f"chain search budget exhausted: {sum(exhausted)} searches in {hit} of {len(exhausted)} puzzles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="dump the paths to this file")
    action.add_argument("--compare", type=Path, help="compare the paths with this dump")
    parser.add_argument("--top1465", type=int, default=100)
    parser.add_argument("--clue17", type=int, default=100)
    parser.add_argument("--hardest", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    puzzles = puzzle_set(args.top1465, args.clue17, args.hardest)
    with Pool(args.jobs) as pool:
        paths, exhausted = zip(*pool.map(path_text, puzzles, chunksize=4))
    print(budget_line(list(exhausted)))
    if args.write:
        args.write.write_text("\n".join(paths) + "\n")
        print(f"wrote the paths of {len(paths)} puzzles to {args.write}")
        return
    reference = args.compare.read_text().rstrip("\n").split("\n")
    ours = "\n".join(paths).split("\n")
    if ours == reference:
        print(f"identical: {len(paths)} puzzles, {sum(line.startswith('  ') for line in ours)} steps")
        return
    first = next((i for i, (a, b) in enumerate(zip(ours, reference)) if a != b), min(len(ours), len(reference)))
    print(
        f"DIFFERENT from line {first + 1}:\n  was: {reference[first] if first < len(reference) else '(end)'}\n"
        f"  now: {ours[first] if first < len(ours) else '(end)'}"
    )
    sys.exit(1)


if __name__ == "__main__":
    main()
