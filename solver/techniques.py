"""The one table of solving techniques, as plain data: name, title, score, level, uniqueness.

Every other place that needs a technique's name, title, score, level, order
or uniqueness flag derives it from `TECHNIQUES` below: the logical solver's
ladder (`ladder.LADDER`, which pairs the rows with their finder functions),
grading (`grading.grade`), the set of techniques that need a unique solution
(`UNIQUENESS_TECHNIQUES`) and the titles that start step texts (`title`).
The names are the members of `Technique`, the levels those of `Level`; both
are string enums whose values are the JSON strings.

Source: HoDoKu 2.2 (Bernhard Hobiger), ``Options.solverSteps`` - its
``StepConfig`` table, as transcribed by hodoku-py 0.2 in
``hodoku/core/scoring.py``. Rows are in HoDoKu's solving order (its ``index``),
with its base score per step and its difficulty level; ``hodoku`` names the
``SolutionType`` each row corresponds to (the technique's name in capitals
unless `HODOKU_NAMES` says otherwise; tests/test_technique_table.py checks
every row against hodoku-py when it is installed). Titles are HoDoKu's
``SolutionType`` display names; technique names are the snake-case forms of
the HoDoKu/SudokuWiki terms.

The table knows no code: `ladder` imports the finders and pairs them with
these rows. A finder may report several rows (the finned x-wing finder also
reports sashimi x-wings, the AIC finder continuous and discontinuous nice
loops, the grouped one all three grouped forms).
"""

from __future__ import annotations

from dataclasses import dataclass

from .strenum import StrEnum


class Level(StrEnum):
    """HoDoKu's difficulty levels (``DifficultyType`` without INCOMPLETE), easiest first; values are the JSON
    strings (``Level.HARD == "hard"``)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    UNFAIR = "unfair"
    EXTREME = "extreme"


#: Difficulty levels, easiest first.
LEVELS: list[Level] = list(Level)

#: Highest total score a puzzle of each level may have (HoDoKu's ``DEFAULT_DIFFICULTY_LEVELS``).
LEVEL_MAX_SCORE: dict[Level, int] = {
    Level.EASY: 800,
    Level.MEDIUM: 1000,
    Level.HARD: 1600,
    Level.UNFAIR: 1800,
    Level.EXTREME: (1 << 31) - 1,
}


class Technique(StrEnum):
    """Every technique the solver names, in HoDoKu's solving order; values are the snake-case names of the
    JSON (``Technique.X_WING == "x_wing"``), as HoDoKu and SudokuWiki spell the techniques."""

    FULL_HOUSE = "full_house"
    NAKED_SINGLE = "naked_single"
    HIDDEN_SINGLE = "hidden_single"
    LOCKED_PAIR = "locked_pair"
    LOCKED_TRIPLE = "locked_triple"
    LOCKED_CANDIDATES_POINTING = "locked_candidates_pointing"
    LOCKED_CANDIDATES_CLAIMING = "locked_candidates_claiming"
    NAKED_PAIR = "naked_pair"
    NAKED_TRIPLE = "naked_triple"
    HIDDEN_PAIR = "hidden_pair"
    HIDDEN_TRIPLE = "hidden_triple"
    NAKED_QUAD = "naked_quad"
    HIDDEN_QUAD = "hidden_quad"
    X_WING = "x_wing"
    SWORDFISH = "swordfish"
    JELLYFISH = "jellyfish"
    REMOTE_PAIR = "remote_pair"
    BUG_PLUS_1 = "bug_plus_1"
    SKYSCRAPER = "skyscraper"
    TWO_STRING_KITE = "two_string_kite"
    TURBOT_FISH = "turbot_fish"
    EMPTY_RECTANGLE = "empty_rectangle"
    W_WING = "w_wing"
    XY_WING = "xy_wing"
    XYZ_WING = "xyz_wing"
    UNIQUE_RECTANGLE_1 = "unique_rectangle_1"
    UNIQUE_RECTANGLE_2 = "unique_rectangle_2"
    UNIQUE_RECTANGLE_3 = "unique_rectangle_3"
    UNIQUE_RECTANGLE_4 = "unique_rectangle_4"
    UNIQUE_RECTANGLE_5 = "unique_rectangle_5"
    UNIQUE_RECTANGLE_6 = "unique_rectangle_6"
    HIDDEN_RECTANGLE = "hidden_rectangle"
    AVOIDABLE_RECTANGLE_1 = "avoidable_rectangle_1"
    AVOIDABLE_RECTANGLE_2 = "avoidable_rectangle_2"
    FINNED_X_WING = "finned_x_wing"
    SASHIMI_X_WING = "sashimi_x_wing"
    FINNED_SWORDFISH = "finned_swordfish"
    SASHIMI_SWORDFISH = "sashimi_swordfish"
    FINNED_JELLYFISH = "finned_jellyfish"
    SASHIMI_JELLYFISH = "sashimi_jellyfish"
    SUE_DE_COQ = "sue_de_coq"
    SIMPLE_COLORS = "simple_colors"
    MULTI_COLORS = "multi_colors"
    X_CHAIN = "x_chain"
    XY_CHAIN = "xy_chain"
    CONTINUOUS_NICE_LOOP = "continuous_nice_loop"
    DISCONTINUOUS_NICE_LOOP = "discontinuous_nice_loop"
    AIC = "aic"
    GROUPED_CONTINUOUS_NICE_LOOP = "grouped_continuous_nice_loop"
    GROUPED_DISCONTINUOUS_NICE_LOOP = "grouped_discontinuous_nice_loop"
    GROUPED_AIC = "grouped_aic"
    ALS_XZ = "als_xz"
    ALS_XY_WING = "als_xy_wing"
    FORCING_CHAIN = "forcing_chain"
    FORCING_NET = "forcing_net"
    BRUTE_FORCE = "brute_force"


@dataclass(frozen=True)
class StepConfig:
    """One row of the technique table (HoDoKu's ``StepConfig``).

    Attributes
    ----------
    name : Technique
        The technique (the `Step.technique` of its steps).
    title : str
        Display title, HoDoKu's name for it (``"Locked Candidates Type 1 (Pointing)"``).
    score : int
        HoDoKu base score added per step.
    level : Level
        HoDoKu difficulty level.
    hodoku : str
        HoDoKu ``SolutionType`` member name of the row.
    unique : bool
        True when the technique is sound only on a puzzle with exactly one
        solution (uniqueness techniques).
    """

    name: Technique
    title: str
    score: int
    level: Level
    hodoku: str
    unique: bool = False


_T = Technique

#: HoDoKu's ``SolutionType`` names that are not the technique's name in capitals (``x_wing`` is ``X_WING``).
HODOKU_NAMES: dict[Technique, str] = {
    _T.LOCKED_CANDIDATES_POINTING: "LOCKED_CANDIDATES_1",
    _T.LOCKED_CANDIDATES_CLAIMING: "LOCKED_CANDIDATES_2",
    _T.NAKED_QUAD: "NAKED_QUADRUPLE",
    _T.HIDDEN_QUAD: "HIDDEN_QUADRUPLE",
    _T.UNIQUE_RECTANGLE_1: "UNIQUENESS_1",
    _T.UNIQUE_RECTANGLE_2: "UNIQUENESS_2",
    _T.UNIQUE_RECTANGLE_3: "UNIQUENESS_3",
    _T.UNIQUE_RECTANGLE_4: "UNIQUENESS_4",
    _T.UNIQUE_RECTANGLE_5: "UNIQUENESS_5",
    _T.UNIQUE_RECTANGLE_6: "UNIQUENESS_6",
    _T.SIMPLE_COLORS: "SIMPLE_COLORS_TRAP",
    _T.MULTI_COLORS: "MULTI_COLORS_1",
    _T.FORCING_CHAIN: "FORCING_CHAIN_CONTRADICTION",
    _T.FORCING_NET: "FORCING_NET_CONTRADICTION",
}


def _row(name: Technique, title: str, score: int, level: Level, unique: bool) -> StepConfig:
    """One `StepConfig` row, its HoDoKu name from `HODOKU_NAMES` or else the technique's name in capitals."""
    return StepConfig(name, title, score, level, HODOKU_NAMES.get(name, name.upper()), unique)


#: All techniques in HoDoKu's solving order, one row per `Technique` member: name, title, base score, level,
#: and whether the technique is sound only on a puzzle with one solution.
TECHNIQUES: tuple[StepConfig, ...] = (
    _row(_T.FULL_HOUSE, "Full House", 4, Level.EASY, unique=False),
    _row(_T.NAKED_SINGLE, "Naked Single", 4, Level.EASY, unique=False),
    _row(_T.HIDDEN_SINGLE, "Hidden Single", 14, Level.EASY, unique=False),
    _row(_T.LOCKED_PAIR, "Locked Pair", 40, Level.MEDIUM, unique=False),
    _row(_T.LOCKED_TRIPLE, "Locked Triple", 60, Level.MEDIUM, unique=False),
    _row(_T.LOCKED_CANDIDATES_POINTING, "Locked Candidates Type 1 (Pointing)", 50, Level.MEDIUM, unique=False),
    _row(_T.LOCKED_CANDIDATES_CLAIMING, "Locked Candidates Type 2 (Claiming)", 50, Level.MEDIUM, unique=False),
    _row(_T.NAKED_PAIR, "Naked Pair", 60, Level.MEDIUM, unique=False),
    _row(_T.NAKED_TRIPLE, "Naked Triple", 80, Level.MEDIUM, unique=False),
    _row(_T.HIDDEN_PAIR, "Hidden Pair", 70, Level.MEDIUM, unique=False),
    _row(_T.HIDDEN_TRIPLE, "Hidden Triple", 100, Level.MEDIUM, unique=False),
    _row(_T.NAKED_QUAD, "Naked Quadruple", 120, Level.HARD, unique=False),
    _row(_T.HIDDEN_QUAD, "Hidden Quadruple", 150, Level.HARD, unique=False),
    _row(_T.X_WING, "X-Wing", 140, Level.HARD, unique=False),
    _row(_T.SWORDFISH, "Swordfish", 150, Level.HARD, unique=False),
    _row(_T.JELLYFISH, "Jellyfish", 160, Level.HARD, unique=False),
    _row(_T.REMOTE_PAIR, "Remote Pair", 110, Level.HARD, unique=False),
    _row(_T.BUG_PLUS_1, "Bivalue Universal Grave + 1", 100, Level.HARD, unique=True),
    _row(_T.SKYSCRAPER, "Skyscraper", 130, Level.HARD, unique=False),
    _row(_T.TWO_STRING_KITE, "2-String Kite", 150, Level.HARD, unique=False),
    _row(_T.TURBOT_FISH, "Turbot Fish", 120, Level.HARD, unique=False),
    _row(_T.EMPTY_RECTANGLE, "Empty Rectangle", 120, Level.HARD, unique=False),
    _row(_T.W_WING, "W-Wing", 150, Level.HARD, unique=False),
    _row(_T.XY_WING, "XY-Wing", 160, Level.HARD, unique=False),
    _row(_T.XYZ_WING, "XYZ-Wing", 180, Level.HARD, unique=False),
    _row(_T.UNIQUE_RECTANGLE_1, "Uniqueness Test 1", 100, Level.HARD, unique=True),
    _row(_T.UNIQUE_RECTANGLE_2, "Uniqueness Test 2", 100, Level.HARD, unique=True),
    _row(_T.UNIQUE_RECTANGLE_3, "Uniqueness Test 3", 100, Level.HARD, unique=True),
    _row(_T.UNIQUE_RECTANGLE_4, "Uniqueness Test 4", 100, Level.HARD, unique=True),
    _row(_T.UNIQUE_RECTANGLE_5, "Uniqueness Test 5", 100, Level.HARD, unique=True),
    _row(_T.UNIQUE_RECTANGLE_6, "Uniqueness Test 6", 100, Level.HARD, unique=True),
    _row(_T.HIDDEN_RECTANGLE, "Hidden Rectangle", 100, Level.HARD, unique=True),
    _row(_T.AVOIDABLE_RECTANGLE_1, "Avoidable Rectangle Type 1", 100, Level.HARD, unique=True),
    _row(_T.AVOIDABLE_RECTANGLE_2, "Avoidable Rectangle Type 2", 100, Level.HARD, unique=True),
    _row(_T.FINNED_X_WING, "Finned X-Wing", 130, Level.HARD, unique=False),
    _row(_T.SASHIMI_X_WING, "Sashimi X-Wing", 150, Level.HARD, unique=False),
    _row(_T.FINNED_SWORDFISH, "Finned Swordfish", 200, Level.UNFAIR, unique=False),
    _row(_T.SASHIMI_SWORDFISH, "Sashimi Swordfish", 240, Level.UNFAIR, unique=False),
    _row(_T.FINNED_JELLYFISH, "Finned Jellyfish", 250, Level.UNFAIR, unique=False),
    _row(_T.SASHIMI_JELLYFISH, "Sashimi Jellyfish", 260, Level.UNFAIR, unique=False),
    _row(_T.SUE_DE_COQ, "Sue de Coq", 250, Level.UNFAIR, unique=False),
    _row(_T.SIMPLE_COLORS, "Simple Colors", 150, Level.HARD, unique=False),
    _row(_T.MULTI_COLORS, "Multi-Colors", 200, Level.HARD, unique=False),
    _row(_T.X_CHAIN, "X-Chain", 260, Level.UNFAIR, unique=False),
    _row(_T.XY_CHAIN, "XY-Chain", 260, Level.UNFAIR, unique=False),
    _row(_T.CONTINUOUS_NICE_LOOP, "Continuous Nice Loop", 280, Level.UNFAIR, unique=False),
    _row(_T.DISCONTINUOUS_NICE_LOOP, "Discontinuous Nice Loop", 280, Level.UNFAIR, unique=False),
    _row(_T.AIC, "AIC", 280, Level.UNFAIR, unique=False),
    _row(_T.GROUPED_CONTINUOUS_NICE_LOOP, "Grouped Continuous Nice Loop", 300, Level.UNFAIR, unique=False),
    _row(_T.GROUPED_DISCONTINUOUS_NICE_LOOP, "Grouped Discontinuous Nice Loop", 300, Level.UNFAIR, unique=False),
    _row(_T.GROUPED_AIC, "Grouped AIC", 300, Level.UNFAIR, unique=False),
    _row(_T.ALS_XZ, "Almost Locked Set XZ-Rule", 300, Level.UNFAIR, unique=False),
    _row(_T.ALS_XY_WING, "Almost Locked Set XY-Wing", 320, Level.UNFAIR, unique=False),
    _row(_T.FORCING_CHAIN, "Forcing Chain", 500, Level.EXTREME, unique=False),
    _row(_T.FORCING_NET, "Forcing Net", 700, Level.EXTREME, unique=False),
    _row(_T.BRUTE_FORCE, "Brute Force", 10000, Level.EXTREME, unique=False),
)

#: Technique (or its name) -> its row.
BY_NAME: dict[str, StepConfig] = {t.name: t for t in TECHNIQUES}

#: Techniques that are sound only when the puzzle has exactly one solution.
UNIQUENESS_TECHNIQUES: frozenset[Technique] = frozenset(t.name for t in TECHNIQUES if t.unique)


def title(name: str) -> str:
    """Display title of a technique (``"x_wing"`` or ``Technique.X_WING`` -> ``"X-Wing"``).

    Raises
    ------
    KeyError
        `name` is not in the table.
    """
    return BY_NAME[name].title


def rank(name: str) -> int:
    """Sort key of a technique by difficulty: level first, then score (the hardest step of a path has the largest)."""
    t = BY_NAME[name]
    return LEVELS.index(t.level) * 100000 + t.score
