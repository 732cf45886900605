"""The ladder: each technique of the table paired with the finder that reports it, in HoDoKu's order.

`techniques.TECHNIQUES` is plain data (name, title, score, level); this module
imports the finder functions themselves, so a reader or a tool follows a
technique to its code by name. `LADDER` is what the logical solver
(`logic.next_step`) walks, simplest first, as HoDoKu's ``SudokuSolver`` walks
its ``StepConfig`` order.

A finder may report several rows (sashimi fish with the finned ones, nice
loops with AICs, the three grouped forms): such a finder is tried once, at
its first row's place, under that row's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import (
    als,
    chains,
    coloring,
    fish,
    forcing,
    grouped,
    intersections,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from .board import Board
from .steps import Step
from .techniques import TECHNIQUES, Technique

#: A finder: yields the steps of its technique(s) on a board, first the one to take; never changes the board.
Finder = Callable[[Board], Iterator[Step]]

#: Technique -> the finder that reports it (every row but brute force, which is the exact search).
FINDERS: dict[Technique, Finder] = {
    Technique.FULL_HOUSE: singles.find_full_house,
    Technique.NAKED_SINGLE: singles.find_naked_single,
    Technique.HIDDEN_SINGLE: singles.find_hidden_single,
    Technique.LOCKED_PAIR: subsets.find_locked_pair,
    Technique.LOCKED_TRIPLE: subsets.find_locked_triple,
    Technique.LOCKED_CANDIDATES_POINTING: intersections.find_locked_candidates_pointing,
    Technique.LOCKED_CANDIDATES_CLAIMING: intersections.find_locked_candidates_claiming,
    Technique.NAKED_PAIR: subsets.find_naked_pair,
    Technique.NAKED_TRIPLE: subsets.find_naked_triple,
    Technique.HIDDEN_PAIR: subsets.find_hidden_pair,
    Technique.HIDDEN_TRIPLE: subsets.find_hidden_triple,
    Technique.NAKED_QUAD: subsets.find_naked_quad,
    Technique.HIDDEN_QUAD: subsets.find_hidden_quad,
    Technique.X_WING: fish.find_x_wing,
    Technique.SWORDFISH: fish.find_swordfish,
    Technique.JELLYFISH: fish.find_jellyfish,
    Technique.REMOTE_PAIR: chains.find_remote_pair,
    Technique.BUG_PLUS_1: uniqueness.find_bug_plus_1,
    Technique.SKYSCRAPER: single_digit.find_skyscraper,
    Technique.TWO_STRING_KITE: single_digit.find_two_string_kite,
    Technique.TURBOT_FISH: single_digit.find_turbot_fish,
    Technique.EMPTY_RECTANGLE: single_digit.find_empty_rectangle,
    Technique.W_WING: wings.find_w_wing,
    Technique.XY_WING: wings.find_xy_wing,
    Technique.XYZ_WING: wings.find_xyz_wing,
    Technique.UNIQUE_RECTANGLE_1: uniqueness.find_unique_rectangle_1,
    Technique.UNIQUE_RECTANGLE_2: uniqueness.find_unique_rectangle_2,
    Technique.UNIQUE_RECTANGLE_3: uniqueness.find_unique_rectangle_3,
    Technique.UNIQUE_RECTANGLE_4: uniqueness.find_unique_rectangle_4,
    Technique.UNIQUE_RECTANGLE_5: uniqueness.find_unique_rectangle_5,
    Technique.UNIQUE_RECTANGLE_6: uniqueness.find_unique_rectangle_6,
    Technique.HIDDEN_RECTANGLE: uniqueness.find_hidden_rectangle,
    Technique.AVOIDABLE_RECTANGLE_1: uniqueness.find_avoidable_rectangles,
    Technique.AVOIDABLE_RECTANGLE_2: uniqueness.find_avoidable_rectangles,
    Technique.FINNED_X_WING: fish.find_finned_x_wing,
    Technique.SASHIMI_X_WING: fish.find_finned_x_wing,
    Technique.FINNED_SWORDFISH: fish.find_finned_swordfish,
    Technique.SASHIMI_SWORDFISH: fish.find_finned_swordfish,
    Technique.FINNED_JELLYFISH: fish.find_finned_jellyfish,
    Technique.SASHIMI_JELLYFISH: fish.find_finned_jellyfish,
    Technique.SUE_DE_COQ: intersections.find_sue_de_coq,
    Technique.SIMPLE_COLORS: coloring.find_simple_colors,
    Technique.MULTI_COLORS: coloring.find_multi_colors,
    Technique.X_CHAIN: chains.find_x_chain,
    Technique.XY_CHAIN: chains.find_xy_chain,
    Technique.CONTINUOUS_NICE_LOOP: chains.find_aic,
    Technique.DISCONTINUOUS_NICE_LOOP: chains.find_aic,
    Technique.AIC: chains.find_aic,
    Technique.GROUPED_CONTINUOUS_NICE_LOOP: grouped.find_grouped_aic,
    Technique.GROUPED_DISCONTINUOUS_NICE_LOOP: grouped.find_grouped_aic,
    Technique.GROUPED_AIC: grouped.find_grouped_aic,
    Technique.ALS_XZ: als.find_als_xz,
    Technique.ALS_XY_WING: als.find_als_xy_wing,
    Technique.FORCING_CHAIN: forcing.find_forcing_chain,
    Technique.FORCING_NET: forcing.find_forcing_net,
}


def ladder() -> list[tuple[Technique, Finder]]:
    """(technique, finder) pairs in the table's (HoDoKu's) order, each finder once, at its first row.

    The technique is the finder's first row; a step it yields may name a
    later row that the same finder reports (sashimi fish, AIC).
    """
    out: list[tuple[Technique, Finder]] = []
    seen: set[Finder] = set()
    for t in TECHNIQUES:
        finder = FINDERS.get(t.name)
        if finder is None or finder in seen:
            continue
        seen.add(finder)
        out.append((t.name, finder))
    return out


#: (technique, finder) in the order a person tries them: HoDoKu's default solving order.
LADDER: list[tuple[Technique, Finder]] = ladder()
