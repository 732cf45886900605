"""Difficulty grading from the techniques a solution path used.

The scheme is HoDoKu's (Bernhard Hobiger, HoDoKu 2.2, ``StepConfig`` and
``DifficultyLevel``): every technique has a score and a level (both in
`techniques.TECHNIQUES`); a puzzle's score
is the sum over its steps, its level the highest level of any step, raised
further while the score exceeds that level's maximum score. A puzzle that logic
cannot finish needs search, which HoDoKu grades as brute force: extreme.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .steps import Step
from .techniques import BY_NAME, LEVEL_MAX_SCORE, LEVELS, Level, Technique

__all__ = ["LEVELS", "LEVEL_MAX_SCORE", "Level", "grade", "technique_counts"]


def grade(steps: Iterable[Step], needs_search: bool) -> tuple[Level, int]:
    """Level and score of a solution path.

    Parameters
    ----------
    steps : iterable of Step
        The logical steps in the order applied.
    needs_search : bool
        True when logic did not finish and the exact search completed the grid;
        counted as one HoDoKu brute-force step.

    Returns
    -------
    (Level, int)
        Level and total score.

    Raises
    ------
    KeyError
        A step whose technique has no row in `techniques.TECHNIQUES`.
    """
    names: list[str] = [s.technique for s in steps]
    if needs_search:
        names.append(Technique.BRUTE_FORCE)
    score = sum(BY_NAME[n].score for n in names)
    level_index = max((LEVELS.index(BY_NAME[n].level) for n in names), default=0)
    while score > LEVEL_MAX_SCORE[LEVELS[level_index]]:
        level_index += 1
    return LEVELS[level_index], score


def technique_counts(steps: Iterable[Step]) -> dict[str, int]:
    """How often each technique was used, in order of first use."""
    return dict(Counter(s.technique for s in steps))
