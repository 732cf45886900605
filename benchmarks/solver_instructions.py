"""Instructions the logical solver spends on the level sample, counted by cachegrind (deterministic speed).

Usage:
  python benchmarks/solver_instructions.py [--levels hard unfair extreme] [--puzzles 30]

For each level, the first --puzzles puzzles of that level in benchmarks/data/hodoku_levels.txt are solved
(`solve_puzzle`, as grading does) once and twice in two runs under ``valgrind --tool=cachegrind``; the
difference is one pass without the interpreter's start-up and imports. Wall times on a shared machine vary
by tens of percent between runs; these counts vary by a few millions, so a speed change to a finder can be
judged from one run. Runs use ``PYTHONHASHSEED=0`` and a warm-up process first (a module changed since the
last run is compiled then, not inside the counted runs). Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

LEVELS_FILE = Path(__file__).parent / "data" / "hodoku_levels.txt"


def solve_passes(level: str, puzzles: int, passes: int) -> None:
    """Solve the level's first `puzzles` puzzles `passes` times (the counted work)."""
    from snapsolve.solver.grid import parse_puzzle
    from snapsolve.solver.solve import solve_puzzle

    lines = [line.split() for line in LEVELS_FILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    chosen = [parse_puzzle(p) for p, lvl, *_ in lines if lvl == level][:puzzles]
    for _ in range(passes):
        for givens in chosen:
            solve_puzzle(givens)


def instructions(level: str, puzzles: int, passes: int) -> int:
    """Instructions of a process that solves the level's puzzles `passes` times (cachegrind's I refs)."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--inner",
        level,
        str(puzzles),
        str(passes),
    ]
    run = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode or not found:
        sys.exit(f"solver_instructions: valgrind failed: {run.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    if sys.argv[1:2] == ["--inner"]:
        solve_passes(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["hard", "unfair", "extreme"],
        choices=["easy", "medium", "hard", "unfair", "extreme"],
    )
    parser.add_argument("--puzzles", type=int, default=30, help="puzzles per level (the first N of the sample)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("solver_instructions: valgrind is not installed (apt-get install valgrind)")
    subprocess.run([sys.executable, __file__, "--inner", args.levels[0], "1", "1"], check=True)  # warm-up
    for level in args.levels:
        one = instructions(level, args.puzzles, 1)
        two = instructions(level, args.puzzles, 2)
        print(f"{level}: {(two - one) / 1e6:.0f}M instructions per pass over {args.puzzles} puzzles")


if __name__ == "__main__":
    main()
