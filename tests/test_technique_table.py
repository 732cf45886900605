"""The technique table against HoDoKu's StepConfig (hodoku-py), and everything derived from it."""

import json

import pytest

from snapsolve.solver import Status, exact, grading, logic
from snapsolve.solver.ladder import FINDERS
from snapsolve.solver.steps import Step
from snapsolve.solver.techniques import BY_NAME, LEVELS, TECHNIQUES, UNIQUENESS_TECHNIQUES, Level, Technique, title


def test_table_matches_hodoku_step_config_row_by_row():
    scoring = pytest.importorskip("hodoku.core.scoring")
    types = pytest.importorskip("hodoku.core.types")
    indices = []
    for t in TECHNIQUES:
        solution_type = types.SolutionType[t.hodoku]
        config = scoring.STEP_CONFIG[solution_type]
        assert t.score == config.base_score, t.name
        assert t.level == config.level.name.lower(), t.name
        # HoDoKu's own title, or that of the Java type hodoku-py splits ("Simple Colors" -> "Simple Colors Trap").
        assert solution_type.value == t.title or solution_type.value.startswith(t.title + " "), t.name
        if t.name != "brute_force":
            assert config.enabled, t.name
        indices.append(config.index)
    assert indices == sorted(indices), "rows are not in HoDoKu's solving order"
    assert dict(scoring.DIFFICULTY_MAX_SCORE)[types.DifficultyType.HARD] == grading.LEVEL_MAX_SCORE["hard"]
    for level in LEVELS:
        assert grading.LEVEL_MAX_SCORE[level] == scoring.DIFFICULTY_MAX_SCORE[types.DifficultyType[level.upper()]]


def test_every_enabled_hodoku_technique_we_do_not_have_is_known():
    """Enabled HoDoKu steps missing from the table: a deliberate, listed gap, not a silent one."""
    scoring = pytest.importorskip("hodoku.core.scoring")
    ours = {t.hodoku for t in TECHNIQUES}
    missing = {s.solution_type.name for s in scoring.SOLVER_STEPS} - ours
    assert missing == {
        "GIVE_UP",
        "ALS_XY_CHAIN",
        "FRANKEN_X_WING",
        "FRANKEN_SWORDFISH",
        "FINNED_FRANKEN_X_WING",
        "FINNED_FRANKEN_SWORDFISH",
    }


def test_hodoku_order_fixed_points():
    names = [t.name for t in TECHNIQUES]
    assert names.index("bug_plus_1") == names.index("remote_pair") + 1
    assert BY_NAME["bug_plus_1"].level == "hard" and BY_NAME["bug_plus_1"].score == 100
    assert names.index("sue_de_coq") < names.index("simple_colors") < names.index("multi_colors")


def test_every_technique_has_one_row_and_a_finder():
    """The enum, the table and the ladder's finders name the same techniques (brute force alone has no finder:
    it is the exact search), and the JSON strings are the members' values."""
    assert [t.name for t in TECHNIQUES] == list(Technique)
    assert set(FINDERS) == set(Technique) - {Technique.BRUTE_FORCE}
    for name, finder in FINDERS.items():
        assert finder.__module__.startswith("snapsolve.solver.") and finder.__name__.startswith("find_"), name
    assert Technique.X_WING == "x_wing" and json.dumps({Technique.X_WING: Level.HARD}) == '{"x_wing": "hard"}'
    assert f"{Technique.LOCKED_CANDIDATES_POINTING}" == "locked_candidates_pointing"
    assert LEVELS == ["easy", "medium", "hard", "unfair", "extreme"] and LEVELS == list(Level)
    assert [s.value for s in Status] == ["solved", "no_solution", "multiple_solutions", "unsure"]
    assert exact.SOLVED == "solved" and exact.SOLVED is Status.SOLVED


def test_ladder_grading_uniqueness_and_titles_come_from_the_table():
    # each finder once, under the name of its first row, in the table's (HoDoKu's) order
    rows = [t.name for t in TECHNIQUES]
    names = [name for name, _ in logic.LADDER]
    first_rows = {}
    for t in TECHNIQUES:
        if t.name in FINDERS:
            first_rows.setdefault(FINDERS[t.name], t.name)
    assert logic.LADDER == [(name, finder) for finder, name in first_rows.items()]
    assert [rows.index(n) for n in names] == sorted(rows.index(n) for n in names)
    assert names[:8] == [
        "full_house",
        "naked_single",
        "hidden_single",
        "locked_pair",
        "locked_triple",
        "locked_candidates_pointing",
        "locked_candidates_claiming",
        "naked_pair",
    ]
    assert names[-2:] == ["forcing_chain", "forcing_net"]
    assert UNIQUENESS_TECHNIQUES == {f"unique_rectangle_{k}" for k in range(1, 7)} | {
        "hidden_rectangle",
        "bug_plus_1",
    } | {f"avoidable_rectangle_{k}" for k in (1, 2)}
    assert grading.grade([Step("bug_plus_1")], False) == ("hard", 100)
    assert grading.grade([Step("sashimi_swordfish")], False) == ("unfair", 240)
    assert grading.grade([Step("naked_single")] * 201, False) == ("medium", 804)
    assert grading.grade([], True) == ("extreme", 10000)
    assert title("locked_candidates_pointing") == "Locked Candidates Type 1 (Pointing)"
    assert Step("x_wing").title == "X-Wing"
    with pytest.raises(KeyError):
        grading.grade([Step("no_such_technique")], False)


def test_every_finder_names_only_its_own_rows():
    """A finder reports techniques of rows that list it (checked on a path of each collection's steps)."""
    from snapsolve.solver.grid import parse_puzzle
    from snapsolve.solver.logic import solve_logically

    from .conftest import read_collection

    rows_of = {}
    for name, finder in FINDERS.items():
        rows_of.setdefault(finder, set()).add(name)
    by_technique = {}
    for _, finder in logic.LADDER:
        for name in rows_of[finder]:
            by_technique[name] = finder
    for line in read_collection("top1465.txt")[:25]:
        for step in solve_logically(parse_puzzle(line)).steps:
            assert step.technique in by_technique and step.text.startswith(step.title), step.text
