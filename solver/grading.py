"""Difficulty grading from the techniques a solution path used.

The scheme is HoDoKu's (Bernhard Hobiger, HoDoKu 2.2, ``StepConfig`` and
``DifficultyLevel``): every technique has a score and a level; a puzzle's score
is the sum over its steps, its level the highest level of any step, raised
further while the score exceeds that level's maximum score. A puzzle that logic
cannot finish needs search, which HoDoKu grades as brute force: extreme.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .steps import Step

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]

#: Highest total score a puzzle of each level may have (HoDoKu's defaults).
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800, "extreme": 1 << 31}

#: technique -> (score per step, level), HoDoKu's default step configuration.
TECHNIQUES: dict[str, tuple[int, str]] = {
    "full_house": (4, "easy"),
    "naked_single": (4, "easy"),
    "hidden_single": (14, "easy"),
    "locked_pair": (40, "medium"),
    "locked_triple": (60, "medium"),
    "locked_candidates_pointing": (50, "medium"),
    "locked_candidates_claiming": (50, "medium"),
    "naked_pair": (60, "medium"),
    "hidden_pair": (70, "medium"),
    "naked_triple": (80, "medium"),
    "hidden_triple": (100, "medium"),
    "naked_quad": (120, "hard"),
    "hidden_quad": (150, "hard"),
    "x_wing": (140, "hard"),
    "swordfish": (150, "hard"),
    "jellyfish": (160, "hard"),
    "finned_x_wing": (130, "hard"),
    "sashimi_x_wing": (150, "hard"),
    "finned_swordfish": (200, "unfair"),
    "sashimi_swordfish": (240, "unfair"),
    "finned_jellyfish": (250, "unfair"),
    "sashimi_jellyfish": (260, "unfair"),
    "skyscraper": (130, "hard"),
    "two_string_kite": (150, "hard"),
    "empty_rectangle": (120, "hard"),
    "turbot_fish": (120, "hard"),
    "xy_wing": (160, "hard"),
    "xyz_wing": (180, "hard"),
    "w_wing": (150, "hard"),
    "unique_rectangle_1": (100, "hard"),
    "unique_rectangle_2": (100, "hard"),
    "unique_rectangle_3": (100, "hard"),
    "unique_rectangle_4": (100, "hard"),
    "unique_rectangle_5": (100, "hard"),
    "unique_rectangle_6": (100, "hard"),
    "hidden_rectangle": (100, "hard"),
    "bug_plus_1": (100, "medium"),
    "simple_colors": (150, "hard"),
    "multi_colors": (200, "hard"),
    "remote_pair": (110, "hard"),
    "sue_de_coq": (250, "unfair"),
    "x_chain": (260, "unfair"),
    "xy_chain": (260, "unfair"),
    "aic": (280, "unfair"),
    "continuous_nice_loop": (280, "unfair"),
    "als_xz": (300, "unfair"),
    "als_xy_wing": (320, "unfair"),
    "forcing_chain": (500, "extreme"),
    "forcing_net": (700, "extreme"),
    "brute_force": (10000, "extreme"),
}


def grade(steps: Iterable[Step], needs_search: bool) -> tuple[str, int]:
    """Level and score of a solution path.

    Parameters
    ----------
    steps : iterable of Step
        The logical steps in the order applied.
    needs_search : bool
        True when logic did not finish and Dancing Links completed the grid;
        counted as one HoDoKu brute-force step.

    Returns
    -------
    (str, int)
        Level (one of `LEVELS`) and total score.

    Raises
    ------
    KeyError
        A step whose technique has no entry in `TECHNIQUES`.
    """
    names = [s.technique for s in steps]
    if needs_search:
        names.append("brute_force")
    score = sum(TECHNIQUES[n][0] for n in names)
    level_index = max((LEVELS.index(TECHNIQUES[n][1]) for n in names), default=0)
    while score > LEVEL_MAX_SCORE[LEVELS[level_index]]:
        level_index += 1
    return LEVELS[level_index], score


def technique_counts(steps: Iterable[Step]) -> dict[str, int]:
    """How often each technique was used, in order of first use."""
    return dict(Counter(s.technique for s in steps))
