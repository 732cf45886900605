import pytest

from snapsolve.solver.grid import (
    BOXES,
    HOUSES,
    PEERS,
    InvalidPuzzleError,
    check_givens,
    format_board,
    format_puzzle,
    initial_candidates,
    is_valid_solution,
    parse_puzzle,
    repeated_cells,
)

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def test_houses_and_peers():
    assert len(HOUSES) == 27 and all(len(h) == 9 for h in HOUSES)
    assert all(len(p) == 20 for p in PEERS)
    assert BOXES[4] == [30, 31, 32, 39, 40, 41, 48, 49, 50]
    # every cell is in exactly three houses
    assert all(sum(c in h for h in HOUSES) == 3 for c in range(81))


def test_parse_and_format_round_trip():
    grid = parse_puzzle(PUZZLE)
    assert grid[0] == 4 and grid[1] == 0 and sum(1 for d in grid if d) == 18
    assert format_puzzle(grid) == PUZZLE
    assert parse_puzzle(PUZZLE.replace(".", "0")) == grid
    assert parse_puzzle(PUZZLE + "  # rating 9.1") == grid
    board = format_board(grid)
    assert board.splitlines()[0] == "4 . . | . 3 . | . . ."
    assert len(board.splitlines()) == 11


@pytest.mark.parametrize(
    "text, words",
    [
        (PUZZLE[:80], "81 cells"),
        (PUZZLE + "1", "82 characters"),
        (PUZZLE[:5] + "x" + PUZZLE[6:], "bad character 'x' at position 6"),
        ("44" + PUZZLE[2:], "digit 4 appears twice in row 1"),
    ],
)
def test_parse_errors_are_clear(text, words):
    with pytest.raises(InvalidPuzzleError, match=words):
        parse_puzzle(text)


def test_duplicate_in_box_names_both_cells():
    grid = [0] * 81
    grid[0] = grid[10] = 5
    with pytest.raises(InvalidPuzzleError, match=r"box 1 \(r1c1 and r2c2\)"):
        check_givens(grid)


def test_repeated_cells_are_every_copy_of_a_digit_twice_in_a_house():
    """Both copies of a digit twice in a box, a row or a column; none in a valid puzzle; the same grids that
    `check_givens` refuses."""
    assert repeated_cells(parse_puzzle(PUZZLE)) == []
    grid = parse_puzzle(PUZZLE)
    grid[10] = 4  # r2c2: a second 4 in box 1 (r1c1)
    grid[80] = 1  # r9c9: a second 1 in column 9 (r3c9)
    assert repeated_cells(grid) == [0, 10, 26, 80]
    with pytest.raises(InvalidPuzzleError):
        check_givens(grid)


def test_initial_candidates_exclude_peer_digits():
    grid = parse_puzzle(PUZZLE)
    cands = initial_candidates(grid)
    assert cands[0] == 0  # filled
    # r1c2 sees 4 (r1c1) and 3 (r1c5): neither is a candidate
    assert not cands[1] & (1 << 3) and not cands[1] & (1 << 2)


def test_is_valid_solution_rejects_broken_grids():
    solved = [((r * 3 + r // 3 + c) % 9) + 1 for r in range(9) for c in range(9)]
    assert is_valid_solution([0] * 81, solved)
    broken = list(solved)
    broken[0], broken[1] = broken[1], broken[0]
    assert not is_valid_solution([0] * 81, broken)
    assert not is_valid_solution([solved[0] % 9 + 1] + [0] * 80, solved)
