"""Generate puzzles with exactly one solution at a chosen difficulty level.

A random complete grid (exact search with shuffled candidate order) has
givens removed in random order (in 180-degree-symmetric pairs on request)
while the exact search still counts exactly one solution: one pass over the cells
leaves a minimal puzzle, since removing a given never removes solutions. The
puzzle is then graded; one that grades harder than requested gets givens of
its solution back, most helpful first, until it grades at the requested
level (no longer minimal), and one that grades easier is dropped. With
``minimal=True`` only minimal puzzles at the level are kept. With
``max_givens`` a local search (`reduce_givens`) trades givens until a minimal
puzzle has at most that many. The same seed gives the same puzzles.

Each uniqueness test asks a narrower question than "how many solutions?":
is there a second solution that differs from the known one in the cells
just emptied (`alternative_solution`)? Singles among the remaining givens
answer it for most cells while digging; otherwise the exact search looks for
such a grid and stops at the first. The grid it finds (a witness) is kept:
it proves its given cannot go until a new given contradicts it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import Failure, Kind
from .exact import search_solutions
from .grid import ALL_DIGITS, HOUSES, HOUSES_OF_CELL, box_of, initial_candidates
from .solve import Solution, solve_puzzle
from .techniques import LEVELS, Level, rank


class GenerationFailed(Failure, RuntimeError):
    """Too few puzzles at the level in the tries allowed (`Kind.NOT_REACHED`)."""

    kind = Kind.NOT_REACHED


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


def alternative_solution(puzzle: list[int], solution: list[int], cells: list[int]) -> list[int] | None:
    """A second solution that appears once `cells` are emptied, or None if the solution stays unique.

    Only grids that differ from `solution` in at least one of `cells` can be
    new solutions (every other grid was already ruled out by the givens that
    stay), so the search is restricted: for the k-th cell of `cells`, the
    cells before it keep their digit, it takes any other digit, and the ones
    after it are free. Each restricted search stops at its first solution.
    This is cheaper than counting solutions to two, which must first walk to
    `solution` itself. Before any search, a cell that is a naked or hidden
    single among the givens left is put straight back: most removals while
    digging are settled that way.

    Parameters
    ----------
    puzzle : list of int
        81 values, 0 for empty; `solution` is its unique solution.
    solution : list of int
        81 values 1..9.
    cells : list of int
        Givens of `puzzle` to empty (indices 0..80).

    Returns
    -------
    list of int or None
        A complete grid that solves `puzzle` without `cells` and is not
        `solution` (a witness that the cells cannot all go), or None.
    """
    if _put_back_by_singles(puzzle, solution, cells):
        return None
    for k, cell in enumerate(cells):
        grid = list(puzzle)
        for c in cells[k:]:
            grid[c] = 0
        candidates = initial_candidates(grid)
        candidates[cell] &= ~(1 << (solution[cell] - 1))
        found = search_solutions(grid, candidates, limit=1)
        if found:
            return found[0]
    return None


def _put_back_by_singles(puzzle: list[int], solution: list[int], cells: list[int]) -> bool:
    """Whether naked and hidden singles, judged from the givens alone, refill all of `cells` once emptied."""
    rows, columns, boxes = [0] * 9, [0] * 9, [0] * 9
    empty = set(cells)
    for cell, d in enumerate(puzzle):
        if d and cell not in empty:
            bit = 1 << (d - 1)
            rows[cell // 9] |= bit
            columns[cell % 9] |= bit
            boxes[box_of(cell)] |= bit

    def seen(cell: int) -> int:
        return rows[cell // 9] | columns[cell % 9] | boxes[box_of(cell)]

    pending = list(cells)
    while pending:
        for cell in pending:
            bit = 1 << (solution[cell] - 1)
            forced = seen(cell) | bit == ALL_DIGITS or any(
                all(e == cell or (puzzle[e] and e not in empty) or seen(e) & bit for e in HOUSES[house])
                for house in HOUSES_OF_CELL[cell]
            )
            if forced:
                rows[cell // 9] |= bit
                columns[cell % 9] |= bit
                boxes[box_of(cell)] |= bit
                empty.discard(cell)
                pending.remove(cell)
                break
        else:
            return False
    return True


def dig(solution: list[int], rng: random.Random, symmetric: bool = False) -> list[int]:
    """Remove givens from a complete grid while the solution stays unique; the result is minimal
    (for symmetric digging: no symmetric pair can be removed).

    Parameters
    ----------
    solution : list of int
        A complete grid, 81 values 1..9.
    rng : random.Random
        Decides the order in which cells are tried.
    symmetric : bool
        Remove cells in pairs symmetric under a half turn.

    Returns
    -------
    list of int
        81 values, 0 for empty, with `solution` as the only solution.
    """
    return _dig(solution, rng, symmetric)[0]


def _dig(solution: list[int], rng: random.Random, symmetric: bool) -> tuple[list[int], dict[int, list[int]]]:
    """`dig`, also returning for each given (when not symmetric) the witness that kept it."""
    puzzle = list(solution)
    witnesses: dict[int, list[int]] = {}
    cells = list(range(81 if not symmetric else 41))
    rng.shuffle(cells)
    for cell in cells:
        group = sorted({cell, 80 - cell}) if symmetric else [cell]
        witness = alternative_solution(puzzle, solution, group)
        if witness is None:
            for c in group:
                puzzle[c] = 0
        elif not symmetric:
            witnesses[cell] = witness
    return puzzle, witnesses


def _witnesses(puzzle: list[int], solution: list[int], known: dict[int, list[int]]) -> dict[int, list[int]]:
    """`known` completed with a witness for each given of `puzzle` it lacks: {given: a second solution of
    the puzzle without it}.

    Raises
    ------
    ValueError
        A given has no witness: `puzzle` is not minimal.
    """
    for g in range(81):
        if puzzle[g] and g not in known:
            witness = alternative_solution(puzzle, solution, [g])
            if witness is None:
                raise ValueError("reduce_givens needs a minimal puzzle")
            known[g] = witness
    return known


def _remove_unneeded(
    trial: list[int], solution: list[int], witnesses: dict[int, list[int]], rng: random.Random
) -> None:
    """Each given of `trial` without a witness, in random order, removed when the puzzle keeps one solution
    without it, else given the witness found; `trial` and `witnesses` changed in place."""
    order = [i for i in range(81) if trial[i]]
    rng.shuffle(order)
    for i in order:
        if i in witnesses:
            continue
        found = alternative_solution(trial, solution, [i])
        if found is None:
            trial[i] = 0
        else:
            witnesses[i] = found


def reduce_givens(
    puzzle: list[int],
    solution: list[int],
    rng: random.Random,
    max_givens: int,
    max_moves: int = 400,
    witnesses: dict[int, list[int]] | None = None,
) -> list[int] | None:
    """Local search from a minimal puzzle towards one with at most `max_givens` givens.

    Every given `g` of a minimal puzzle has a witness: a second solution
    of the puzzle without `g`. A move swaps a given `g` for the true digit of
    an empty cell where g's witness differs from the solution (any other
    cell would leave that witness standing, so the swap could not keep the
    solution unique); when the result still has one solution, every given
    is tried for removal again, in random order, and the result is kept
    unless it has more givens than before. A witness stays valid while
    givens are only removed, and after a new given `e` as long as it agrees
    with the solution at `e`, so most re-tests need no search at all.
    Digging alone ends at 22 or fewer givens for only 3-5% of grids.

    Parameters
    ----------
    puzzle : list of int
        A minimal puzzle, 81 values, 0 for empty.
    solution : list of int
        Its unique solution.
    rng : random.Random
        Picks the moves.
    max_givens : int
        Stop once the puzzle has this many givens or fewer.
    max_moves : int
        Give up after this many moves.
    witnesses : dict, optional
        Known witnesses {given: second solution without it}, for example
        from digging; the missing ones are searched for.

    Returns
    -------
    list of int or None
        A minimal puzzle with at most `max_givens` givens, or None after
        `max_moves` moves.

    Raises
    ------
    ValueError
        `puzzle` is not minimal.
    """
    current = list(puzzle)
    witnesses = _witnesses(current, solution, dict(witnesses or {}))
    count = len(witnesses)
    for _ in range(max_moves):
        if count <= max_givens:
            return current
        given = rng.choice(sorted(witnesses))
        witness = witnesses[given]
        targets = [i for i in range(81) if not current[i] and witness[i] != solution[i]]
        empty = rng.choice(targets)
        trial = list(current)
        trial[empty] = solution[empty]
        # The witness of every other given stays valid if it agrees with the solution at `empty`.
        trial_witnesses = {g: w for g, w in witnesses.items() if g != given and w[empty] == solution[empty]}
        blocker = alternative_solution(trial, solution, [given])
        if blocker is not None:
            witnesses[given] = blocker  # a witness for `given` that survives this `empty`; try elsewhere
            continue
        trial[given] = 0
        _remove_unneeded(trial, solution, trial_witnesses, rng)
        trial_count = len(trial_witnesses)
        if trial_count <= count:
            current, count, witnesses = trial, trial_count, trial_witnesses
    return current if count <= max_givens else None


def minimal_puzzle(
    solution: list[int], rng: random.Random, symmetric: bool = False, max_givens: int | None = None
) -> list[int] | None:
    """A minimal puzzle for a complete grid: `dig`, then `reduce_givens` when `max_givens` is set.

    Returns
    -------
    list of int or None
        81 values, 0 for empty; None when `reduce_givens` gave up.

    Raises
    ------
    ValueError
        `max_givens` with `symmetric` (the moves do not keep symmetry).
    """
    if max_givens is not None and symmetric:
        raise ValueError("max_givens does not combine with symmetric")
    puzzle, witnesses = _dig(solution, rng, symmetric)
    if max_givens is None:
        return puzzle
    return reduce_givens(puzzle, solution, rng, max_givens, witnesses=witnesses)


def _ease(puzzle: list[int], solution: list[int], level: str, rng: random.Random, symmetric: bool) -> Generated | None:
    """Give back givens until the puzzle grades no harder than `level`; None if it skips past it."""
    target = LEVELS.index(Level(level))
    current = list(puzzle)
    graded = solve_puzzle(current)
    while LEVELS.index(Level(graded.level)) > target:  # a generated puzzle is unique: it has a level
        # Give back the cell whose digit the hardest step of the path was about.
        empty = [c for c in range(81) if not current[c]]
        hard_step = max(graded.steps, key=lambda s: rank(s.technique), default=None)
        focus = [c for c, _ in (hard_step.placements + hard_step.eliminations)] if hard_step else []
        choices = [c for c in focus if not current[c]] or empty
        cell = rng.choice(choices)
        for c in {cell, 80 - cell} if symmetric else {cell}:
            current[c] = solution[c]
        graded = solve_puzzle(current)
    if graded.level != level:
        return None
    return Generated(current, graded)


def generate(
    level: str,
    count: int,
    seed: int | None = None,
    symmetric: bool = False,
    minimal: bool = False,
    max_givens: int | None = None,
    max_tries: int = 100000,
) -> Iterator[Generated]:
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
    GenerationFailed
        `max_tries` grids gave too few puzzles at the level (a RuntimeError).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = random.Random(seed)
    made = 0
    for _ in range(max_tries):
        if made == count:
            return
        solution = random_solution(rng)
        puzzle = minimal_puzzle(solution, rng, symmetric, max_givens)
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
        raise GenerationFailed(f"made only {made} of {count} {level} puzzles in {max_tries} tries")
