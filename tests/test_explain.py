"""Step texts rendered from the steps' fields (solver/explain.py), on steps of real solution paths."""

import pytest

from snapsolve.solver.explain import RENDERERS, explain
from snapsolve.solver.grid import box_of, parse_puzzle
from snapsolve.solver.logic import solve_logically
from snapsolve.solver.steps import Step
from snapsolve.solver.techniques import Technique

#: (puzzle, 1-based step number on its logical path, technique, the step's text as the finders wrote it before
#: explain.py: taken from benchmarks/step_paths.py's dump of the reference commit).
CASES = [
    (
        "000000039250004010000300024000846001002050900600279000780001000020600053340000000",
        3,
        "full_house",
        "Full House: r5c6 is the last empty cell of box 5, so it is 3",
    ),
    (
        "000000039250004010000300024000846001002050900600279000780001000020600053340000000",
        5,
        "hidden_single",
        "Hidden Single: in box 1, 3 fits only in r2c3",
    ),
    (
        "450900870207600000000000000374050000090000020000060357000000000000008203081007049",
        11,
        "locked_pair",
        "Locked Pair: r7c4, r8c4 hold only 1/5, so these leave the rest of column 4 and box 8",
    ),
    (
        "450900870207600000000000000374050000090000020000060357000000000000008203081007049",
        7,
        "locked_candidates_pointing",
        "Locked Candidates Type 1 (Pointing): in box 1, 9 lies only in row 3, so it leaves the rest of row 3",
    ),
    (
        "008007904040680007001490300000009002009000700700300000004056800800014060105800400",
        34,
        "x_wing",
        "X-Wing: 3 in row 4, row 7 lies in column 1, column 8, so it leaves the rest of those columns",
    ),
    (
        "002060408000001000006470009087100503000000000401005280600024800000300000704010600",
        17,
        "finned_swordfish",
        "Finned Swordfish: 9 in column 2, column 3, column 5 lies in row 2, row 6, row 8 with fins in box 7, "
        "so it leaves the rest of those rows in that box",
    ),
    (
        "750900800000057036000000000000000059806010704940000000000000000480270000002006047",
        25,
        "xyz_wing",
        "XYZ-Wing: pivot r2c2 (1/2/9) with pincers r2c1 and r9c2; one of the three is 1",
    ),
]


@pytest.mark.parametrize("puzzle,number,technique,text", CASES, ids=[c[2] for c in CASES])
def test_explain_renders_a_real_step_as_before(puzzle, number, technique, text):
    step = solve_logically(parse_puzzle(puzzle)).steps[number - 1]
    assert step.technique == technique and step.technique is Technique(technique)
    assert step.fixed_text == "", "the finder wrote the text itself"
    assert explain(step) == step.text == step.to_json()["text"] == text


def test_fish_fields_carry_the_pattern():
    """The finned swordfish above: its base and cover lines and its fins are the pattern's, and the text
    follows the fields (another digit in the fields gives another digit in the words)."""
    puzzle, number = CASES[5][0], CASES[5][1]
    step = solve_logically(parse_puzzle(puzzle)).steps[number - 1]
    assert step.digits == (9,) and step.base == (10, 11, 13) and step.cover == (1, 5, 7)
    assert step.fins and {box_of(c) for c in step.fins} == {6}
    assert all(c % 9 in (1, 2, 4) and c // 9 not in (1, 5, 7) for c in step.fins)
    assert explain(step._replace(digits=(4,))).startswith("Finned Swordfish: 4 in column 2")


def test_a_step_read_back_keeps_its_text_and_unrendered_families_are_listed():
    assert Step(Technique.X_WING, fixed_text="X-Wing: as stored").text == "X-Wing: as stored"
    rendered = {Technique(t) for t in RENDERERS}
    assert {Technique.NAKED_SINGLE, Technique.HIDDEN_QUAD, Technique.SASHIMI_JELLYFISH, Technique.W_WING} <= rendered
