"""Step texts rendered from the steps' fields (solver/explain.py), on steps of real solution paths."""

import pytest

from snapsolve.results import step_json
from snapsolve.solver.explain import RENDERERS, explain
from snapsolve.solver.grid import box_of, parse_puzzle
from snapsolve.solver.ladder import FINDERS
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
    (
        "000014007100000205008500901091380000000000000000076590802007100903000008700850000",
        34,
        "unique_rectangle_4",
        "Uniqueness Test 4: r5c1, r5c9, r6c1, r6c9 would be a deadly pattern on 2/3; 3 in r5c1/r5c9 is locked "
        "there, so neither is 2",
    ),
    (
        "940000053000395104000004000806040005090000040400060308000100000103952000680000021",
        19,
        "sue_de_coq",
        "Sue de Coq: r5c1, r5c3 (1/2/3/5/7) with r5c9 (2/7) in row 5 and r4c2, r6c2 (1/3/5) in box 4 hold "
        "1/2/3/5/7, one each",
    ),
    (
        "940000053000395104000004000806040005090000040400060308000100000103952000680000021",
        20,
        "aic",
        "AIC: 7r2c8 =7r2c1 -2r2c1 =2r7c1 -5r7c1 =5r7c2 -5r6c2 =5r6c4 -5r5c4 =8r5c4 -8r3c4 =7r3c4; 7r2c8 or 7r3c4 is "
        "true, so 7r3c7, 7r3c8, 7r3c9 are false",
    ),
    (
        "010700043200100090000009200004000020090204010020000600003500000050007009840002060",
        24,
        "grouped_discontinuous_nice_loop",
        "Grouped Discontinuous Nice Loop: 3r5c5 -3r4c6/r6c6 =3r2c6 -3r2c2 =8r2c2 -8r4c2 =6r4c2 -6r4c4/r4c5/r4c6 "
        "=6r5c5; 3r5c5 true would make 6r5c5 true as well, so it is false",
    ),
    (
        "010700043200100090000009200004000020090204010020000600003500000050007009840002060",
        26,
        "forcing_chain",
        "Forcing Chain: each candidate of r3c2 rules out 6r4c5",
    ),
]


@pytest.mark.parametrize("puzzle,number,technique,text", CASES, ids=[c[2] for c in CASES])
def test_explain_renders_a_real_step_as_before(puzzle, number, technique, text):
    step = solve_logically(parse_puzzle(puzzle)).steps[number - 1]
    assert step.technique == technique and step.technique is Technique(technique)
    assert step.fixed_text == "", "the finder wrote the text itself"
    assert explain(step) == step.text == step_json(step)["text"] == text


def test_fish_fields_carry_the_pattern():
    """The finned swordfish above: its base and cover lines and its fins are the pattern's, and the text
    follows the fields (another digit in the fields gives another digit in the words)."""
    puzzle, number = CASES[5][0], CASES[5][1]
    step = solve_logically(parse_puzzle(puzzle)).steps[number - 1]
    assert step.digits == (9,) and step.base == (10, 11, 13) and step.cover == (1, 5, 7)
    assert step.fins and {box_of(c) for c in step.fins} == {6}
    assert all(c % 9 in (1, 2, 4) and c // 9 not in (1, 5, 7) for c in step.fins)
    assert explain(step._replace(digits=(4,))).startswith("Finned Swordfish: 4 in column 2")


def test_every_finder_technique_is_rendered_and_a_step_read_back_keeps_its_text():
    assert set(RENDERERS) == set(FINDERS) | {Technique.BRUTE_FORCE}  # and the exact search's step, no finder's
    assert Step(Technique.X_WING, fixed_text="X-Wing: as stored").text == "X-Wing: as stored"


def test_a_puzzle_finished_by_search_says_where_logic_stopped():
    """--explain of a puzzle logic cannot finish ends with the exact search's step: the cells logic left empty,
    their candidates there, and the search's digits, which complete the grid the steps started."""
    from snapsolve.solver import solve_puzzle
    from snapsolve.solver.grid import digits_of, initial_candidates

    from .conftest import read_collection

    line = read_collection("forum_hardest_1106_part.txt")[0]
    givens = parse_puzzle(line)
    solution = solve_puzzle(givens)
    assert solution.needs_search and solution.search is not None
    step = solution.search
    values = list(givens)
    for done in solution.remaining:
        for c, d in done.placements:
            values[c] = d
    empty = tuple(c for c in range(81) if not values[c])
    assert step.technique == "brute_force" and step.cells == empty and len(empty) > 0
    assert step.placements == tuple((c, solution.solution[c]) for c in empty)  # the search completes the grid
    logic = solve_logically(givens)
    assert dict((cells[0], digits) for cells, digits in step.cell_sets) == {
        c: digits_of(logic.board.candidates[c]) for c in empty
    }
    # fewer candidates than the givens alone leave: the eliminations logic made are kept
    fresh = initial_candidates(values)
    assert all(set(digits) <= set(digits_of(fresh[c])) for (c,), digits in step.cell_sets)
    assert step.text == (
        f"Brute Force: logic finds no further step here; {len(empty)} cells are still empty, and the exact search "
        "(Knuth's Algorithm X) fills them from their candidates"
    )
    # from a player's position that logic can finish, no search step; a puzzle logic finishes has none
    entries = [solution.solution[c] if not givens[c] else 0 for c in range(81)]
    entries[empty[0]] = 0
    assert solve_puzzle(givens, entries=entries).search is None
    assert solve_puzzle(parse_puzzle(read_collection("top1465.txt")[4])).search is None
