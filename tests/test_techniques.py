"""Each technique finder on a position built by hand, asserting its exact placements and eliminations.

Positions start from an empty board (every candidate open) and remove
candidates so that exactly one pattern exists; the expected result is worked
out from the technique's definition in the comments, not taken from the code.
"""

from itertools import combinations

import pytest

from snapsolve.solver import (
    als,
    chains,
    coloring,
    fish,
    forcing,
    intersections,
    single_digit,
    subsets,
    uniqueness,
    wings,
)
from snapsolve.solver.board import Board
from snapsolve.solver.exact import solve_unique
from snapsolve.solver.grid import HOUSE_GETTERS, initial_candidates, parse_puzzle
from snapsolve.solver.links import ChainSpace
from snapsolve.solver.logic import next_step
from snapsolve.solver.singles import find_full_house, find_hidden_single, find_naked_single
from snapsolve.solver.solve import solve_puzzle

from .conftest import read_collection


def cell(r, c):
    return r * 9 + c


def mask(digits):
    return sum(1 << (d - 1) for d in digits)


def make_board(givens=None, only=None, cands=None):
    """Empty board; `only` = {digit: cells where it stays a candidate}; `cands` = {cell: digits}."""
    givens = givens or [0] * 81
    candidates = initial_candidates(givens)
    for digit, keep in (only or {}).items():
        for c in range(81):
            if c not in keep:
                candidates[c] &= ~(1 << (digit - 1))
    for c, digits in (cands or {}).items():
        candidates[c] = mask(digits)
    return Board(givens, candidates)


def first(finder, board):
    step = next(finder(board), None)
    assert step is not None, f"{finder.__name__} found nothing"
    return step


def elims(step):
    return sorted(step.eliminations)


def test_full_house():
    givens = [0] * 81
    givens[:8] = [1, 2, 3, 4, 5, 6, 7, 8]
    step = first(find_full_house, Board(givens))
    assert step.technique == "full_house" and step.placements == ((8, 9),)


def test_naked_single():
    givens = [0] * 81
    for c, d in zip(range(1, 5), (1, 2, 3, 4)):
        givens[cell(0, c)] = d
    for r, d in zip(range(3, 7), (5, 6, 7, 8)):
        givens[cell(r, 0)] = d
    step = first(find_naked_single, Board(givens))
    assert step.placements == ((0, 9),)


def test_hidden_single_in_box():
    givens = [0] * 81
    for c in (cell(1, 5), cell(2, 8), cell(5, 1), cell(7, 2)):
        givens[c] = 5
    step = first(find_hidden_single, Board(givens))
    assert step.technique == "hidden_single" and step.placements == ((0, 5),)


BOX1 = {cell(r, c) for r in range(3) for c in range(3)}


def test_locked_candidates_pointing():
    # 3 in box 1 only at r1c1, r1c2: it leaves r1c4..r1c9
    board = make_board(only={3: set(range(81)) - BOX1 | {cell(0, 0), cell(0, 1)}})
    step = first(intersections.find_locked_candidates_pointing, board)
    assert elims(step) == [(c, 3) for c in range(3, 9)]


def test_locked_candidates_claiming():
    # 3 in row 1 only at c1, c2: it leaves the rest of box 1
    board = make_board(only={3: set(range(81)) - set(range(2, 9))})
    step = first(intersections.find_locked_candidates_claiming, board)
    assert elims(step) == [(c, 3) for c in (9, 10, 11, 18, 19, 20)]


def test_naked_pair():
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (1, 2)})
    step = first(subsets.find_naked_pair, board)
    assert elims(step) == [(c, d) for c in (1, 2, 3, 5, 6, 7, 8) for d in (1, 2)]


def test_locked_pair_clears_line_and_box():
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 1): (1, 2)})
    step = first(subsets.find_locked_pair, board)
    cells = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20]
    assert step.technique == "locked_pair" and elims(step) == [(c, d) for c in cells for d in (1, 2)]


def test_pair_in_a_box_and_line_is_locked_only_when_it_clears_both():
    # r1c1, r1c2 hold only 1/2 and every other cell of box 1 has lost 1 and 2: the pair clears only row 1.
    # HoDoKu (SimpleSolver.createSubsetStep) calls it a naked pair then, not a locked pair.
    rest_of_box = {cell(r, c) for r in range(3) for c in range(3)} - {cell(0, 0), cell(0, 1)}
    board = make_board(
        cands={cell(0, 0): (1, 2), cell(0, 1): (1, 2)},
        only={1: set(range(81)) - rest_of_box, 2: set(range(81)) - rest_of_box},
    )
    assert next(subsets.find_locked_pair(board), None) is None
    step = first(subsets.find_naked_pair, board)
    assert elims(step) == [(cell(0, c), d) for c in range(3, 9) for d in (1, 2)]


def test_naked_subsets_are_searched_box_first():
    # A naked pair in row 1 (r1c1, r1c5) and one in box 9 (r7c7, r9c9): HoDoKu searches boxes, then rows, then
    # columns, so the box's pair comes first although row 1 is the lower house number.
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (1, 2), cell(6, 6): (3, 4), cell(8, 8): (3, 4)})
    steps = list(subsets.find_naked_pair(board))
    assert steps[0].cells == (cell(6, 6), cell(8, 8)) and steps[1].cells == (cell(0, 0), cell(0, 4))


def test_hidden_pair():
    board = make_board(only={1: set(range(81)) - {1, 2, 3, 5, 6, 7, 8}, 2: set(range(81)) - {1, 2, 3, 5, 6, 7, 8}})
    step = first(subsets.find_hidden_pair, board)
    assert elims(step) == [(c, d) for c in (0, 4) for d in range(3, 10)]


def test_naked_triple():
    board = make_board(cands={0: (1, 2), 4: (2, 3), 8: (1, 3)})
    step = first(subsets.find_naked_triple, board)
    assert elims(step) == [(c, d) for c in (1, 2, 3, 5, 6, 7) for d in (1, 2, 3)]


def test_hidden_triple():
    off = set(range(81)) - {1, 2, 3, 5, 6, 7}
    board = make_board(only={1: off, 2: off, 3: off})
    step = first(subsets.find_hidden_triple, board)
    assert elims(step) == [(c, d) for c in (0, 4, 8) for d in range(4, 10)]


def test_naked_quad():
    board = make_board(cands={0: (1, 2), 2: (2, 3), 4: (3, 4), 6: (1, 4)})
    step = first(subsets.find_naked_quad, board)
    assert elims(step) == [(c, d) for c in (1, 3, 5, 7, 8) for d in (1, 2, 3, 4)]


def test_hidden_quad():
    off = set(range(81)) - {1, 3, 5, 7, 8}
    board = make_board(only={d: off for d in (1, 2, 3, 4)})
    step = first(subsets.find_hidden_quad, board)
    assert elims(step) == [(c, d) for c in (0, 2, 4, 6) for d in range(5, 10)]


def _rows_only(row_cols):
    """Cells for a digit that appears in the given rows only at the given columns, everywhere else free."""
    keep = set(range(81))
    for r, cols in row_cols.items():
        keep -= {cell(r, c) for c in range(9) if c not in cols}
    return keep


def _cols_only(col_rows):
    """The same by columns (the row pattern, transposed): in the given columns the digit appears only in the
    given rows."""
    return {cell(k % 9, k // 9) for k in _rows_only(col_rows)}


def test_sue_de_coq():
    # C = r1c1 {1,2,3} + r1c2 {1,2,4} (row 1 and box 1, four digits in two cells), L = r1c5 {1,2} in row 1,
    # B = r2c1 {3,4} in box 1; L and B share no digit, and the four cells hold exactly 1-4, one each.
    # 1 and 2 (not in B) stay in row 1's C and L cells: they leave the rest of row 1. 3 and 4 (not in L) stay in
    # box 1's C and B cells: they leave the rest of box 1. r1c3 is in both.
    board = make_board(cands={cell(0, 0): (1, 2, 3), cell(0, 1): (1, 2, 4), cell(0, 4): (1, 2), cell(1, 0): (3, 4)})
    step = first(intersections.find_sue_de_coq, board)
    row = [cell(0, c) for c in (2, 3, 5, 6, 7, 8)]
    box = [cell(0, 2), cell(1, 1), cell(1, 2), cell(2, 0), cell(2, 1), cell(2, 2)]
    assert elims(step) == sorted([(c, d) for c in row for d in (1, 2)] + [(c, d) for c in box for d in (3, 4)])


def test_x_wing():
    board = make_board(only={5: _rows_only({0: {1, 6}, 4: {1, 6}})})
    step = first(fish.find_x_wing, board)
    assert elims(step) == sorted((cell(r, c), 5) for r in (1, 2, 3, 5, 6, 7, 8) for c in (1, 6))


def test_swordfish():
    board = make_board(only={5: _rows_only({0: {1, 4}, 3: {4, 7}, 6: {1, 7}})})
    step = first(fish.find_swordfish, board)
    assert elims(step) == sorted((cell(r, c), 5) for r in (1, 2, 4, 5, 7, 8) for c in (1, 4, 7))


def test_jellyfish():
    board = make_board(only={5: _rows_only({0: {0, 2}, 2: {2, 4}, 4: {4, 6}, 6: {6, 0}})})
    step = first(fish.find_jellyfish, board)
    assert elims(step) == sorted((cell(r, c), 5) for r in (1, 3, 5, 7, 8) for c in (0, 2, 4, 6))


def test_finned_x_wing():
    # rows 1 and 5 hold 5 in columns 2 and 7, row 5 also in c8 (the fin, box 6):
    # 5 leaves column 7 inside box 6: r4c7 and r6c7
    board = make_board(only={5: _rows_only({0: {1, 6}, 4: {1, 6, 7}})})
    step = first(fish.find_finned_x_wing, board)
    assert step.technique == "finned_x_wing" and elims(step) == [(cell(3, 6), 5), (cell(5, 6), 5)]


def test_sashimi_x_wing():
    board = make_board(only={5: _rows_only({0: {1, 6}, 4: {1, 7, 8}})})
    step = first(fish.find_finned_x_wing, board)
    assert step.technique == "sashimi_x_wing" and elims(step) == [(cell(3, 6), 5), (cell(5, 6), 5)]


def test_skyscraper():
    # 4 in column 2 at r1/r7 and column 6 at r3/r7: base on row 7; one of r1c2, r3c6 is 4
    board = make_board(only={4: _cols_only({1: {0, 6}, 5: {2, 6}})})
    step = first(single_digit.find_skyscraper, board)
    assert elims(step) == [(cell(0, 3), 4), (cell(0, 4), 4), (cell(2, 0), 4), (cell(2, 2), 4)]


def test_two_string_kite():
    keep = _rows_only({0: {1, 6}}) & _cols_only({0: {2, 6}})
    board = make_board(only={6: keep})
    step = first(single_digit.find_two_string_kite, board)
    assert elims(step) == [(cell(6, 6), 6)]


def test_empty_rectangle():
    box = {cell(r, c) for r in range(3) for c in range(3)}
    cross = {cell(1, 0), cell(1, 2), cell(0, 1), cell(2, 1)}
    keep = (set(range(81)) - box | cross) & _cols_only({5: {1, 7}})
    board = make_board(only={7: keep})
    step = first(single_digit.find_empty_rectangle, board)
    assert step.eliminations == ((cell(7, 1), 7),)


def test_turbot_fish():
    # 5 in box 1 only at r1c1/r3c3 and in column 5 only at r3c5/r8c5 (a box link, so no skyscraper or kite).
    # r3c3 sees r3c5, so r1c1 or r8c5 is 5; of the cells seeing both, r1c5 has lost 5 already: r8c1 loses it.
    box = {cell(r, c) for r in range(3) for c in range(3)}
    column = {cell(r, 4) for r in range(9)}
    keep = set(range(81)) - (box - {cell(0, 0), cell(2, 2)}) - (column - {cell(2, 4), cell(7, 4)})
    board = make_board(only={5: keep})
    step = first(single_digit.find_turbot_fish, board)
    assert step.eliminations == ((cell(7, 0), 5),)


def test_xy_wing():
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (1, 3), cell(4, 0): (2, 3)})
    step = first(wings.find_xy_wing, board)
    assert step.eliminations == ((cell(4, 4), 3),)


def test_xyz_wing():
    board = make_board(cands={cell(0, 0): (1, 2, 3), cell(0, 4): (1, 3), cell(1, 1): (2, 3)})
    step = first(wings.find_xyz_wing, board)
    assert elims(step) == [(cell(0, 1), 3), (cell(0, 2), 3)]


def test_w_wing():
    board = make_board(only={1: _rows_only({6: {0, 4}})}, cands={cell(0, 0): (1, 2), cell(4, 4): (1, 2)})
    step = first(wings.find_w_wing, board)
    assert elims(step) == [(cell(0, 4), 2), (cell(4, 0), 2)]


UR = (cell(0, 0), cell(0, 3), cell(1, 0), cell(1, 3))


def test_unique_rectangle_1():
    board = make_board(cands={UR[0]: (1, 2), UR[1]: (1, 2), UR[2]: (1, 2), UR[3]: (1, 2, 5)})
    assert elims(first(uniqueness.find_unique_rectangle_1, board)) == [(UR[3], 1), (UR[3], 2)]


def test_unique_rectangle_2():
    board = make_board(cands={UR[0]: (1, 2), UR[1]: (1, 2), UR[2]: (1, 2, 5), UR[3]: (1, 2, 5)})
    step = first(uniqueness.find_unique_rectangle_2, board)
    assert elims(step) == [(cell(1, c), 5) for c in (1, 2, 4, 5, 6, 7, 8)]


def test_unique_rectangle_3():
    board = make_board(cands={UR[0]: (1, 2), UR[1]: (1, 2), UR[2]: (1, 2, 5), UR[3]: (1, 2, 6), cell(1, 6): (5, 6)})
    step = first(uniqueness.find_unique_rectangle_3, board)
    assert elims(step) == [(cell(1, c), d) for c in (1, 2, 4, 5, 7, 8) for d in (5, 6)]


def test_unique_rectangle_4():
    board = make_board(
        only={1: set(range(81)) - {cell(1, c) for c in (1, 2, 4, 5, 6, 7, 8)}},
        cands={UR[0]: (1, 2), UR[1]: (1, 2), UR[2]: (1, 2, 5), UR[3]: (1, 2, 6)},
    )
    step = first(uniqueness.find_unique_rectangle_4, board)
    assert elims(step) == [(UR[2], 2), (UR[3], 2)]


def test_unique_rectangle_5():
    board = make_board(cands={UR[0]: (1, 2), UR[3]: (1, 2), UR[1]: (1, 2, 5), UR[2]: (1, 2, 5)})
    step = first(uniqueness.find_unique_rectangle_5, board)
    assert elims(step) == [(cell(0, 1), 5), (cell(0, 2), 5), (cell(1, 4), 5), (cell(1, 5), 5)]


def test_unique_rectangle_6():
    lines = {cell(r, c) for r in (0, 1) for c in range(9)} | {cell(r, c) for c in (0, 3) for r in range(9)}
    board = make_board(
        only={1: set(range(81)) - (lines - set(UR))},
        cands={UR[0]: (1, 2), UR[3]: (1, 2), UR[1]: (1, 2, 5), UR[2]: (1, 2, 6)},
    )
    step = first(uniqueness.find_unique_rectangle_6, board)
    assert elims(step) == [(UR[1], 1), (UR[2], 1)]


def test_hidden_rectangle():
    # Rectangle r1c1, r1c4, r2c1, r2c4 (boxes 1 and 2) on 1/2; r1c1 holds only 1/2. In row 2, 1 fits only
    # r2c1 and r2c4; in column 4 only r1c4 and r2c4. If r2c4 were 2, r2c1 and r1c4 would be 1, r1c1 2: deadly.
    keep = (
        set(range(81))
        - ({cell(1, c) for c in range(9)} - {cell(1, 0), cell(1, 3)})
        - ({cell(r, 3) for r in range(9)} - {cell(0, 3), cell(1, 3)})
    )
    board = make_board(only={1: keep}, cands={cell(0, 0): (1, 2)})
    step = first(uniqueness.find_hidden_rectangle, board)
    assert step.eliminations == ((cell(1, 3), 2),)


def _avoidable_board(far_left, far_right, givens=0):
    # r1c1 = 1 and r1c2 = 2 solved by logic (box 1, row 1); the far corners r4c1 and r4c2 (box 4) in their columns.
    values = [0] * 81
    values[cell(0, 0)], values[cell(0, 1)] = 1, 2
    candidates = [0 if v else m for v, m in zip(values, initial_candidates(values))]
    candidates[cell(3, 0)], candidates[cell(3, 1)] = mask(far_left), mask(far_right)
    return Board(values, candidates, givens=givens)


def test_avoidable_rectangle_2():
    # r4c1 = {2, 3}, r4c2 = {1, 3}: were they 2 and 1, the four cells (none a given) could swap 1 and 2, so one
    # of them is 3, and 3 leaves every cell that sees both: the rest of row 4 and of box 4.
    step = first(uniqueness.find_avoidable_rectangles, _avoidable_board((2, 3), (1, 3)))
    sees_both = {cell(3, c) for c in range(2, 9)} | {cell(r, c) for r in (4, 5) for c in range(3)}
    assert step.technique == "avoidable_rectangle_2" and step.eliminations == tuple((c, 3) for c in sorted(sees_both))


def test_avoidable_rectangle_needs_solved_cells_not_givens():
    # The same pattern when r1c1 and r1c2 are givens: the givens cannot swap, so nothing follows.
    board = _avoidable_board((2, 3), (1, 3), givens=1 << cell(0, 0) | 1 << cell(0, 1))
    assert next(uniqueness.find_avoidable_rectangles(board), None) is None


def test_avoidable_rectangle_2_as_hodoku_py_finds_it():
    pytest.importorskip("hodoku")
    import sys
    from pathlib import Path

    from hodoku.core.types import SolutionType

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from make_technique_cases import findings

    board = _avoidable_board((2, 3), (1, 3))
    ours = {
        frozenset(f"-r{c // 9 + 1}c{c % 9 + 1}:{d}" for c, d in s.eliminations)
        for s in uniqueness.find_avoidable_rectangles(board)
    }
    assert ours == findings(board.values, board.candidates, [SolutionType.AVOIDABLE_RECTANGLE_2], board.givens)


def test_simple_colors_trap():
    keep = _cols_only({0: {0, 6}, 5: {2, 6}}) & _rows_only({6: {0, 5}})
    board = make_board(only={8: keep})
    step = first(coloring.find_simple_colors, board)
    assert elims(step) == [(3, 8), (4, 8), (19, 8), (20, 8)]


def test_simple_colors_wrap():
    # conjugate pairs on 8: col 1 r1c1=r5c1, row 5 r5c1=r5c5, col 5 r5c5=r2c5, row 2 r2c5=r2c2.
    # Colour A = r1c1, r5c5, r2c2; r1c1 and r2c2 share box 1, so colour A is false.
    keep = _cols_only({0: {0, 4}, 4: {4, 1}}) & _rows_only({4: {0, 4}, 1: {4, 1}})
    board = make_board(only={8: keep})
    step = first(coloring.find_simple_colors, board)
    assert "wrap" in step.text and elims(step) == [(cell(0, 0), 8), (cell(1, 1), 8), (cell(4, 4), 8)]


def test_bug_plus_1_on_a_real_position():
    """Walk a top1465 puzzle to its BUG+1 state; the trivalue cell keeps only the true solution's digit."""
    line = "..3...67.5.....3...4.......6..3......8......4...7....12......5.....98.......41..."  # top1465, no. 65
    givens = parse_puzzle(line)
    solution = solve_unique(givens).solution
    board = Board(givens)
    while (step := next(uniqueness.find_bug_plus_1(board), None)) is None:
        board.apply(next_step(board))
    empty = [c for c in range(81) if board.candidates[c]]
    sizes = sorted(bin(board.candidates[c]).count("1") for c in empty)
    assert sizes[:-1] == [2] * (len(empty) - 1) and sizes[-1] == 3
    assert not step.placements and len(step.eliminations) == 2
    (c,) = {c for c, _ in step.eliminations}
    assert bin(board.candidates[c]).count("1") == 3
    assert all(board.candidates[c] >> (d - 1) & 1 and solution[c] != d for _, d in step.eliminations)


def test_x_chain():
    keep = _cols_only({0: {0, 6}, 5: {2, 6}}) & _rows_only({6: {0, 5}})
    board = make_board(only={8: keep})
    step = first(chains.find_x_chain, board)
    assert step.technique == "x_chain" and elims(step) == [(3, 8), (4, 8), (19, 8), (20, 8)]


def test_xy_chain():
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (2, 3), cell(4, 4): (3, 4), cell(4, 8): (4, 1)})
    step = first(chains.find_xy_chain, board)
    assert elims(step) == [(cell(0, 8), 1), (cell(4, 0), 1)]


def test_discontinuous_nice_loop():
    # 1 only at r1c1 and r1c5 in row 1 and at r1c1 and r5c1 in column 1; 2 only at r1c5 and r5c5 in column 5;
    # 3 only at r5c1 and r5c5 in row 5; r1c5 {1,2}, r5c5 {2,3}, r5c1 {3,1}. If 1r1c1 were false, 1r1c5 would
    # be true, so 2r1c5 false, 2r5c5 true, 3r5c5 false, 3r5c1 true, 1r5c1 false, and column 1's 1 would be at
    # r1c1 after all: 1r1c1 is true, and r1c1's other digits 5 and 6 go.
    only_row1 = set(range(81)) - {cell(0, c) for c in range(9) if c not in (0, 4)}
    only_col5 = set(range(81)) - {cell(r, 4) for r in range(9) if r not in (0, 4)}
    only_row5 = set(range(81)) - {cell(4, c) for c in range(9) if c not in (0, 4)}
    only_col1 = set(range(81)) - {cell(r, 0) for r in range(9) if r not in (0, 4)}
    board = make_board(
        only={1: only_row1 & only_col1, 2: only_col5, 3: only_row5},
        cands={cell(0, 0): (1, 5, 6), cell(0, 4): (1, 2), cell(4, 4): (2, 3), cell(4, 0): (3, 1)},
    )
    step = first(chains.find_aic, board)
    assert step.technique == "discontinuous_nice_loop" and elims(step) == [(cell(0, 0), 5), (cell(0, 0), 6)]


def test_multi_colors():
    # 7 in column 1 only at r1c1/r5c1 and in row 2 only at r2c3/r2c8: two clusters. r1c1 sees r2c3 (box 1),
    # so they are not both 7 and one of their partners r5c1, r2c8 is: r5c8, seeing both, loses 7.
    keep = _cols_only({0: {0, 4}}) & _rows_only({1: {2, 7}})
    board = make_board(only={7: keep})
    step = first(coloring.find_multi_colors, board)
    assert step.eliminations == ((cell(4, 7), 7),)


def test_remote_pair():
    # 1/2 cells r1c1 - r1c5 - r5c5 - r5c9 (each sees the next): r1c1 and r5c5 hold one digit, r1c5 and r5c9
    # the other. 1 and 2 stay candidates elsewhere only in r5c1, r9c1 and r9c9. r5c1 sees r1c1 (column 1)
    # and r5c9 (row 5): both digits go. r9c1 sees only r1c1, r9c9 only r5c9: they keep theirs.
    chain = [cell(0, 0), cell(0, 4), cell(4, 4), cell(4, 8)]
    keep = set(chain) | {cell(4, 0), cell(8, 0), cell(8, 8)}
    board = make_board(only={1: keep, 2: keep}, cands={c: (1, 2) for c in chain})
    step = first(chains.find_remote_pair, board)
    assert elims(step) == [(cell(4, 0), 1), (cell(4, 0), 2)]


def test_als_xz():
    # A = r1c2 {1,3}, B = r1c1 + r5c1 {1,2,3} (column 1): 1 is restricted common (r1c2 sees r1c1), so one of
    # them is locked and 3 is in r1c2 or r5c1; cells seeing both lose 3: r2c1, r3c1 (column 1 and box 1),
    # r4c2, r5c2, r6c2 (column 2 and box 4).
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 1): (1, 3), cell(4, 0): (2, 3)})
    step = first(als.find_als_xz, board)
    assert elims(step) == [(cell(r, c), 3) for r, c in ((1, 0), (2, 0), (3, 1), (4, 1), (5, 1))]


def test_als_xy_wing():
    # Pivot C = r1c1 {1,2}; A = r1c5 {1,3} (restricted common 1, row 1); B = r2c2 + r2c3 {2,3,4}
    # (restricted common 2, box 1). A or B holds 3 (r1c5 or r2c3): r1c2, r1c3 and r2c4..r2c6 lose it.
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (1, 3), cell(1, 1): (2, 4), cell(1, 2): (3, 4)})
    step = first(als.find_als_xy_wing, board)
    assert elims(step) == [(cell(0, 1), 3), (cell(0, 2), 3), (cell(1, 3), 3), (cell(1, 4), 3), (cell(1, 5), 3)]


def test_doubly_linked_als_xz():
    # A = r1c1 {1,2}, B = r1c4 {1,3} + r1c5 {2,3}: 1 and 2 are both restricted common, so both sets are locked
    # and the three cells hold exactly 1, 2, 3. Every digit leaves the rest of row 1 (c2, c3, c6..c9), and 3,
    # held by r1c4 or r1c5, also leaves the rest of box 2.
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 3): (1, 3), cell(0, 4): (2, 3)})
    step = first(als.find_als_xz, board)
    row = [cell(0, c) for c in (1, 2, 5, 6, 7, 8)]
    box = [cell(r, c) for r in (1, 2) for c in (3, 4, 5)]
    expected = sorted([(c, d) for c in row for d in (1, 2, 3)] + [(c, 3) for c in box])
    assert "doubly linked" in step.text and elims(step) == expected


def _aic_board():
    # r1c1 holds 1/5/9, r1c5 holds 1/5, and row 1 has 1 and 5 only in those two cells:
    # 1r1c1 = 1r1c5 - 5r1c5 = 5r1c1, so r1c1 is 1 or 5 and not 9.
    row = {cell(0, c) for c in range(1, 9) if c != 4}
    return make_board(
        only={1: set(range(81)) - row, 5: set(range(81)) - row}, cands={cell(0, 0): (1, 5, 9), cell(0, 4): (1, 5)}
    )


def test_aic():
    step = first(chains.find_aic, _aic_board())
    assert step.eliminations == ((0, 9),)


def test_continuous_nice_loop():
    # Bivalue cells r1c1 {1,2}, r1c5 {2,3}, r5c5 {3,4}, r5c1 {4,1} close a loop:
    # 1r1c1 = 2r1c1 - 2r1c5 = 3r1c5 - 3r5c5 = 4r5c5 - 4r5c1 = 1r5c1 - 1r1c1. Each weak link becomes strong:
    # 2 leaves the rest of row 1, 3 the rest of column 5, 4 the rest of row 5, 1 the rest of column 1.
    board = make_board(cands={cell(0, 0): (1, 2), cell(0, 4): (2, 3), cell(4, 4): (3, 4), cell(4, 0): (4, 1)})
    step = first(chains.find_aic, board)
    expected = sorted(
        [(cell(0, c), 2) for c in range(9) if c not in (0, 4)]
        + [(cell(r, 4), 3) for r in range(9) if r not in (0, 4)]
        + [(cell(4, c), 4) for c in range(9) if c not in (0, 4)]
        + [(cell(r, 0), 1) for r in range(9) if r not in (0, 4)]
    )
    assert step.technique == "continuous_nice_loop" and elims(step) == expected


#: A top1465 puzzle whose XY-Chains and AICs need the simple-chain search (their shortest chain is a lasso).
_LASSO_PUZZLE = "260001800000000000809300000094050020700020009080070630000005701000000000001200046"


def test_chain_budget_exhaustion_is_counted(monkeypatch):
    # Within the budget nothing gives up; with a budget of 3 nodes the lasso-free searches run out of it, and
    # each give-up is counted in the solve's result, not dropped silently.
    assert solve_puzzle(parse_puzzle(_LASSO_PUZZLE)).budget_exhausted == 0
    monkeypatch.setattr(chains, "SIMPLE_CHAIN_BUDGET", 3)
    assert solve_puzzle(parse_puzzle(_LASSO_PUZZLE)).budget_exhausted > 0


def test_simple_chain_search_counts_its_give_up(monkeypatch):
    # Two cells of one digit, conjugate (node 0 = node 1): the walk back from node 1 at layer 1 expands one
    # node, more than a budget of 0 allows.
    space = ChainSpace([2, 1], [0, 0], 3, [1, 2])
    layers = chains.chain_layers(space, 0, 2)
    assert chains.trace_simple_chain(space, layers, 1, 1, closed=False) == [0, 1] and space.exhausted == 0
    monkeypatch.setattr(chains, "SIMPLE_CHAIN_BUDGET", 0)
    assert chains.trace_simple_chain(space, layers, 1, 1, closed=False) is None and space.exhausted == 1


def test_forcing_chain_contradiction():
    step = first(forcing.find_forcing_chain, _aic_board())
    assert step.eliminations == ((0, 9),) and "contradiction" in step.text


def test_forcing_net_contradiction():
    step = first(forcing.find_forcing_net, _aic_board())
    assert step.eliminations == ((0, 9),)


def _naked_subsets_by_definition(masks):
    """Per size 2..4, the index combinations of non-zero masks whose union has exactly `size` bits, when more
    than `size` masks are non-zero (written from the definition, by brute force)."""
    nonzero = [i for i, m in enumerate(masks) if m]
    out = []
    for size in (2, 3, 4):
        groups = []
        if len(nonzero) > size:
            for group in combinations(nonzero, size):
                union = 0
                for i in group:
                    union |= masks[i]
                if bin(union).count("1") == size:
                    groups.append((group, union))
        out.append(tuple(groups))
    return tuple(out)


def test_naked_subset_rule_matches_its_definition_on_real_positions():
    # Every position met while solving 12 top1465 puzzles logically: each house's cell candidates (naked
    # subsets), each house's digit places (hidden subsets) and each digit's row and column places (basic
    # fish) give the groups the brute-force definition gives.
    checked = 0
    by_size = [0, 0, 0]  # masks with a group of 2, 3, 4
    for line in read_collection("top1465.txt")[:12]:
        board = Board(parse_puzzle(line))
        for _ in range(200):
            mask_sets = [HOUSE_GETTERS[h](board.candidates) for h in range(27)]
            mask_sets += [board.house_digit_positions(h) for h in range(27)]
            mask_sets += [tuple(board.house_positions(d)[k : k + 9]) for d in range(1, 10) for k in (0, 9)]
            for masks in mask_sets:
                expected = _naked_subsets_by_definition(masks)
                assert subsets.naked_subsets_of(tuple(masks)) == expected, masks
                checked += 1
                for k in range(3):
                    by_size[k] += bool(expected[k])
            step = next_step(board, unique=lambda: True)
            if step is None or board.is_solved():
                break
            board.apply(step)
    assert checked > 60000 and min(by_size) > 5000  # groups of every size were met, not only empty houses
