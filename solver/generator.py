"""Generate puzzles with exactly one solution at a chosen difficulty level.

A random complete grid (Dancing Links with shuffled candidate order) has
givens removed in random order (in 180-degree-symmetric pairs on request)
while Dancing Links still counts exactly one solution: one pass over the cells
leaves a minimal puzzle, since removing a given never removes solutions. The
puzzle is then graded; one that grades harder than requested gets givens of
its solution back, most helpful first, until it grades at the requested
level (no longer minimal), and one that grades easier is dropped. With
``minimal=True`` only minimal puzzles at the level are kept. The same seed
gives the same puzzles.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .dlx import search_solutions
from .grading import LEVELS, TECHNIQUES
from .solve import Solution, solve_puzzle


@dataclass(frozen=True)
class Generated:
    """A generated puzzle.

    Attributes
    ----------
    givens : list of int
        81 values, 0 for empty.
    solution : Solution
        Its unique solution, steps and grade.
    """

    givens: list[int]
    solution: Solution


def random_solution(rng: random.Random) -> list[int]:
    """A uniformly shuffled complete grid (81 values, 1..9)."""
    return search_solutions([0] * 81, limit=1, rng=rng)[0]


def _unique(grid: list[int]) -> bool:
    return len(search_solutions(grid, limit=2)) == 1


def dig(solution: list[int], rng: random.Random, symmetric: bool = False) -> list[int]:
    """Remove givens from a complete grid while the solution stays unique; the result is minimal
    (for symmetric digging: no symmetric pair can be removed)."""
    puzzle = list(solution)
    cells = list(range(81 if not symmetric else 41))
    rng.shuffle(cells)
    for cell in cells:
        group = {cell, 80 - cell} if symmetric else {cell}
        saved = {c: puzzle[c] for c in group}
        for c in group:
            puzzle[c] = 0
        if not _unique(puzzle):
            for c, v in saved.items():
                puzzle[c] = v
    return puzzle


def reduce_givens(puzzle: list[int], solution: list[int], rng: random.Random, max_givens: int,
                  max_moves: int = 400) -> list[int] | None:
    """Local search from a minimal puzzle towards one with at most `max_givens` givens.

    A move swaps a random given for a random empty cell's true digit; when
    the result still has one solution, every given is tried for removal again
    (in random order), and the result is kept unless it has more givens than
    before. Digging alone ends at 22 or fewer givens for about 3% of grids;
    these moves get there in a fraction of a second.

    Returns
    -------
    list of int or None
        A minimal puzzle with at most `max_givens` givens, or None after
        `max_moves` moves.
    """
    current = list(puzzle)
    count = sum(1 for d in current if d)
    for _ in range(max_moves):
        if count <= max_givens:
            return current
        given = rng.choice([i for i in range(81) if current[i]])
        empty = rng.choice([i for i in range(81) if not current[i]])
        trial = list(current)
        trial[given], trial[empty] = 0, solution[empty]
        if not _unique(trial):
            continue
        order = [i for i in range(81) if trial[i]]
        rng.shuffle(order)
        for i in order:
            saved, trial[i] = trial[i], 0
            if not _unique(trial):
                trial[i] = saved
        trial_count = sum(1 for d in trial if d)
        if trial_count <= count:
            current, count = trial, trial_count
    return current if count <= max_givens else None


def _ease(puzzle: list[int], solution: list[int], level: str, rng: random.Random,
          symmetric: bool) -> Generated | None:
    """Give back givens until the puzzle grades no harder than `level`; None if it skips past it."""
    target = LEVELS.index(level)
    current = list(puzzle)
    graded = solve_puzzle(current)
    while LEVELS.index(graded.level) > target:
        # Give back the cell whose digit the hardest step of the path was about.
        empty = [c for c in range(81) if not current[c]]
        hard_step = max(graded.steps, key=lambda s: _step_rank(s.technique), default=None)
        focus = [c for c, _ in (hard_step.placements + hard_step.eliminations)] if hard_step else []
        choices = [c for c in focus if not current[c]] or empty
        cell = rng.choice(choices)
        for c in ({cell, 80 - cell} if symmetric else {cell}):
            current[c] = solution[c]
        graded = solve_puzzle(current)
    if graded.level != level:
        return None
    return Generated(current, graded)


def _step_rank(technique: str) -> int:
    return LEVELS.index(TECHNIQUES[technique][1]) * 10000 + TECHNIQUES[technique][0]


def generate(level: str, count: int, seed: int | None = None, symmetric: bool = False,
             minimal: bool = False, max_givens: int | None = None,
             max_tries: int = 100000) -> Iterator[Generated]:
    """Generate `count` puzzles that grade at `level`.

    Parameters
    ----------
    level : str
        One of easy, medium, hard, unfair, extreme.
    count : int
        Puzzles to yield.
    seed : int, optional
        Random seed; the same seed gives the same puzzles.
    symmetric : bool
        Givens symmetric under a half turn of the grid.
    minimal : bool
        Only minimal puzzles (no given can be removed).
    max_givens : int, optional
        At most this many givens (reached by `reduce_givens`; not with
        `symmetric`).
    max_tries : int
        Complete grids to try before giving up.

    Yields
    ------
    Generated

    Raises
    ------
    ValueError
        Unknown level.
    RuntimeError
        `max_tries` grids gave too few puzzles at the level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = random.Random(seed)
    made = 0
    for _ in range(max_tries):
        if made == count:
            return
        solution = random_solution(rng)
        puzzle = dig(solution, rng, symmetric)
        if max_givens is not None:
            if symmetric:
                raise ValueError("max_givens does not combine with symmetric")
            puzzle = reduce_givens(puzzle, solution, rng, max_givens)
            if puzzle is None:
                continue
        if minimal:
            graded = solve_puzzle(puzzle)
            result = Generated(puzzle, graded) if graded.level == level else None
        else:
            result = _ease(puzzle, solution, level, rng, symmetric)
        if result is not None and (max_givens is None or sum(1 for d in result.givens if d) <= max_givens):
            made += 1
            yield result
    if made < count:
        raise RuntimeError(f"made only {made} of {count} {level} puzzles in {max_tries} tries")
