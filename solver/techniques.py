"""The one table of solving techniques: name, title, score, level, finder, uniqueness.

Every other place that needs a technique's name, title, score, level, order
or uniqueness flag derives it from `TECHNIQUES` below: the logical solver's
ladder (`logic.LADDER`), grading (`grading.grade`), the set of techniques that
need a unique solution (`UNIQUENESS_TECHNIQUES`) and the titles at the start of
step texts (`title`).

Source: HoDoKu 2.2 (Bernhard Hobiger), ``Options.solverSteps`` - its
``StepConfig`` table, as transcribed by hodoku-py 0.2 in
``hodoku/core/scoring.py``. Rows are in HoDoKu's solving order (its ``index``),
with its base score per step and its difficulty level; ``hodoku`` names the
``SolutionType`` each row corresponds to (tests/test_technique_table.py checks
every row against hodoku-py when it is installed). Titles are HoDoKu's
``SolutionType`` display names; technique names are the snake-case forms of
the HoDoKu/SudokuWiki terms.

A finder may report several rows (the finned x-wing finder also reports
sashimi x-wings, the AIC finder continuous and discontinuous nice loops, the
grouped one all three grouped forms): such rows share one finder, which the
ladder tries once, at the first row's place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .steps import Step

Finder = Callable[["Board"], Iterator["Step"]]

#: Difficulty levels, easiest first (HoDoKu's ``DifficultyType`` without INCOMPLETE).
LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]

#: Highest total score a puzzle of each level may have (HoDoKu's ``DEFAULT_DIFFICULTY_LEVELS``).
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800, "extreme": (1 << 31) - 1}


@dataclass(frozen=True)
class Technique:
    """One row of the technique table.

    Attributes
    ----------
    name : str
        Snake-case technique name (the `Step.technique` of its steps).
    title : str
        Display title, HoDoKu's name for it (``"Locked Candidates Type 1 (Pointing)"``).
    score : int
        HoDoKu base score added per step.
    level : str
        HoDoKu difficulty level, one of `LEVELS`.
    finder_path : str or None
        ``"module.function"`` inside this package of the finder that reports
        it; None for brute force (the exact search, not a finder).
    unique : bool
        True when the technique is sound only on a puzzle with exactly one
        solution (uniqueness techniques).
    hodoku : str
        HoDoKu ``SolutionType`` member name of the row.
    """

    name: str
    title: str
    score: int
    level: str
    finder_path: str | None
    unique: bool
    hodoku: str

    @cached_property
    def finder(self) -> Finder | None:
        """The finder function (imported on first use, so finder modules may import this table)."""
        if self.finder_path is None:
            return None
        module, function = self.finder_path.rsplit(".", 1)
        return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def _t(name, title, score, level, finder, hodoku, unique=False) -> Technique:
    return Technique(name, title, score, level, finder, unique, hodoku)


#: All techniques in HoDoKu's solving order.
TECHNIQUES: tuple[Technique, ...] = (
    _t("full_house", "Full House", 4, "easy", "singles.find_full_house", "FULL_HOUSE"),
    _t("naked_single", "Naked Single", 4, "easy", "singles.find_naked_single", "NAKED_SINGLE"),
    _t("hidden_single", "Hidden Single", 14, "easy", "singles.find_hidden_single", "HIDDEN_SINGLE"),
    _t("locked_pair", "Locked Pair", 40, "medium", "subsets.find_locked_pair", "LOCKED_PAIR"),
    _t("locked_triple", "Locked Triple", 60, "medium", "subsets.find_locked_triple", "LOCKED_TRIPLE"),
    _t(
        "locked_candidates_pointing",
        "Locked Candidates Type 1 (Pointing)",
        50,
        "medium",
        "intersections.find_locked_candidates_pointing",
        "LOCKED_CANDIDATES_1",
    ),
    _t(
        "locked_candidates_claiming",
        "Locked Candidates Type 2 (Claiming)",
        50,
        "medium",
        "intersections.find_locked_candidates_claiming",
        "LOCKED_CANDIDATES_2",
    ),
    _t("naked_pair", "Naked Pair", 60, "medium", "subsets.find_naked_pair", "NAKED_PAIR"),
    _t("naked_triple", "Naked Triple", 80, "medium", "subsets.find_naked_triple", "NAKED_TRIPLE"),
    _t("hidden_pair", "Hidden Pair", 70, "medium", "subsets.find_hidden_pair", "HIDDEN_PAIR"),
    _t("hidden_triple", "Hidden Triple", 100, "medium", "subsets.find_hidden_triple", "HIDDEN_TRIPLE"),
    _t("naked_quad", "Naked Quadruple", 120, "hard", "subsets.find_naked_quad", "NAKED_QUADRUPLE"),
    _t("hidden_quad", "Hidden Quadruple", 150, "hard", "subsets.find_hidden_quad", "HIDDEN_QUADRUPLE"),
    _t("x_wing", "X-Wing", 140, "hard", "fish.find_x_wing", "X_WING"),
    _t("swordfish", "Swordfish", 150, "hard", "fish.find_swordfish", "SWORDFISH"),
    _t("jellyfish", "Jellyfish", 160, "hard", "fish.find_jellyfish", "JELLYFISH"),
    _t("remote_pair", "Remote Pair", 110, "hard", "chains.find_remote_pair", "REMOTE_PAIR"),
    _t(
        "bug_plus_1",
        "Bivalue Universal Grave + 1",
        100,
        "hard",
        "uniqueness.find_bug_plus_1",
        "BUG_PLUS_1",
        unique=True,
    ),
    _t("skyscraper", "Skyscraper", 130, "hard", "single_digit.find_skyscraper", "SKYSCRAPER"),
    _t("two_string_kite", "2-String Kite", 150, "hard", "single_digit.find_two_string_kite", "TWO_STRING_KITE"),
    _t("turbot_fish", "Turbot Fish", 120, "hard", "single_digit.find_turbot_fish", "TURBOT_FISH"),
    _t("empty_rectangle", "Empty Rectangle", 120, "hard", "single_digit.find_empty_rectangle", "EMPTY_RECTANGLE"),
    _t("w_wing", "W-Wing", 150, "hard", "wings.find_w_wing", "W_WING"),
    _t("xy_wing", "XY-Wing", 160, "hard", "wings.find_xy_wing", "XY_WING"),
    _t("xyz_wing", "XYZ-Wing", 180, "hard", "wings.find_xyz_wing", "XYZ_WING"),
    *(
        _t(
            f"unique_rectangle_{k}",
            f"Uniqueness Test {k}",
            100,
            "hard",
            f"uniqueness.find_unique_rectangle_{k}",
            f"UNIQUENESS_{k}",
            unique=True,
        )
        for k in range(1, 7)
    ),
    _t(
        "hidden_rectangle",
        "Hidden Rectangle",
        100,
        "hard",
        "uniqueness.find_hidden_rectangle",
        "HIDDEN_RECTANGLE",
        unique=True,
    ),
    *(
        _t(
            f"avoidable_rectangle_{k}",
            f"Avoidable Rectangle Type {k}",
            100,
            "hard",
            "uniqueness.find_avoidable_rectangles",
            f"AVOIDABLE_RECTANGLE_{k}",
            unique=True,
        )
        for k in (1, 2)
    ),
    _t("finned_x_wing", "Finned X-Wing", 130, "hard", "fish.find_finned_x_wing", "FINNED_X_WING"),
    _t("sashimi_x_wing", "Sashimi X-Wing", 150, "hard", "fish.find_finned_x_wing", "SASHIMI_X_WING"),
    _t("finned_swordfish", "Finned Swordfish", 200, "unfair", "fish.find_finned_swordfish", "FINNED_SWORDFISH"),
    _t("sashimi_swordfish", "Sashimi Swordfish", 240, "unfair", "fish.find_finned_swordfish", "SASHIMI_SWORDFISH"),
    _t("finned_jellyfish", "Finned Jellyfish", 250, "unfair", "fish.find_finned_jellyfish", "FINNED_JELLYFISH"),
    _t("sashimi_jellyfish", "Sashimi Jellyfish", 260, "unfair", "fish.find_finned_jellyfish", "SASHIMI_JELLYFISH"),
    _t("sue_de_coq", "Sue de Coq", 250, "unfair", "intersections.find_sue_de_coq", "SUE_DE_COQ"),
    _t("simple_colors", "Simple Colors", 150, "hard", "coloring.find_simple_colors", "SIMPLE_COLORS_TRAP"),
    _t("multi_colors", "Multi-Colors", 200, "hard", "coloring.find_multi_colors", "MULTI_COLORS_1"),
    _t("x_chain", "X-Chain", 260, "unfair", "chains.find_x_chain", "X_CHAIN"),
    _t("xy_chain", "XY-Chain", 260, "unfair", "chains.find_xy_chain", "XY_CHAIN"),
    _t("continuous_nice_loop", "Continuous Nice Loop", 280, "unfair", "chains.find_aic", "CONTINUOUS_NICE_LOOP"),
    _t(
        "discontinuous_nice_loop",
        "Discontinuous Nice Loop",
        280,
        "unfair",
        "chains.find_aic",
        "DISCONTINUOUS_NICE_LOOP",
    ),
    _t("aic", "AIC", 280, "unfair", "chains.find_aic", "AIC"),
    _t(
        "grouped_continuous_nice_loop",
        "Grouped Continuous Nice Loop",
        300,
        "unfair",
        "grouped.find_grouped_aic",
        "GROUPED_CONTINUOUS_NICE_LOOP",
    ),
    _t(
        "grouped_discontinuous_nice_loop",
        "Grouped Discontinuous Nice Loop",
        300,
        "unfair",
        "grouped.find_grouped_aic",
        "GROUPED_DISCONTINUOUS_NICE_LOOP",
    ),
    _t("grouped_aic", "Grouped AIC", 300, "unfair", "grouped.find_grouped_aic", "GROUPED_AIC"),
    _t("als_xz", "Almost Locked Set XZ-Rule", 300, "unfair", "als.find_als_xz", "ALS_XZ"),
    _t("als_xy_wing", "Almost Locked Set XY-Wing", 320, "unfair", "als.find_als_xy_wing", "ALS_XY_WING"),
    _t("forcing_chain", "Forcing Chain", 500, "extreme", "forcing.find_forcing_chain", "FORCING_CHAIN_CONTRADICTION"),
    _t("forcing_net", "Forcing Net", 700, "extreme", "forcing.find_forcing_net", "FORCING_NET_CONTRADICTION"),
    _t("brute_force", "Brute Force", 10000, "extreme", None, "BRUTE_FORCE"),
)

#: name -> Technique.
BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}

#: Techniques that are sound only when the puzzle has exactly one solution.
UNIQUENESS_TECHNIQUES: frozenset[str] = frozenset(t.name for t in TECHNIQUES if t.unique)


def title(name: str) -> str:
    """Display title of a technique (``"x_wing"`` -> ``"X-Wing"``).

    Raises
    ------
    KeyError
        `name` is not in the table.
    """
    return BY_NAME[name].title


def ladder() -> list[tuple[str, Finder]]:
    """(technique name, finder) pairs in HoDoKu's order, each finder once (at its first row).

    The name is that of the finder's first row; a step it yields may name a
    later row that the same finder reports (sashimi fish, AIC).
    """
    out: list[tuple[str, Finder]] = []
    seen: set[str] = set()
    for t in TECHNIQUES:
        if t.finder_path is None or t.finder_path in seen:
            continue
        seen.add(t.finder_path)
        finder = t.finder
        assert finder is not None  # a finder path names a finder
        out.append((t.name, finder))
    return out


def rank(name: str) -> int:
    """Sort key of a technique by difficulty: level first, then score (the hardest step of a path has the largest)."""
    t = BY_NAME[name]
    return LEVELS.index(t.level) * 100000 + t.score
