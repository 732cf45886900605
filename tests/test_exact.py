"""Exact search (bitmask Algorithm X) on the shared puzzle collections."""

import marshal

import pytest

from snapsolve.solver.exact import MULTIPLE_SOLUTIONS, NO_SOLUTION, SOLVED, search_solutions, solve_unique
from snapsolve.solver.grid import is_valid_solution, parse_puzzle

from .conftest import read_collection, sample_of


def _check_unique(lines):
    for line in lines:
        grid = parse_puzzle(line)
        result = solve_unique(grid)
        assert result.status == SOLVED, line
        assert is_valid_solution(grid, result.solution), line


def test_top1465_all_unique_and_valid():
    lines = read_collection("top1465.txt", whole=True)
    assert len(lines) == 1465
    _check_unique(lines)


def test_hardest_list_unique_and_valid():
    _check_unique(read_collection("forum_hardest_1106_part.txt"))


def test_17clue_sample_unique_and_valid():
    _check_unique(sample_of(read_collection("17clue.txt"), 1500))


@pytest.mark.slow
def test_all_17clue_unique_and_valid():
    _check_unique(read_collection("17clue.txt", whole=True))


def test_serg_benchmark_has_several_solutions():
    for line in sample_of(read_collection("serg_benchmark.txt"), 300):
        grid = parse_puzzle(line)
        assert solve_unique(grid).status == MULTIPLE_SOLUTIONS, line
        a, b = search_solutions(grid, limit=2)
        assert a != b and is_valid_solution(grid, a) and is_valid_solution(grid, b)


def test_contradicting_the_unique_solution_gives_no_solution():
    line = read_collection("top1465.txt")[0]
    grid = parse_puzzle(line)
    solution = solve_unique(grid).solution
    # A digit in an empty cell that differs from the unique solution and breaks no
    # house rule: any solution of the new puzzle would solve the old one too.
    for cell in range(81):
        if grid[cell]:
            continue
        for d in range(1, 10):
            if d == solution[cell]:
                continue
            trial = list(grid)
            trial[cell] = d
            try:
                parse_puzzle("".join(map(str, trial)))
            except ValueError:
                continue
            assert solve_unique(trial).status == NO_SOLUTION
            return
    pytest.fail("no contradicting digit found")


def test_conflicting_givens_give_no_solution():
    grid = [0] * 81
    grid[0] = grid[1] = 7
    assert solve_unique(grid).status == NO_SOLUTION


def test_empty_grid_has_many_solutions_and_limit_is_honoured():
    assert len(search_solutions([0] * 81, limit=5)) == 5
    assert solve_unique([0] * 81).status == MULTIPLE_SOLUTIONS


def test_solved_grid_is_its_own_solution():
    line = read_collection("top1465.txt")[3]
    solution = solve_unique(parse_puzzle(line)).solution
    again = solve_unique(solution)
    assert again.status == SOLVED and again.solution == solution


def test_candidates_restrict_the_search():
    line = read_collection("top1465.txt")[5]
    grid = parse_puzzle(line)
    solution = solve_unique(grid).solution
    cell = grid.index(0)
    full = [0 if v else 0x1FF for v in grid]
    assert search_solutions(grid, full, limit=2) == [solution]
    without_truth = list(full)
    without_truth[cell] &= ~(1 << (solution[cell] - 1))  # the true digit struck out: nothing is left
    assert search_solutions(grid, without_truth, limit=2) == []
    empty_mask = list(full)
    empty_mask[cell] = 0  # an empty cell without candidates
    assert search_solutions(grid, empty_mask, limit=2) == []


def test_random_grids_differ_by_seed_and_are_valid():
    import random

    grids = [search_solutions([0] * 81, limit=1, rng=random.Random(seed))[0] for seed in range(5)]
    assert len({tuple(g) for g in grids}) == 5
    assert all(is_valid_solution([0] * 81, g) for g in grids)


def test_two_solutions_are_both_found_and_different():
    # A solved grid with one deadly rectangle emptied: exactly two completions.
    line = read_collection("top1465.txt")[0]
    solution = solve_unique(parse_puzzle(line)).solution
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 == r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if c1 // 3 != c2 // 3:
                        continue
                    a, b = solution[r1 * 9 + c1], solution[r1 * 9 + c2]
                    if solution[r2 * 9 + c1] == b and solution[r2 * 9 + c2] == a:
                        grid = list(solution)
                        for cell in (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2):
                            grid[cell] = 0
                        found = search_solutions(grid, limit=5)
                        assert len(found) == 2 and found[0] != found[1]
                        assert all(is_valid_solution(grid, s) for s in found)
                        return
    pytest.skip("no deadly rectangle in this solution")


def test_the_generated_search_code_is_kept_and_read_back(tmp_path, monkeypatch):
    """The generated functions' code is written beside the module's bytecode once and read back after; a
    damaged file is compiled again; nothing is written when Python writes no bytecode."""
    from snapsolve.solver import exact

    monkeypatch.setattr(exact, "__file__", str(tmp_path / "exact.py"))
    source = "def twice(x):\n    return 2 * x\n"
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    assert exact._compiled(source) and not (tmp_path / "__pycache__").exists()
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    compiled = exact._compiled(source)
    [kept] = (tmp_path / "__pycache__").glob("exact-*.marshal")
    assert exact._compiled(source) == compiled

    def twice(code) -> int:
        namespace: dict = {}
        exec(code, namespace)
        return namespace["twice"](21)

    kept.write_bytes(marshal.dumps(compile(source.replace("2 *", "3 *"), "other", "exec")))
    assert twice(exact._compiled(source)) == 63  # read back, not compiled again
    kept.write_bytes(b"\x00damaged")
    assert twice(exact._compiled(source)) == 42
    assert [p.name for p in (tmp_path / "__pycache__").iterdir()] == [kept.name]  # no temporary file left
