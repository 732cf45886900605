"""Synthetic stress set: rendered puzzles in varied fonts, line widths and sizes, distorted like photos.

Usage: python benchmarks/stress.py [--per-level 40] [--seed 5]

For each distortion level (synthetic.LEVELS: perspective, shadow, blur,
noise, JPEG), renders --per-level puzzles from the shared 17-clue and top1465
collections in a random font, cell size and line widths, reads them with the
full pipeline and consistency repair, and reports: photos read with zero
wrong cells, cell error, grids found, status counts, and confident wrong
answers (status solved with a solution that is not the true one: must be 0).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import numpy as np

from snapsolve.pipeline import default_model, read_grids
from snapsolve.repair import choose_reading
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import parse_puzzle
from snapsolve.vision.render import render_puzzle

from puzzle_files import SHARED  # benchmarks/puzzle_files.py, beside this script
from synthetic import LEVELS, distort  # benchmarks/synthetic.py, beside this script


def fonts() -> list:
    try:
        from snapsolve.vision.training import font_files

        return [None] + font_files()
    except ImportError:
        return [None]


def puzzle_photo(
    lines: list[str],
    font_list: list,
    level: int,
    rng: np.random.Generator,
    pick: random.Random,
    strength: tuple[float, float, float, float, int] | None = None,
) -> tuple[list[int], np.ndarray]:
    """A random puzzle of `lines` rendered in a random face, cell size (32-63 px) and line widths, photographed.

    Returns the givens (81 values) and the photo (480, 640, 3) uint8 BGR (`synthetic.distort` at `level`, or
    at `strength` when given). The draws from `rng` and `pick` are made in a fixed order, so a seed gives the
    same photos.
    """
    givens = parse_puzzle(pick.choice(lines))
    page, corners = render_puzzle(
        givens,
        cell=int(rng.integers(32, 64)),
        thin=int(rng.integers(1, 3)),
        thick=int(rng.integers(2, 7)),
        font_path=pick.choice(font_list),
    )
    photo, _ = distort(page, corners, level, rng, strength=strength)
    return givens, photo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    pick = random.Random(args.seed)
    lines = [
        line.strip()[:81]
        for name in ("17clue.txt", "top1465.txt")
        for line in (SHARED / name).read_text().splitlines()[:3000]
        if line.strip() and not line.startswith("#")
    ]
    font_list = fonts()
    model = default_model()
    print(
        f"{'level':>5} {'photos':>6} {'perfect':>8} {'cell err':>9} {'no grid':>8} {'solved':>7} "
        f"{'unsure':>7} {'other':>6} {'conf. wrong':>12}"
    )
    for level in LEVELS:
        perfect = wrong_cells = no_grid = confident_wrong = 0
        statuses: Counter = Counter()
        for _ in range(args.per_level):
            givens, photo = puzzle_photo(lines, font_list, level, rng, pick)
            readings = read_grids(photo, model)
            if not readings:
                no_grid += 1
                wrong_cells += sum(1 for d in givens if d)
                continue
            digits = readings[0].givens
            errors = sum(1 for a, b in zip(digits, givens) if a != b)
            wrong_cells += errors
            perfect += errors == 0
            decision = choose_reading(readings[0].given_probabilities)
            status = decision.status
            statuses[status] += 1
            if status == "solved" and decision.solution != solve_unique(givens).solution:
                confident_wrong += 1
        n = args.per_level
        other = n - no_grid - statuses["solved"] - statuses["unsure"]
        print(
            f"{level:>5} {n:>6} {100 * perfect / n:>7.1f}% {100 * wrong_cells / (81 * n):>8.2f}% {no_grid:>8} "
            f"{statuses['solved']:>7} {statuses['unsure']:>7} {other:>6} {confident_wrong:>12}"
        )


if __name__ == "__main__":
    main()
