"""The logical solver: apply the simplest available technique, one step at a time.

As HoDoKu does, every pass asks the finders in ladder order (simplest first)
for one step, applies the first step found and starts again from the top, so
the step log reads like a person's solution path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import als, chains, fish, intersections, single_digit, subsets, uniqueness, wings
from .board import Board
from .singles import find_full_house, find_hidden_single, find_naked_single
from .steps import Step

Finder = Callable[[Board], Iterator[Step]]

#: (technique, finder) in the order a person tries them: HoDoKu's default
#: solving order. A finder may report a variant of its technique (a finned
#: x-wing finder reports sashimi x-wings too).
LADDER: list[tuple[str, Finder]] = [
    ("full_house", find_full_house),
    ("naked_single", find_naked_single),
    ("hidden_single", find_hidden_single),
    ("locked_pair", subsets.find_locked_pair),
    ("locked_triple", subsets.find_locked_triple),
    ("locked_candidates_pointing", intersections.find_locked_candidates_pointing),
    ("locked_candidates_claiming", intersections.find_locked_candidates_claiming),
    ("naked_pair", subsets.find_naked_pair),
    ("naked_triple", subsets.find_naked_triple),
    ("hidden_pair", subsets.find_hidden_pair),
    ("hidden_triple", subsets.find_hidden_triple),
    ("naked_quad", subsets.find_naked_quad),
    ("hidden_quad", subsets.find_hidden_quad),
    ("x_wing", fish.find_x_wing),
    ("swordfish", fish.find_swordfish),
    ("jellyfish", fish.find_jellyfish),
    ("remote_pair", chains.find_remote_pair),
    ("skyscraper", single_digit.find_skyscraper),
    ("two_string_kite", single_digit.find_two_string_kite),
    ("turbot_fish", single_digit.find_turbot_fish),
    ("empty_rectangle", single_digit.find_empty_rectangle),
    ("w_wing", wings.find_w_wing),
    ("xy_wing", wings.find_xy_wing),
    ("xyz_wing", wings.find_xyz_wing),
    ("unique_rectangle_1", uniqueness.find_unique_rectangle_1),
    ("unique_rectangle_2", uniqueness.find_unique_rectangle_2),
    ("unique_rectangle_3", uniqueness.find_unique_rectangle_3),
    ("unique_rectangle_4", uniqueness.find_unique_rectangle_4),
    ("unique_rectangle_5", uniqueness.find_unique_rectangle_5),
    ("unique_rectangle_6", uniqueness.find_unique_rectangle_6),
    ("hidden_rectangle", uniqueness.find_hidden_rectangle),
    ("bug_plus_1", uniqueness.find_bug_plus_1),
    ("finned_x_wing", fish.find_finned_x_wing),
    ("finned_swordfish", fish.find_finned_swordfish),
    ("finned_jellyfish", fish.find_finned_jellyfish),
    ("simple_colors", chains.find_simple_colors),
    ("multi_colors", chains.find_multi_colors),
    ("sue_de_coq", intersections.find_sue_de_coq),
    ("x_chain", chains.find_x_chain),
    ("xy_chain", chains.find_xy_chain),
    ("aic", chains.find_aic),
    ("als_xz", als.find_als_xz),
    ("als_xy_wing", als.find_als_xy_wing),
    ("forcing_chain", chains.find_forcing_chain),
    ("forcing_net", chains.find_forcing_net),
]


@dataclass
class LogicResult:
    """What logic alone achieved.

    Attributes
    ----------
    board : Board
        The state when logic stopped (solved, stuck or broken).
    steps : list of Step
        Steps in the order applied.
    """

    board: Board
    steps: list[Step]

    @property
    def solved(self) -> bool:
        """True when logic filled every cell."""
        return self.board.is_solved()


#: Techniques that are sound only when the puzzle has exactly one solution.
UNIQUENESS_TECHNIQUES = {f"unique_rectangle_{k}" for k in range(1, 7)} | {"hidden_rectangle", "bug_plus_1"}


def next_step(board: Board, ladder: list[tuple[str, Finder]] | None = None,
              unique: Callable[[], bool] | None = None) -> Step | None:
    """The simplest step available on `board`, or None when logic is stuck.

    Parameters
    ----------
    board : Board
    ladder : list, optional
        Finders, simplest first; defaults to `LADDER`.
    unique : callable, optional
        Asked (once a uniqueness technique has a step to offer) whether the
        puzzle has exactly one solution; uniqueness steps are skipped when it
        answers False. Without it they are used (the caller vouches).
    """
    for name, finder in ladder or LADDER:
        step = next(finder(board), None)
        if step is None:
            continue
        if name in UNIQUENESS_TECHNIQUES and unique is not None and not unique():
            continue
        return step
    return None


def solve_logically(grid: list[int], ladder: list[tuple[str, Finder]] | None = None,
                    max_steps: int = 2000, unique: Callable[[], bool] | None = None) -> LogicResult:
    """Apply logical steps until the grid is solved, broken or stuck.

    Parameters
    ----------
    grid : list of int
        81 values, 0 for empty.
    ladder : list, optional
        Finders to use, simplest first; defaults to `LADDER`.
    max_steps : int
        Safety bound on the number of steps.
    unique : callable, optional
        See `next_step`: asked before the first uniqueness step is used.

    Returns
    -------
    LogicResult
    """
    board = Board(grid)
    steps: list[Step] = []
    while len(steps) < max_steps and not board.is_solved() and not board.is_broken():
        step = next_step(board, ladder, unique)
        if step is None:
            break
        board.apply(step)
        steps.append(step)
    return LogicResult(board, steps)
